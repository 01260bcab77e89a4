/**
 * A loopback TCP proxy a test can cut: it stands between a client (the `pg` pool)
 * and a real server (PostgreSQL), and `cut()` plays the server going away — every
 * live connection is destroyed mid-stream and new ones are reset as they arrive —
 * until `restore()`. The client keeps the same address throughout, so a test can
 * check that the same pool recovers on its own, without a restart.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** Destroys every live connection and resets new ones until `restore()`. */
  cut(): void;
  /** Forwards new connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (random port) to `target` (`host:port`). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const live = new Set<Socket>();
  let down = false;

  const server: Server = createServer((client) => {
    if (down) {
      // A stopped server refuses at the TCP level; a reset at once looks the same to the driver
      // (the connection fails before any byte), and keeps the port ours so `restore()` cannot lose it.
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair = [client, upstream];
    for (const socket of pair) {
      live.add(socket);
      // Either side ending or failing ends both: a half-open pair would look like a hung server.
      socket.on("error", () => pair.forEach((s) => s.destroy()));
      socket.on("close", () => {
        live.delete(socket);
        pair.forEach((s) => s.destroy());
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      down = true;
      for (const socket of live) socket.destroy();
    },
    restore() {
      down = false;
    },
    close() {
      down = true;
      for (const socket of live) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
