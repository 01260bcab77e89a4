/**
 * The session of an incoming request for framework helpers (`locals.auth()`,
 * `getSession`). It goes through the handler's own `session` action, so JWT and
 * database sessions, the callbacks and the sliding re-issue of the cookie behave
 * exactly as `GET <basePath>/session` does.
 */
import { authRaw } from "../core/auth.js";
import { SessionUnavailable } from "../core/errors/errors.js";
import type { AccountBody } from "../core/account/types.js";
import type { AuthConfig, Cookie, Session } from "../types.js";

export interface RequestSession {
  session: Session | null;
  /** Cookies the framework must set on its response (a re-issued or cleared session cookie). */
  cookies: Cookie[];
}

/**
 * Headers of the incoming request the session and account actions need: the
 * cookies, the proxy's view of the origin, and the browser (the account's list
 * of sessions shows it for the current one).
 */
const FORWARDED = ["cookie", "x-forwarded-host", "x-forwarded-proto", "user-agent"] as const;

/**
 * The session as `GET <basePath>/session` answers it, JSON and all: what the
 * `session` callback returned goes through JSON as it does for the client (a
 * `Date` in it becomes its ISO string), so a page reads on the server exactly
 * what the browser reads, as Auth.js's `auth()` does.
 */
export async function readRequestSession(request: Request, config: AuthConfig, basePath: string): Promise<RequestSession> {
  const { body, cookies } = await readAuthJson(request, config, basePath, "session");
  const json: unknown = body === undefined ? null : JSON.parse(JSON.stringify(body));
  const session = json && typeof json === "object" && Object.keys(json).length > 0 ? (json as Session) : null;
  return { session, cookies };
}

/**
 * The signed-in user's account (`GET <basePath>/account`: the user, whether
 * they have a password, their sessions), or `null` when nobody is signed in.
 * Throws `SessionUnavailable` when it cannot be read (no adapter, an adapter
 * without the methods, the database down): the cause is in the server log.
 */
export async function readRequestAccount(request: Request, config: AuthConfig, basePath: string): Promise<AccountBody | null> {
  const { body } = await readAuthJson(request, config, basePath, "account");
  return body && typeof body === "object" ? (body as AccountBody) : null;
}

/** A JSON action of the handler, asked with the incoming request's cookies (and the proxy's view of the origin). */
async function readAuthJson(request: Request, config: AuthConfig, basePath: string, action: "session" | "account"): Promise<{ body: unknown; cookies: Cookie[] }> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const result = await authRaw(new Request(new URL(`${basePath}/${action}`, request.url), { headers }), config);
  const status = result.status ?? 200;
  if (status !== 200) {
    // The handler logged the cause; a page must not mistake a broken database for "signed out".
    throw new SessionUnavailable(`The ${action} could not be read. The cause is in the server log.`);
  }
  return { body: result.body, cookies: result.cookies ?? [] };
}

/** `process.env` where there is one (Node, Bun, Deno's compat layer), else nothing; never throws on edge runtimes. */
export function processEnv(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env ?? {};
}
