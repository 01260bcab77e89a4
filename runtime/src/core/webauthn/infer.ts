/**
 * What `GET webauthn-options` answers: register or authenticate, and for whom.
 * Pure: the session's user and the user info are looked up by the caller.
 *
 * As Auth.js, except that a signed-in user who names no action registers (adds
 * a passkey to their account) instead of getting an error.
 */
import type { AdapterUser } from "../../adapters/types.js";
import type { WebAuthnUserInfo } from "../../providers/passkey.js";
import { InvalidRequest } from "../errors/errors.js";
import type { WebAuthnAction } from "./challenge.js";

export type OptionsPlan =
  /** Add a passkey to the signed-in user; their passkeys are excluded. */
  | { action: "register"; user: AdapterUser }
  /** Register a user that does not exist yet. */
  | { action: "register"; newUser: { email: string; name: string | null } }
  /** Authenticate; with a user, only their passkeys are allowed, without, any (discoverable credentials). */
  | { action: "authenticate"; user: AdapterUser | null };

/** The `action` query parameter: absent (infer it), or one of the two actions. */
export function requestedAction(value: string | null): WebAuthnAction | undefined {
  if (value === null || value === "") return undefined;
  if (value === "register" || value === "authenticate") return value;
  throw new InvalidRequest(`The action ${JSON.stringify(value)} is not a WebAuthn action; use "register" or "authenticate", or leave it out.`);
}

export function planOptions(
  requested: WebAuthnAction | undefined,
  signedIn: AdapterUser | null,
  info: WebAuthnUserInfo,
): OptionsPlan {
  if (signedIn) {
    return requested === "authenticate" ? { action: "authenticate", user: signedIn } : { action: "register", user: signedIn };
  }
  if (requested === "register") {
    if (info === null) {
      throw new InvalidRequest("Registering a passkey needs an email address: send the email field, or sign in first to add a passkey to your account.");
    }
    if (info.exists) {
      throw new InvalidRequest("A user with this email address already exists: sign in with one of their passkeys, then add a new passkey while signed in.");
    }
    return { action: "register", newUser: { email: info.user.email, name: info.user.name ?? null } };
  }
  if (requested === "authenticate" || info === null || info.exists) {
    return { action: "authenticate", user: info?.exists ? info.user : null };
  }
  return { action: "register", newUser: { email: info.user.email, name: info.user.name ?? null } };
}
