/**
 * The values that bind a callback to the browser that started the sign-in
 * (state, PKCE code verifier, nonce), kept in short-lived cookies encrypted with
 * the secret and bound to the provider, and cleared when the callback is handled,
 * whatever its outcome.
 */
import { decode, encode } from "../../jwt.js";
import type { Cookie } from "../../types.js";
import type { RequestContext } from "../context.js";
import type { CookieKey } from "../cookies.js";
import { InvalidCheck } from "../errors.js";

/** 15 minutes to sign in at the provider. */
export const CHECK_MAX_AGE = 15 * 60;

export type CheckName = "state" | "pkceCodeVerifier" | "nonce";
export const CHECK_COOKIES: readonly CheckName[] = ["state", "pkceCodeVerifier", "nonce"];

const LABEL: Record<CheckName, string> = { state: "state", pkceCodeVerifier: "PKCE code verifier", nonce: "nonce" };

/** A cookie holding `value` for `providerId`, encrypted, for 15 minutes. */
export async function sealCheck(ctx: RequestContext, name: CheckName, providerId: string, value: string): Promise<Cookie> {
  const cookie = ctx.cookieSet[name];
  const sealed = await encode({
    token: { value, provider: providerId },
    secret: ctx.config.secrets,
    salt: cookie.name,
    maxAge: CHECK_MAX_AGE,
  });
  return { name: cookie.name, value: sealed, options: { ...cookie.options, maxAge: CHECK_MAX_AGE } };
}

/**
 * The value sealed for `providerId` in the request's `name` cookie. Missing,
 * expired, tampered, or made for another provider: `InvalidCheck`, which never
 * signs anyone in.
 */
export async function openCheck(ctx: RequestContext, name: CheckName, providerId: string): Promise<string> {
  const cookieName = ctx.cookieSet[name].name;
  const raw = ctx.cookies[cookieName];
  if (!raw) {
    throw new InvalidCheck(
      `The ${LABEL[name]} cookie is missing: the sign-in was started in another browser, took longer than ${CHECK_MAX_AGE / 60} minutes, or the browser blocked the cookie.`,
    );
  }
  let payload: { value?: unknown; provider?: unknown } | null;
  try {
    payload = await decode({ token: raw, secret: ctx.config.secrets, salt: cookieName });
  } catch (error) {
    throw new InvalidCheck(`The ${LABEL[name]} cookie could not be decrypted (expired, tampered, or made with another secret).`, error as Error);
  }
  if (!payload || typeof payload.value !== "string") throw new InvalidCheck(`The ${LABEL[name]} cookie holds no value.`);
  if (payload.provider !== providerId) {
    throw new InvalidCheck(`The ${LABEL[name]} cookie was made for provider ${JSON.stringify(payload.provider)}, not "${providerId}".`);
  }
  return payload.value;
}

/** Cookies that delete every check cookie the request carries. */
export function clearChecks(ctx: RequestContext): Cookie[] {
  const out: Cookie[] = [];
  for (const name of CHECK_COOKIES as CookieKey[]) {
    const { name: cookieName, options } = ctx.cookieSet[name];
    if (ctx.cookies[cookieName] !== undefined) {
      out.push({ name: cookieName, value: "", options: { ...options, maxAge: 0, expires: new Date(0) } });
    }
  }
  return out;
}
