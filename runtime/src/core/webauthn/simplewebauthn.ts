/**
 * `@simplewebauthn/server`, loaded on the first WebAuthn request only: apps
 * without passkeys never pay for it (it pulls in ASN.1 and X.509 parsers).
 */
import { InvalidConfig } from "../errors.js";

export type SimpleWebAuthn = typeof import("@simplewebauthn/server");

let loading: Promise<SimpleWebAuthn> | undefined;

export function loadSimpleWebAuthn(): Promise<SimpleWebAuthn> {
  loading ??= import("@simplewebauthn/server").catch((error: unknown) => {
    loading = undefined;
    throw new InvalidConfig("@simplewebauthn/server could not be loaded; WebAuthn needs it installed.", error as Error);
  });
  return loading;
}
