/**
 * The rogue IdP's HTTP plumbing: record each request as received (so tests can assert what
 * the client sent), and write the few kinds of answers it gives.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** A request as the IdP received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. "/token". */
  path: string;
  query: Record<string, string>;
  /** Lowercased header names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed `application/x-www-form-urlencoded` body; empty for other bodies. */
  body: Record<string, string>;
  rawBody: string;
}

/** Reads the whole request (body included) into a `RecordedRequest`. */
export async function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString("utf8");
  const url = new URL(req.url ?? "/", "http://rogue.invalid");
  const isForm = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...req.headers },
    body: isForm ? Object.fromEntries(new URLSearchParams(rawBody)) : {},
    rawBody,
  };
}

/** The authorization response in the requested mode: query (default), fragment or form_post. */
export function respondToClient(res: ServerResponse, redirectUri: string, mode: string | undefined, params: Record<string, string | undefined>) {
  const entries = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (mode === "form_post") {
    const inputs = entries.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}"/>`);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(`<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(redirectUri)}">${inputs.join("")}</form></body></html>`);
    return;
  }
  const target = new URL(redirectUri);
  if (mode === "fragment") target.hash = new URLSearchParams(entries).toString();
  else for (const [name, value] of entries) target.searchParams.append(name, value);
  res.writeHead(302, { location: target.href, "cache-control": "no-store" });
  res.end();
}

/** A JSON answer, never cached (token and userinfo responses carry secrets). */
export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** A plain-text answer: errors that must not redirect, unknown routes. */
export function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(text);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
