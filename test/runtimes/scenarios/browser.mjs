/**
 * A browser as the scenarios need one, in web standards only: it builds a
 * `Request`, hands it to the handler, and keeps the cookies the `Response` sets
 * (for one origin, as the handler's cookies are all Path=/ and host-only).
 */
import { Auth } from "@gatehouse/runtime";

export const ORIGIN = "http://localhost:3000";
export const SECRET = "runtime-matrix-secret-runtime-matrix-secret-0123";

/** One `Set-Cookie` header: name, value and attributes (names lowercased; a flag is `true`). */
function parseSetCookie(header) {
  const [pair = "", ...parts] = header.split(";").map((part) => part.trim());
  const eq = pair.indexOf("=");
  const attributes = {};
  for (const part of parts) {
    const i = part.indexOf("=");
    if (i === -1) attributes[part.toLowerCase()] = true;
    else attributes[part.slice(0, i).toLowerCase()] = part.slice(i + 1);
  }
  return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes };
}

/** The cookies a response sets, by name. */
export function cookiesSet(response) {
  return new Map(response.headers.getSetCookie().map(parseSetCookie).map((cookie) => [cookie.name, cookie]));
}

/** A cookie that deletes itself: empty, with Max-Age=0. */
export function isCleared(cookie) {
  return cookie !== undefined && cookie.value === "" && cookie.attributes["max-age"] === "0";
}

/** A handler config's quiet logger: what it logs is kept, to explain a failure, not printed. */
export function quietLogger() {
  const logged = [];
  return {
    logged,
    logger: {
      error: (error) => void logged.push(`error: ${describe(error)}${error?.cause ? ` (cause: ${describe(error.cause.err ?? error.cause)})` : ""}`),
      warn: (code) => void logged.push(`warn: ${code}`),
      debug: () => {},
    },
  };
}

/** An error's name and message (an AuthError keeps the error it wraps in `cause.err`, as Auth.js does). */
function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * How a request reaches the handler: a call, here. workerd's entry makes each a
 * request to the Worker of its own instead (worker-entry.mjs), as a deployed
 * Worker serves them, so nothing the handler keeps between requests may lean on
 * the request that made it.
 */
let send = (request, config) => Auth(request, config);

export function sendRequestsThrough(transport) {
  send = transport;
}

export class Browser {
  /** Cookie values by name. */
  cookies = new Map();

  constructor(config, origin = ORIGIN) {
    this.config = config;
    this.origin = origin;
  }

  /** `GET path`, or a POST of `form` (URL-encoded) or `json`; cookies sent and kept. */
  async request(path, { form, json } = {}) {
    const headers = new Headers();
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; "));
    let body;
    if (form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(form).toString();
    } else if (json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(json);
    }
    const request = new Request(new URL(path, this.origin), { method: body === undefined ? "GET" : "POST", headers, body });
    const response = await send(request, this.config);
    for (const cookie of cookiesSet(response).values()) {
      if (isCleared(cookie)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  /** The CSRF token of `GET /auth/csrf` (its cookie kept). */
  async csrfToken() {
    const response = await this.request("/auth/csrf");
    return (await response.json()).csrfToken;
  }

  /** `GET /auth/session`'s JSON. */
  async session() {
    return (await this.request("/auth/session")).json();
  }
}

/** The first POST form of a page: its action and its inputs' names and values. */
export function postFormIn(html, pageUrl) {
  const form = /<form\b([^>]*method="post"[^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no POST form on the page: ${html.slice(0, 300)}`);
  const attribute = (source, name) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(source)?.[1];
  const fields = {};
  for (const [, input] of form[2].matchAll(/<input\b([^>]*)>/gi)) {
    const name = attribute(input, "name");
    if (name !== undefined) fields[name] = unescapeHtml(attribute(input, "value") ?? "");
  }
  return { action: new URL(unescapeHtml(attribute(form[1], "action") ?? ""), pageUrl), fields };
}

function unescapeHtml(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, entity) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" })[entity]);
}
