/**
 * JWT sessions that end before they expire. A JWT lives in the browser and
 * cannot be deleted where it is stored, so it carries the user's session
 * version from when it was issued (`sessionVersion`), and each read compares
 * it with the stored one (`getUserSessionVersion`). "Sign out everywhere
 * else" (`revokeUserSessions`) and a password change or reset
 * (`setUserPassword` with `revokeSessions`) move the stored version, and every
 * JWT issued before ends. Database sessions need none of this: those calls
 * delete their rows.
 *
 * The stored version is read through version-cache.ts: reused for
 * `session.revocationDelay` seconds (default 5) to say "not revoked", and
 * forgotten by every handler call that moves it, so a revocation ends this
 * process's sessions at their next read and another instance's within the
 * delay.
 *
 * Only a JWT that carries the claim is checked: one issued for a user the
 * adapter does not hold (a Credentials `authorize()` user), or by an adapter
 * without the method, has none and lives until it expires.
 */
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { keptSessionVersion, sessionVersionOf } from "./version-cache.js";

export const SESSION_VERSION_CLAIM = "sessionVersion";
/** When the user signed in (seconds), for the session list and for actions that need a recent sign-in. */
export const SIGNED_IN_AT_CLAIM = "signedInAt";

/** Whether the adapter keeps session versions. */
function hasSessionVersions(ctx: RequestContext): boolean {
  return typeof ctx.config.adapter?.getUserSessionVersion === "function";
}

/** `token` with the user's current session version, when the adapter keeps one for the user. */
export async function withSessionVersion<T extends Record<string, unknown>>(ctx: RequestContext, userId: string | undefined, token: T): Promise<T> {
  if (!userId || !hasSessionVersions(ctx)) return token;
  const version = await storedVersion(ctx, userId, 0);
  return version === null ? token : { ...token, [SESSION_VERSION_CLAIM]: version };
}

/** The token of a sign-in: the user's session version, and when they signed in. */
export async function withSignInClaims<T extends Record<string, unknown>>(ctx: RequestContext, userId: string | undefined, token: T): Promise<T> {
  return { ...(await withSessionVersion(ctx, userId, token)), [SIGNED_IN_AT_CLAIM]: Math.floor(Date.now() / 1000) };
}

/** The handler's claims of `from` put back on `to` (the `jwt` callback may rebuild the token without them). */
export function keepHandlerClaims<T extends Record<string, unknown>>(from: Record<string, unknown>, to: T): T {
  const kept: Record<string, unknown> = { ...to };
  for (const claim of [SESSION_VERSION_CLAIM, SIGNED_IN_AT_CLAIM]) if (typeof from[claim] === "number") kept[claim] = from[claim];
  return kept as T;
}

/**
 * Whether a JWT carrying a version outlived it: the user's sessions were revoked
 * since, or the user is gone. A session read may go by a version read within
 * `session.revocationDelay`; `fresh` (for acting on the account: linking a
 * sign-in method, registering a passkey, changing the password) always asks.
 */
export async function sessionVersionRevoked(ctx: RequestContext, payload: Record<string, unknown>, { fresh = false } = {}): Promise<boolean> {
  const claim = versionClaim(ctx, payload);
  if (claim === "none") return false;
  if (claim === "unverifiable") return true;
  const { userId, version } = claim;
  const delayMs = fresh ? 0 : ctx.config.session.revocationDelay * 1000;
  if ((await storedVersion(ctx, userId, delayMs)) === version) return false;
  // The version kept may be older than the token's (a sign-in on another instance since): ask before refusing.
  return delayMs === 0 || (await storedVersion(ctx, userId, 0)) !== version;
}

/**
 * Whether `sessionVersionRevoked` is sure to answer "not revoked" without a
 * read: the token carries no version, or the one read within the delay (and
 * already answered) matches it. `false` means only `sessionVersionRevoked` can tell.
 */
export function sessionVersionKeptCurrent(ctx: RequestContext, payload: Record<string, unknown>): boolean {
  const claim = versionClaim(ctx, payload);
  if (claim === "none") return true;
  if (claim === "unverifiable") return false;
  return keptSessionVersion(ctx.config.adapter!, claim.userId, ctx.config.session.revocationDelay * 1000)?.version === claim.version;
}

/**
 * The token's version claim: none, one to compare with the user's stored
 * version, or one the handler cannot vouch for (a claim it did not write, or
 * no adapter to check it against).
 */
function versionClaim(ctx: RequestContext, payload: Record<string, unknown>): "none" | "unverifiable" | { userId: string; version: number } {
  const version = payload[SESSION_VERSION_CLAIM];
  if (version === undefined) return "none";
  if (typeof version !== "number" || typeof payload.sub !== "string" || !hasSessionVersions(ctx)) return "unverifiable";
  return { userId: payload.sub, version };
}

/** The user's stored session version, as read within the last `maxAgeMs` milliseconds (0: read now). */
function storedVersion(ctx: RequestContext, userId: string, maxAgeMs: number): Promise<number | null> {
  const adapter = ctx.config.adapter!;
  return sessionVersionOf(adapter, userId, maxAgeMs, () => callAdapter(adapter, "getUserSessionVersion", userId));
}
