/**
 * Short-lived cookies that bind a step of a sign-in to the browser that started
 * it (the OAuth state, PKCE verifier and nonce; the WebAuthn challenge): the
 * value encrypted with the secret (the cookie name salts the key), bound to one
 * provider, for a few minutes. Opening one says why it cannot be used; each
 * flow turns that into its own error.
 */
import { decode, encode } from "../../jwt.js";
import type { Cookie } from "../../types.js";
import type { RequestContext } from "../context.js";
import type { CookieKey } from "../http/cookies.js";

export type Opened<Payload> =
  | { ok: true; payload: Payload }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "unreadable"; cause: Error }
  | { ok: false; reason: "other-provider"; provider: unknown };

/** The cookie `key` holding `payload` for `providerId`, encrypted, for `maxAge` seconds. */
export async function sealForProvider(
  ctx: RequestContext,
  key: CookieKey,
  providerId: string,
  payload: Record<string, unknown>,
  maxAge: number,
): Promise<Cookie> {
  const { name, options } = ctx.cookieSet[key];
  const value = await encode({ token: { ...payload, provider: providerId }, secret: ctx.config.secrets, salt: name, maxAge });
  return { name, value, options: { ...options, maxAge } };
}

/** What the request's cookie `key` holds for `providerId`; expired or tampered is `unreadable`. */
export async function openForProvider<Payload extends Record<string, unknown>>(
  ctx: RequestContext,
  key: CookieKey,
  providerId: string,
): Promise<Opened<Partial<Payload>>> {
  const name = ctx.cookieSet[key].name;
  const raw = ctx.cookies[name];
  if (!raw) return { ok: false, reason: "missing" };
  let payload: (Partial<Payload> & { provider?: unknown }) | null;
  try {
    payload = await decode<Partial<Payload> & { provider?: unknown }>({ token: raw, secret: ctx.config.secrets, salt: name });
  } catch (error) {
    return { ok: false, reason: "unreadable", cause: error as Error };
  }
  if (!payload) return { ok: false, reason: "unreadable", cause: new Error("The cookie holds no token.") };
  if (payload.provider !== providerId) return { ok: false, reason: "other-provider", provider: payload.provider };
  return { ok: true, payload };
}

/** The cookie that deletes `key`. */
export function clearedCookie(ctx: RequestContext, key: CookieKey): Cookie {
  const { name, options } = ctx.cookieSet[key];
  return { name, value: "", options: { ...options, maxAge: 0, expires: new Date(0) } };
}
