/**
 * The browser's answer checked by SimpleWebAuthn against the challenge, the
 * origin and the RP ID: a registration yields the authenticator to store, an
 * authentication the authenticator's new signature counter. Any failure is a
 * `WebAuthnVerificationError` carrying SimpleWebAuthn's reason as its cause.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { AdapterAuthenticator } from "../../adapters/types.js";
import { WebAuthnVerificationError } from "../errors/errors.js";
import { fromBase64, stringToTransports, toBase64, transportsToString } from "./encoding.js";
import type { ResolvedRelyingParty } from "./relying-party.js";
import { verifyAuthenticationOptionsOf, verifyRegistrationOptionsOf, type WebAuthnProvider } from "./settings.js";
import type { SimpleWebAuthn } from "./simplewebauthn.js";

/** An authenticator before it belongs to a user. */
export type NewAuthenticator = Omit<AdapterAuthenticator, "userId">;

export async function verifyRegistration(
  lib: SimpleWebAuthn,
  provider: WebAuthnProvider,
  rp: ResolvedRelyingParty,
  challenge: string,
  response: RegistrationResponseJSON,
): Promise<NewAuthenticator> {
  let verification: Awaited<ReturnType<SimpleWebAuthn["verifyRegistrationResponse"]>>;
  try {
    verification = await lib.verifyRegistrationResponse({
      ...verifyRegistrationOptionsOf(provider),
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
    });
  } catch (error) {
    throw new WebAuthnVerificationError("The passkey registration could not be verified.", error as Error);
  }
  if (!verification.verified) throw new WebAuthnVerificationError("The passkey's attestation statement is not valid.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  // SimpleWebAuthn does not compare them; the id stored must be the key's own.
  if (credential.id !== response.id) {
    throw new WebAuthnVerificationError("The credential id the browser reported differs from the one in the authenticator data.");
  }
  return {
    credentialID: response.id,
    credentialPublicKey: toBase64(credential.publicKey),
    counter: credential.counter,
    credentialDeviceType,
    credentialBackedUp,
    transports: transportsToString(response.response.transports),
    providerAccountId: response.id,
  };
}

/** Verifies the signature with the stored key; a counter that did not increase is refused (a cloned authenticator). */
export async function verifyAuthentication(
  lib: SimpleWebAuthn,
  provider: WebAuthnProvider,
  rp: ResolvedRelyingParty,
  challenge: string,
  response: AuthenticationResponseJSON,
  stored: AdapterAuthenticator,
): Promise<number> {
  const publicKey = fromBase64(stored.credentialPublicKey);
  if (!publicKey) throw new WebAuthnVerificationError(`The stored public key of passkey ${stored.credentialID} is not base64.`);
  let verification: Awaited<ReturnType<SimpleWebAuthn["verifyAuthenticationResponse"]>>;
  try {
    verification = await lib.verifyAuthenticationResponse({
      ...verifyAuthenticationOptionsOf(provider),
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
      credential: { id: response.id, publicKey, counter: Number(stored.counter), transports: stringToTransports(stored.transports) },
    });
  } catch (error) {
    throw new WebAuthnVerificationError("The passkey sign-in could not be verified.", error as Error);
  }
  if (!verification.verified) throw new WebAuthnVerificationError("The passkey's signature is not valid.");
  return verification.authenticationInfo.newCounter;
}
