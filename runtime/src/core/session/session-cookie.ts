/**
 * The JWT session cookie, in one place: read and decode (with the decoded-token
 * cache), issue (encode and chunk), clear. Every action that touches the session
 * cookie goes through here.
 */
import type { JWT } from "../../jwt.js";
import type { Cookie } from "../../types.js";
import type { DecodedSession } from "../config/config.js";
import type { RequestContext } from "../context.js";
import { clearChunked, readChunked, writeChunked } from "../http/cookies.js";
import { JWTSessionError } from "../errors/errors.js";
import { keepToken } from "./session-callback.js";
import { cappedExpiry, pastAbsoluteEnd, tokenStartOf } from "./session-lifetime.js";

export type SessionRead =
  | { kind: "none" }
  /** A cookie was there but cannot be used (tampered, foreign secret, expired): clear it. */
  | { kind: "invalid"; cookies: Cookie[] }
  | { kind: "valid"; decoded: DecodedSession };

const nowSeconds = () => Math.floor(Date.now() / 1000);

function isExpired(payload: JWT, now = nowSeconds()): boolean {
  return typeof payload.exp === "number" && payload.exp <= now;
}

export function readSession(ctx: RequestContext): SessionRead | Promise<SessionRead> {
  return readCachedSession(ctx) ?? decodeSession(ctx);
}

/**
 * `readSession`'s answer when it needs no decryption: no cookie, or a token in
 * the decoded-token cache. `undefined` when the token must be decrypted.
 */
export function readCachedSession(ctx: RequestContext): SessionRead | undefined {
  const { config } = ctx;
  const name = ctx.cookieSet.sessionToken.name;
  const token = readChunked(ctx.cookies, name);
  if (!token) return { kind: "none" };
  if (!config.jwt.usesDefaultCodec) return undefined;
  const decoded = config.sessionCache.get(token);
  // The cookie name salts the key: the same string under another name is another token (a decode refuses it).
  return decoded?.cookieName === name ? checkedLifetime(ctx, decoded, token) : undefined;
}

async function decodeSession(ctx: RequestContext): Promise<SessionRead> {
  const { config } = ctx;
  const name = ctx.cookieSet.sessionToken.name;
  const token = readChunked(ctx.cookies, name)!;
  let payload: JWT | null;
  try {
    payload = await config.jwt.decode({ token, secret: config.jwt.secret, salt: name });
  } catch (error) {
    const expired = (error as { code?: string }).code === "ERR_JWT_EXPIRED";
    if (expired) config.logger.debug("session token expired");
    else config.logger.error(new JWTSessionError("The session cookie could not be decrypted; it was cleared.", error as Error));
    return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  }
  if (!payload || typeof payload !== "object") return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  const decoded: DecodedSession = { payload, json: JSON.stringify(payload), cookieName: name };
  if (config.jwt.usesDefaultCodec) config.sessionCache.set(token, decoded);
  return checkedLifetime(ctx, decoded, token);
}

/** A decoded token past its expiry or the session's absolute end is invalid (and leaves the cache). */
function checkedLifetime(ctx: RequestContext, decoded: DecodedSession, token: string): SessionRead {
  const { config } = ctx;
  if (isExpired(decoded.payload) || pastAbsoluteEnd(tokenStartOf(decoded.payload), config.session.absoluteMaxAge)) {
    config.sessionCache.delete(token);
    config.logger.debug("session token expired");
    return { kind: "invalid", cookies: clearSessionCookies(ctx) };
  }
  return { kind: "valid", decoded };
}

/**
 * A private copy of the payload: callbacks may mutate it without touching the
 * cache. Parsed from its JSON (the payload came out of JSON), a fraction of what
 * `structuredClone` costs on every session read.
 */
export function copyPayload(decoded: DecodedSession): JWT {
  return JSON.parse(decoded.json) as JWT;
}

export interface IssuedSession {
  cookies: Cookie[];
  expires: Date;
}

/** Encrypts `payload` into the session cookie (chunked when large) with a fresh expiry. */
export async function issueSession(ctx: RequestContext, payload: JWT): Promise<IssuedSession> {
  const { config } = ctx;
  const { name, options } = ctx.cookieSet.sessionToken;
  const { iat: _iat, exp: _exp, jti: _jti, ...claims } = payload;
  // Slid by jwt.maxAge, never past the session's absolute end (whole seconds, at least one).
  const now = Date.now();
  const end = cappedExpiry(config.jwt.maxAge, tokenStartOf(payload), config.session.absoluteMaxAge, now);
  const maxAge = Math.max(1, Math.floor((end - now) / 1000));
  const token = await config.jwt.encode({ token: claims, secret: config.jwt.secret, salt: name, maxAge });
  const expires = new Date(now + maxAge * 1000);
  const cookies = writeChunked(name, token, { ...options, expires }, ctx.cookies);
  config.logger.debug("session cookie issued", { cookies: cookies.filter((c) => c.value !== "").length, expires });
  return { cookies, expires };
}

export function clearSessionCookies(ctx: RequestContext): Cookie[] {
  const { name, options } = ctx.cookieSet.sessionToken;
  return clearChunked(name, options, ctx.cookies);
}

/**
 * Whether a still-valid token should be re-issued on read: when the `jwt` callback
 * changed it, or when it is older than `session.updateAge` (so an active user's
 * session slides forward at most once per period, as database sessions do).
 */
export function needsReissue(ctx: RequestContext, decoded: DecodedSession, next: JWT): boolean {
  const { config } = ctx;
  if (!config.jwt.usesDefaultCodec || typeof decoded.payload.iat !== "number") return true;
  if (nowSeconds() - decoded.payload.iat >= config.session.updateAge) return true;
  // The default callback hands back the copy it was given: nothing to compare.
  if (config.callbacks.jwt === keepToken) return false;
  return JSON.stringify(next) !== decoded.json;
}
