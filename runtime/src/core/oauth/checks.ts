/**
 * The values that bind a callback to the browser that started the sign-in
 * (state, PKCE code verifier, nonce), kept in short-lived cookies encrypted with
 * the secret and bound to the provider, and cleared when the callback is handled,
 * whatever its outcome. Each also names who was signed in when the flow began
 * (`startedBy`): cookies planted in another browser (a sibling subdomain or
 * anyone on an http path can plant them) then meet another session there, and
 * the callback refuses them before it could link an attacker's provider
 * account to the victim.
 */
import type { Cookie } from "../../types.js";
import type { RequestContext } from "../context.js";
import type { CookieKey } from "../http/cookies.js";
import { InvalidCheck } from "../errors/errors.js";
import { clearedCookie, openForProvider, sealForProvider } from "../crypto/sealed-cookie.js";

/** 15 minutes to sign in at the provider. */
export const CHECK_MAX_AGE = 15 * 60;

export type CheckName = "state" | "pkceCodeVerifier" | "nonce";
export const CHECK_COOKIES: readonly CheckName[] = ["state", "pkceCodeVerifier", "nonce"];

const LABEL: Record<CheckName, string> = { state: "state", pkceCodeVerifier: "PKCE code verifier", nonce: "nonce" };

/** The id of the user signed in when the flow began, or `null` for nobody. */
export type StartedBy = string | null;

export interface OpenedCheck {
  value: string;
  startedBy: StartedBy;
}

/** A cookie holding `value` for `providerId` and the session that started the flow, encrypted, for 15 minutes. */
export function sealCheck(ctx: RequestContext, name: CheckName, providerId: string, value: string, startedBy: StartedBy): Promise<Cookie> {
  return sealForProvider(ctx, name, providerId, { value, startedBy }, CHECK_MAX_AGE);
}

/**
 * The value sealed for `providerId` in the request's `name` cookie. Missing,
 * expired, tampered, or made for another provider: `InvalidCheck`, which never
 * signs anyone in.
 */
export async function openCheck(ctx: RequestContext, name: CheckName, providerId: string): Promise<OpenedCheck> {
  const opened = await openForProvider<{ value: string; startedBy: StartedBy }>(ctx, name, providerId);
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
  const { value, startedBy } = opened.payload;
  if (typeof value !== "string") throw new InvalidCheck(`The ${LABEL[name]} cookie holds no value.`);
  // A cookie of an older version names nobody: it cannot show which session began the flow.
  if (startedBy !== null && typeof startedBy !== "string") throw new InvalidCheck(`The ${LABEL[name]} cookie does not say who started the sign-in; start again.`);
  return { value, startedBy };
}

/**
 * Refuses a callback whose checks were sealed for another session than the
 * request's: signed in as someone else, signed out since, or signed in since.
 * Without checks (`checks: ["none"]`) nothing ties the callback to a session,
 * so a signed-in browser is refused outright: it could be a victim's.
 */
export function assertStartedBy(opened: OpenedCheck[], current: StartedBy, providerId: string): void {
  if (opened.length === 0) {
    if (current === null) return;
    throw new InvalidCheck(
      `Provider "${providerId}" has no checks (checks: ["none"]), so its callback cannot be tied to the session that started it; a signed-in user cannot sign in or link with it.`,
    );
  }
  for (const check of opened) {
    if (check.startedBy === current) continue;
    const mismatch =
      check.startedBy === null
        ? "was started while signed out, but at its callback a user is signed in"
        : current === null
          ? "was started by a signed-in user, but at its callback nobody is signed in"
          : "was started by one user, but at its callback another is signed in";
    throw new InvalidCheck(
      `The ${providerId} sign-in ${mismatch}: its check cookies came from another session or browser (planted, or the user signed in or out meanwhile). Start again.`,
    );
  }
}

/** Cookies that delete every check cookie the request carries. */
export function clearChecks(ctx: RequestContext): Cookie[] {
  const out: Cookie[] = [];
  for (const name of CHECK_COOKIES as CookieKey[]) {
    if (ctx.cookies[ctx.cookieSet[name].name] !== undefined) out.push(clearedCookie(ctx, name));
  }
  return out;
}
