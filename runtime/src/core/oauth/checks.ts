/**
 * The values that bind a callback to the browser that started the sign-in
 * (state, PKCE code verifier, nonce), kept in short-lived cookies encrypted with
 * the secret and bound to the provider, and cleared when the callback is handled,
 * whatever its outcome.
 */
import type { Cookie } from "../../types.js";
import type { RequestContext } from "../context.js";
import type { CookieKey } from "../cookies.js";
import { InvalidCheck } from "../errors.js";
import { clearedCookie, openForProvider, sealForProvider } from "../sealed-cookie.js";

/** 15 minutes to sign in at the provider. */
export const CHECK_MAX_AGE = 15 * 60;

export type CheckName = "state" | "pkceCodeVerifier" | "nonce";
export const CHECK_COOKIES: readonly CheckName[] = ["state", "pkceCodeVerifier", "nonce"];

const LABEL: Record<CheckName, string> = { state: "state", pkceCodeVerifier: "PKCE code verifier", nonce: "nonce" };

/** A cookie holding `value` for `providerId`, encrypted, for 15 minutes. */
export function sealCheck(ctx: RequestContext, name: CheckName, providerId: string, value: string): Promise<Cookie> {
  return sealForProvider(ctx, name, providerId, { value }, CHECK_MAX_AGE);
}

/**
 * The value sealed for `providerId` in the request's `name` cookie. Missing,
 * expired, tampered, or made for another provider: `InvalidCheck`, which never
 * signs anyone in.
 */
export async function openCheck(ctx: RequestContext, name: CheckName, providerId: string): Promise<string> {
  const opened = await openForProvider<{ value: string }>(ctx, name, providerId);
  if (!opened.ok) {
    if (opened.reason === "missing") {
      throw new InvalidCheck(
        `The ${LABEL[name]} cookie is missing: the sign-in was started in another browser, took longer than ${CHECK_MAX_AGE / 60} minutes, or the browser blocked the cookie.`,
      );
    }
    if (opened.reason === "unreadable") {
      throw new InvalidCheck(`The ${LABEL[name]} cookie could not be decrypted (expired, tampered, or made with another secret).`, opened.cause);
    }
    throw new InvalidCheck(`The ${LABEL[name]} cookie was made for provider ${JSON.stringify(opened.provider)}, not "${providerId}".`);
  }
  if (typeof opened.payload.value !== "string") throw new InvalidCheck(`The ${LABEL[name]} cookie holds no value.`);
  return opened.payload.value;
}

/** Cookies that delete every check cookie the request carries. */
export function clearChecks(ctx: RequestContext): Cookie[] {
  const out: Cookie[] = [];
  for (const name of CHECK_COOKIES as CookieKey[]) {
    if (ctx.cookies[ctx.cookieSet[name].name] !== undefined) out.push(clearedCookie(ctx, name));
  }
  return out;
}
