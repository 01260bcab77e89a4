/**
 * `@simplewebauthn/server`, loaded on the first WebAuthn request only: apps
 * without passkeys never pay for it (it pulls in ASN.1 and X.509 parsers, 25
 * packages), which is why it is an optional peer, installed by apps that use
 * passkeys (`auth-init` and `auth add-provider passkey` add it).
 */
import { InvalidConfig } from "../errors/errors.js";

export type SimpleWebAuthn = typeof import("@simplewebauthn/server");

let loading: Promise<SimpleWebAuthn> | undefined;

export function loadSimpleWebAuthn(): Promise<SimpleWebAuthn> {
  loading ??= import("@simplewebauthn/server").catch((error: unknown) => {
    loading = undefined;
    throw new InvalidConfig("Passkeys need @simplewebauthn/server, an optional peer of @gatehouse/runtime, and it could not be loaded: `npm install @simplewebauthn/server`.", error as Error);
  });
  return loading;
}
