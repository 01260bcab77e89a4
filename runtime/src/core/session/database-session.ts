/**
 * Database sessions: the cookie holds only a random token; the session row and
 * its user come from the adapter in one call. Read, slide the expiry (at most
 * once per `updateAge`), create, end.
 */
import type { AdapterSession, AdapterUser } from "../../adapters/types.js";
import type { Cookie } from "../../types.js";
import { storedUserAgent } from "../../adapters/session-user-agent.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { readChunked, writeChunked } from "../http/cookies.js";
import { clearSessionCookies } from "./session-cookie.js";
import { cappedExpiry, pastAbsoluteEnd, sessionStartOf } from "./session-lifetime.js";

/** The request's `User-Agent`, as much as a list of sessions keeps of it. */
export function requestUserAgent(ctx: RequestContext): string | null {
  return storedUserAgent(ctx.request.headers.get("user-agent"));
}

/** Longer than any token we or a sane `generateSessionToken` make: not worth a database query. */
const MAX_TOKEN_LENGTH = 1024;

export type DatabaseSessionRead =
  | { kind: "none" }
  /** A cookie was there but names no live session: clear it. */
  | { kind: "invalid"; cookies: Cookie[] }
  | { kind: "valid"; token: string; session: AdapterSession; user: AdapterUser };

function adapterOf(ctx: RequestContext) {
  // Config resolution guarantees an adapter whenever the strategy is "database".
  return ctx.config.adapter!;
}

function sessionTokenOf(ctx: RequestContext): string | undefined {
  return readChunked(ctx.cookies, ctx.cookieSet.sessionToken.name);
}

/**
 * The session of the request's cookie. An adapter failure is thrown (an
 * `AdapterError`), and the cookie is left alone: a database hiccup must not sign
 * everyone out.
 */
export async function readDatabaseSession(ctx: RequestContext): Promise<DatabaseSessionRead> {
  const token = sessionTokenOf(ctx);
  if (!token) return { kind: "none" };
  if (token.length > MAX_TOKEN_LENGTH) return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  const adapter = adapterOf(ctx);
  const found = await callAdapter(adapter, "getSessionAndUser", token);
  if (!found) return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  const expires = new Date(found.session.expires);
  if (expires.valueOf() <= Date.now() || pastAbsoluteEnd(sessionStartOf(found.session), ctx.config.session.absoluteMaxAge)) {
    await callAdapter(adapter, "deleteSession", token);
    ctx.config.logger.debug("database session expired and was deleted");
    return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  }
  return { kind: "valid", token, session: { ...found.session, expires }, user: found.user };
}

/** The cookie holding `token` until `expires` (clearing chunks a JWT session may have left). */
function tokenCookies(ctx: RequestContext, token: string, expires: Date): Cookie[] {
  const { name, options } = ctx.cookieSet.sessionToken;
  return writeChunked(name, token, { ...options, expires }, ctx.cookies);
}

type ValidRead = Extract<DatabaseSessionRead, { kind: "valid" }>;
type Extended = { session: AdapterSession; cookies: Cookie[] } | null;

/**
 * Extends a live session by `maxAge` when its last extension is at least
 * `updateAge` old (`updateAge: 0`: on every access); otherwise one read, no write.
 * `null` when the adapter's update found no row (it answers `null`): the session
 * ended (a sign-out) between the read and the extension, and its cookie must not
 * be issued again. A promise only when it writes: most reads have nothing to
 * wait for.
 */
export function extendIfDue(ctx: RequestContext, read: ValidRead): Extended | Promise<Extended> {
  const { maxAge, updateAge, absoluteMaxAge } = ctx.config.session;
  const lastExtended = read.session.expires.valueOf() - maxAge * 1000;
  if (lastExtended + updateAge * 1000 > Date.now()) return { session: read.session, cookies: [] };
  const expires = new Date(cappedExpiry(maxAge, sessionStartOf(read.session), absoluteMaxAge));
  // At its absolute end already: nothing to slide.
  if (expires.valueOf() <= read.session.expires.valueOf()) return { session: read.session, cookies: [] };
  return extend(ctx, read, expires);
}

async function extend(ctx: RequestContext, read: ValidRead, expires: Date): Promise<Extended> {
  const updated = await callAdapter(adapterOf(ctx), "updateSession", { sessionToken: read.token, expires });
  // Only `null` means "no such row": an adapter that answers nothing (undefined) on success keeps its sessions.
  if (updated === null) return null;
  return { session: { ...read.session, expires }, cookies: tokenCookies(ctx, read.token, expires) };
}

/** Stores a new session for `userId`; its token, and the cookie that carries it. */
export async function createDatabaseSession(ctx: RequestContext, userId: string): Promise<{ sessionToken: string; cookies: Cookie[] }> {
  const { maxAge, absoluteMaxAge, generateSessionToken } = ctx.config.session;
  const sessionToken = generateSessionToken();
  const expires = new Date(cappedExpiry(maxAge, undefined, absoluteMaxAge));
  const adapter = adapterOf(ctx);
  // Only for an adapter that lists sessions (a gatehouse one): an Auth.js adapter may store every field it is given.
  const userAgent = typeof adapter.listSessionsByUserId === "function" ? requestUserAgent(ctx) : undefined;
  await callAdapter(adapter, "createSession", { sessionToken, userId, expires, ...(userAgent ? { userAgent } : {}) });
  ctx.config.logger.debug("database session created", { expires });
  return { sessionToken, cookies: tokenCookies(ctx, sessionToken, expires) };
}

/**
 * Deletes the session row of the request's cookie. Returns the deleted session, or
 * `null` (no cookie, or no row). An adapter failure is thrown (an `AdapterError`):
 * the row, and so the session, still lives, and the caller must not act as if
 * it had ended.
 */
export async function deleteDatabaseSession(ctx: RequestContext): Promise<AdapterSession | null> {
  const token = sessionTokenOf(ctx);
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  return ((await callAdapter(adapterOf(ctx), "deleteSession", token)) as AdapterSession | null | undefined) ?? null;
}
