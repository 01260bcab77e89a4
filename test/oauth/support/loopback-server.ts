/**
 * Start and stop node:http servers on the loopback interface, for the test peers.
 * Shared by the real provider (`oidc-server.ts`) and the hand-written one (`rogue-idp.ts`).
 */
import type { RequestListener, Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening loopback server and its base URL (`http://127.0.0.1:PORT`, no trailing slash). */
export interface LoopbackServer {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 with a port the OS picks. The listener is passed as a getter so the
 * caller can build its handler after the port is known (oidc-provider needs its issuer URL,
 * port included, at construction).
 */
export async function listenOnLoopback(listener: () => RequestListener): Promise<LoopbackServer> {
  const server = createServer((req, res) => listener()(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/**
 * Closes the server without waiting for idle keep-alive sockets: fetch (undici) keeps
 * connections open, and `server.close()` alone would wait for them to time out.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
