/**
 * A WebAuthn provider's SimpleWebAuthn options, over the defaults. `Passkey()`
 * already carries the defaults; a provider written as a plain object may not.
 */
import {
  defaultAuthenticationOptions,
  defaultRegistrationOptions,
  type WebAuthnAuthenticationOptions,
  type WebAuthnConfig,
  type WebAuthnRegistrationOptions,
  type WebAuthnVerifyAuthenticationOptions,
  type WebAuthnVerifyRegistrationOptions,
} from "../../providers/passkey.js";
import type { WithRuntime } from "../config/providers.js";

export type WebAuthnProvider = WebAuthnConfig & WithRuntime;

export function registrationOptionsOf(provider: WebAuthnConfig): WebAuthnRegistrationOptions {
  const defaults = defaultRegistrationOptions();
  const configured = provider.registrationOptions ?? {};
  return {
    ...defaults,
    ...configured,
    // A copy: SimpleWebAuthn writes `requireResidentKey` into it.
    authenticatorSelection: { ...defaults.authenticatorSelection, ...configured.authenticatorSelection },
  };
}

export function authenticationOptionsOf(provider: WebAuthnConfig): WebAuthnAuthenticationOptions {
  return { ...defaultAuthenticationOptions(), ...provider.authenticationOptions };
}

/**
 * User verification is enforced exactly when it was asked for as `"required"`:
 * SimpleWebAuthn enforces it by default, which would refuse a security key
 * without a PIN that the options called welcome (`"preferred"`).
 */
export function verifyRegistrationOptionsOf(provider: WebAuthnConfig): WebAuthnVerifyRegistrationOptions {
  const registration = registrationOptionsOf(provider);
  return {
    requireUserVerification: registration.authenticatorSelection?.userVerification === "required",
    // The algorithms offered are the ones accepted (SimpleWebAuthn asks for the same list twice).
    ...(registration.supportedAlgorithmIDs ? { supportedAlgorithmIDs: registration.supportedAlgorithmIDs } : {}),
    ...provider.verifyRegistrationOptions,
  };
}

export function verifyAuthenticationOptionsOf(provider: WebAuthnConfig): WebAuthnVerifyAuthenticationOptions {
  const asked = authenticationOptionsOf(provider).userVerification;
  return { requireUserVerification: asked === "required", ...provider.verifyAuthenticationOptions };
}
