/** The options the browser's `navigator.credentials.create()` / `.get()` take, for one plan. */
import type { AdapterAuthenticator } from "../../adapters/types.js";
import { randomBytes } from "../crypto/random.js";
import { stringToTransports, toBase64Url } from "./encoding.js";
import type { ResolvedRelyingParty } from "./relying-party.js";
import { authenticationOptionsOf, registrationOptionsOf, type WebAuthnProvider } from "./settings.js";
import type { SimpleWebAuthn } from "./simplewebauthn.js";

/** Whom a new passkey is for: an existing user, or the user-to-be of a sign-up. */
export interface RegistrationTarget {
  id: string;
  email?: string | null;
  name?: string | null;
}

/** WebAuthn caps the user handle at 64 bytes. */
const MAX_USER_HANDLE = 64;

/**
 * The user handle: the user's id when it fits, so a discoverable passkey names
 * its user; random otherwise (sign-in finds the user through the credential id).
 */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(userId);
  return bytes.length > 0 && bytes.length <= MAX_USER_HANDLE ? bytes : randomBytes(32);
}

function descriptors(authenticators: AdapterAuthenticator[]) {
  return authenticators.map((a) => ({ id: toBase64Url(a.credentialID), transports: stringToTransports(a.transports) }));
}

export function registrationOptions(
  lib: SimpleWebAuthn,
  provider: WebAuthnProvider,
  rp: ResolvedRelyingParty,
  target: RegistrationTarget,
  existing: AdapterAuthenticator[],
) {
  // What the authenticator shows to tell this site's passkeys apart.
  const userName = target.email ?? target.name ?? target.id;
  return lib.generateRegistrationOptions({
    ...registrationOptionsOf(provider),
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(target.id),
    userName,
    userDisplayName: target.name ?? userName,
    excludeCredentials: descriptors(existing),
  });
}

/** @param allowed the passkeys of the user named in the request; empty lets the browser offer any (conditional UI). */
export function authenticationOptions(
  lib: SimpleWebAuthn,
  provider: WebAuthnProvider,
  rp: ResolvedRelyingParty,
  allowed: AdapterAuthenticator[],
) {
  return lib.generateAuthenticationOptions({
    ...authenticationOptionsOf(provider),
    rpID: rp.id,
    allowCredentials: descriptors(allowed),
  });
}
