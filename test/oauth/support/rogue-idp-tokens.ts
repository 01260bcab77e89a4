/**
 * Keys and ID tokens of the rogue IdP: one key it publishes in its JWKS and two it does not,
 * so tests can hand the client a token signed by a key it can never find (`unknown`) or a
 * forged token that names the published key's `kid` but fails signature verification
 * (`impostor`).
 */
import type { CryptoKey, JWK } from "jose";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

/** Which key signs the ID token. */
export type RogueSigningKey = "published" | "unknown" | "impostor";

/** Claims of the ID token the token endpoint returns; a key set to `undefined` is left out. */
export interface IdTokenClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  nonce?: string;
  email?: string;
  [claim: string]: unknown;
}

/** The default signing algorithm, the one every provider supports. */
export const ID_TOKEN_ALG = "RS256";
const PUBLISHED_KID = "rogue-published";

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/** The IdP's key material: what `/jwks` serves, and the private keys to sign with. */
export interface RogueKeys {
  /** The JWS algorithm of every key. */
  alg: string;
  jwks: { keys: JWK[] };
  sign(claims: IdTokenClaims, key: RogueSigningKey): Promise<string>;
}

export async function createRogueKeys(alg: string = ID_TOKEN_ALG): Promise<RogueKeys> {
  const published = await generateKeyPair(alg, { extractable: true });
  const keys: Record<RogueSigningKey, SigningKey> = {
    published: { kid: PUBLISHED_KID, privateKey: published.privateKey },
    unknown: { kid: "rogue-unknown", privateKey: (await generateKeyPair(alg)).privateKey },
    impostor: { kid: PUBLISHED_KID, privateKey: (await generateKeyPair(alg)).privateKey },
  };
  const publicJwk = { ...(await exportJWK(published.publicKey)), kid: PUBLISHED_KID, alg, use: "sig" };
  return {
    alg,
    jwks: { keys: [publicJwk] },
    sign: (claims, key) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg, kid: keys[key].kid, typ: "JWT" })
        .sign(keys[key].privateKey),
  };
}

/** Seconds since the epoch, the unit of `iat` and `exp`. */
export function epochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * Ready-made ID token overrides for the failures a correct server never produces. Functions,
 * so time-based ones are computed when the test configures the IdP.
 */
export const idTokenFaults = {
  /** Expired five minutes ago (beyond any reasonable clock tolerance). */
  expired: (): IdTokenClaims => ({ iat: epochSeconds() - 600, exp: epochSeconds() - 300 }),
  /** `iat` an hour in the future (oauth4webapi 3.8 does not check `iat` in the code flow: a client must do it itself). */
  issuedInFuture: (): IdTokenClaims => ({ iat: epochSeconds() + 3600, exp: epochSeconds() + 7200 }),
  /** `nbf` an hour in the future: not valid yet. */
  notYetValid: (): IdTokenClaims => ({ nbf: epochSeconds() + 3600 }),
  /** For another client. */
  wrongAudience: (): IdTokenClaims => ({ aud: "another-client" }),
  /** From another issuer. */
  wrongIssuer: (): IdTokenClaims => ({ iss: "http://127.0.0.1:9/other-issuer" }),
  /** No `nonce` claim although the authorization request sent one. */
  missingNonce: (): IdTokenClaims => ({ nonce: undefined }),
  /** A `nonce` the client never sent. */
  wrongNonce: (): IdTokenClaims => ({ nonce: "not-the-nonce-you-sent" }),
  /** No `sub` claim. */
  missingSubject: (): IdTokenClaims => ({ sub: undefined }),
};
