/**
 * The session of an incoming request for framework helpers (`locals.auth()`,
 * `getSession`). It goes through the handler's own `session` action, so JWT and
 * database sessions, the callbacks and the sliding re-issue of the cookie behave
 * exactly as `GET <basePath>/session` does.
 */
import { authRaw } from "../core/auth.js";
import { SessionUnavailable } from "../core/errors.js";
import type { AuthConfig, Cookie, Session } from "../types.js";

export interface RequestSession {
  session: Session | null;
  /** Cookies the framework must set on its response (a re-issued or cleared session cookie). */
  cookies: Cookie[];
}

/** Headers of the incoming request the session action needs: the cookies, and the proxy's view of the origin. */
const FORWARDED = ["cookie", "x-forwarded-host", "x-forwarded-proto"] as const;

export async function readRequestSession(request: Request, config: AuthConfig, basePath: string): Promise<RequestSession> {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const result = await authRaw(new Request(new URL(`${basePath}/session`, request.url), { headers }), config);
  const status = result.status ?? 200;
  if (status !== 200) {
    // The handler logged the cause; a page must not mistake a broken database for "signed out".
    throw new SessionUnavailable("The session could not be read. The cause is in the server log.");
  }
  const body = result.body as Session | null | undefined;
  const session = body && typeof body === "object" && Object.keys(body).length > 0 ? body : null;
  return { session, cookies: result.cookies ?? [] };
}

/** `process.env` where there is one (Node, Bun, Deno's compat layer), else nothing; never throws on edge runtimes. */
export function processEnv(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env ?? {};
}
