/**
 * The challenge of one WebAuthn ceremony, kept in the `webauthnChallenge`
 * cookie, encrypted with the secret (the cookie name salts the key, as with the
 * OAuth check cookies), bound to the provider and the action, for 15 minutes.
 * A registration also carries whom the passkey is for, so nothing is stored
 * before the browser's answer is verified.
 */
import type { Cookie } from "../../types.js";
import type { RequestContext } from "../context.js";
import { WebAuthnVerificationError } from "../errors/errors.js";
import { clearedCookie, openForProvider, sealForProvider } from "../crypto/sealed-cookie.js";

/** 15 minutes to answer the browser's prompt (the prompt itself times out after 5). */
export const CHALLENGE_MAX_AGE = 15 * 60;

export type WebAuthnAction = "register" | "authenticate";

/** A user that a registration will create: nothing of it is stored until then. */
export interface UserToBe {
  id: string;
  email: string;
  name: string | null;
}

export interface Challenge {
  /** The base64url challenge of the options. */
  value: string;
  action: WebAuthnAction;
  /** Registration for a signed-in user: the passkey is added to this user. */
  userId?: string;
  /** Registration of a new user. */
  newUser?: UserToBe;
}

interface SealedChallenge extends Record<string, unknown> {
  value: string;
  action: WebAuthnAction;
  userId?: string;
  newUser?: UserToBe;
}

export function sealChallenge(ctx: RequestContext, providerId: string, challenge: Challenge): Promise<Cookie> {
  return sealForProvider(ctx, "webauthnChallenge", providerId, { ...challenge }, CHALLENGE_MAX_AGE);
}

/**
 * The challenge sealed for `providerId` in the request's cookie. Missing,
 * expired, tampered, or made for another provider: `WebAuthnVerificationError`.
 */
export async function openChallenge(ctx: RequestContext, providerId: string): Promise<Challenge> {
  const opened = await openForProvider<SealedChallenge>(ctx, "webauthnChallenge", providerId);
  if (!opened.ok) {
    if (opened.reason === "missing") {
      throw new WebAuthnVerificationError(
        `The WebAuthn challenge cookie is missing: the passkey prompt was started in another browser, more than ${CHALLENGE_MAX_AGE / 60} minutes ago, or the browser blocked the cookie.`,
      );
    }
    if (opened.reason === "unreadable") {
      throw new WebAuthnVerificationError("The WebAuthn challenge cookie could not be decrypted (expired, tampered, or made with another secret).", opened.cause);
    }
    throw new WebAuthnVerificationError(`The WebAuthn challenge was made for provider ${JSON.stringify(opened.provider)}, not "${providerId}".`);
  }
  const { value, action, userId, newUser } = opened.payload;
  if (typeof value !== "string" || (action !== "register" && action !== "authenticate")) {
    throw new WebAuthnVerificationError("The WebAuthn challenge cookie holds no challenge.");
  }
  return {
    value,
    action,
    ...(typeof userId === "string" ? { userId } : {}),
    ...(newUser && typeof newUser.id === "string" && typeof newUser.email === "string" ? { newUser } : {}),
  };
}

/** Deletes the challenge cookie: a challenge answers one callback, whatever its outcome. */
export function clearChallenge(ctx: RequestContext): Cookie[] {
  return [clearedCookie(ctx, "webauthnChallenge")];
}
