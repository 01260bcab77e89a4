/**
 * A mail server that accepts connections and then stalls: it never sends the
 * SMTP greeting (`never-greets`), or greets and never answers a command
 * (`greets-then-stalls`, a server stuck after accepting the connection). It
 * keeps each connection until the client gives up, and says whether all of them
 * were closed.
 */
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type Stall = "never-greets" | "greets-then-stalls";

export interface SilentSmtpServer {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  host: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections the client has not closed yet. */
  open(): number;
  close(): Promise<void>;
}

export async function startSilentSmtpServer(stall: Stall): Promise<SilentSmtpServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    if (stall === "greets-then-stalls") socket.write("220 silent.test ESMTP ready\r\n");
    // Whatever the client sends (EHLO...) is read and never answered.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    accepted: () => accepted,
    open: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
