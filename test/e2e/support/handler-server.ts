/**
 * A tiny app around `Auth()` on node:http, for browser tests of the built-in
 * pages: listens on 127.0.0.1 and is opened as `http://localhost:<port>`
 * (WebAuthn accepts no IP address as the relying party). `route` answers every
 * request; it gets the web `Request` the handler would see.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (request: Request, path: string, origin: string) => Promise<Response>;

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${req.url}`, { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  res.setHeader("set-cookie", response.headers.getSetCookie());
  res.writeHead(response.status);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function startHandlerServer(route: Route): Promise<Server> {
  const server = createServer(async (req, res) => {
    const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    await send(res, await route(await toRequest(req, origin), req.url!, origin));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** An HTML page with `body`. */
export function htmlPage(body: string, title = "App"): Response {
  return new Response(`<!DOCTYPE html><meta charset="utf-8"><title>${title}</title>${body}`, { headers: { "content-type": "text/html" } });
}
