/**
 * JWT sessions of users who have a password end when it changes (a reset, a
 * change). A JWT lives in the browser and cannot be deleted where it is stored,
 * so it carries a fingerprint of the password the user had when it was issued,
 * and each read compares it with the stored one (one adapter read per session
 * read, for these users only). Database sessions need none of this: setting the
 * password deletes them.
 *
 * A session issued while the user had no password carries no fingerprint, and
 * setting a first password does not end it.
 */
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { passwordFingerprint } from "./links.js";

export const PASSWORD_VERSION_CLAIM = "passwordVersion";

/** Whether the config has a `Password` provider (and so, passwords whose change must end sessions). */
function hasPasswords(ctx: RequestContext): boolean {
  return ctx.config.providers.some((provider) => provider.password !== undefined) && typeof ctx.config.adapter?.getUserPassword === "function";
}

/** `token` with the fingerprint of the user's password, when they have one. */
export async function withPasswordVersion<T extends Record<string, unknown>>(ctx: RequestContext, userId: string | undefined, token: T): Promise<T> {
  if (!userId || !hasPasswords(ctx)) return token;
  const hash = await callAdapter(ctx.config.adapter!, "getUserPassword", userId);
  return hash === null ? token : { ...token, [PASSWORD_VERSION_CLAIM]: await passwordFingerprint(hash) };
}

/** The claim of `from` put back on `to` (the `jwt` callback may rebuild the token without it). */
export function keepPasswordVersion<T extends Record<string, unknown>>(from: Record<string, unknown>, to: T): T {
  const version = from[PASSWORD_VERSION_CLAIM];
  return typeof version === "string" ? { ...to, [PASSWORD_VERSION_CLAIM]: version } : to;
}

/** Whether a session carrying a fingerprint outlived its password: changed, removed, or the user gone. */
export async function passwordSessionRevoked(ctx: RequestContext, payload: Record<string, unknown>): Promise<boolean> {
  const version = payload[PASSWORD_VERSION_CLAIM];
  if (version === undefined) return false;
  if (typeof version !== "string" || typeof payload.sub !== "string" || !hasPasswords(ctx)) return true;
  const hash = await callAdapter(ctx.config.adapter!, "getUserPassword", payload.sub);
  return hash === null || (await passwordFingerprint(hash)) !== version;
}
