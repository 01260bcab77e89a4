/**
 * Checking a JWT's signature (an identity provider's ID token) against the
 * key a JWKS resolver picks for its header.
 *
 * `jose` does the whole job, through WebCrypto's `verify`. On Node that call is
 * a round trip through the thread pool that costs more than the signature check
 * itself (about 0.1 ms against 0.02 ms for RS256 here, and more under load), and
 * it is paid on every OAuth sign-in. So where the runtime has `node:crypto`
 * (found at run time, see `native-crypto.ts`), the common case runs its
 * synchronous `verify` on the very key jose resolved and imported: jose still
 * fetches, caches and selects the provider's keys (kid, alg, kty, curve, use).
 *
 * The native path takes only what it can check exactly as jose does: a compact
 * JWS of three base64url parts, no `crit` or `b64` header, one of the RSA,
 * RSA-PSS, ECDSA or Ed25519 algorithms, and a public verify key of that
 * algorithm, hash and curve (RSA of 2048 bits or more). Anything else, and any
 * signature node:crypto throws on, goes to jose's `compactVerify`, which accepts
 * or refuses it with its own error. The claims are not looked at here:
 * oauth4webapi validated them before.
 */
import { base64url, compactVerify, decodeProtectedHeader, errors, type JWTVerifyGetKey } from "jose";
import { nodeCrypto, type NodeCryptoApi } from "./native-crypto.js";

export type SignatureEngine = "native" | "jose";

/** The engine used unless a test asks for another: native where available. */
export const defaultSignatureEngine: SignatureEngine = nodeCrypto ? "native" : "jose";

interface NativeAlgorithm {
  /** node:crypto's digest; `null` for Ed25519, which hashes by itself. */
  digest: string | null;
  /** The WebCrypto algorithm of the key jose imports for this `alg` (RFC 7518 §3, RFC 8037). */
  key: { name: string; hash?: string; namedCurve?: string };
  /** RSA-PSS salt length: the digest's (RFC 7518 §3.5). */
  saltLength?: number;
  /** ECDSA: JWS signatures are R || S (RFC 7518 §3.4), not DER. */
  p1363?: true;
}

const rsa = (bits: number): NativeAlgorithm => ({ digest: `sha${bits}`, key: { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}` } });
const pss = (bits: number): NativeAlgorithm => ({ digest: `sha${bits}`, key: { name: "RSA-PSS", hash: `SHA-${bits}` }, saltLength: bits / 8 });
const ecdsa = (bits: number, namedCurve: string): NativeAlgorithm => ({ digest: `sha${bits}`, key: { name: "ECDSA", namedCurve }, p1363: true });
const ed25519: NativeAlgorithm = { digest: null, key: { name: "Ed25519" } };

const NATIVE: Readonly<Record<string, NativeAlgorithm>> = {
  RS256: rsa(256),
  RS384: rsa(384),
  RS512: rsa(512),
  PS256: pss(256),
  PS384: pss(384),
  PS512: pss(512),
  ES256: ecdsa(256, "P-256"),
  ES384: ecdsa(384, "P-384"),
  ES512: ecdsa(512, "P-521"),
  EdDSA: ed25519,
  Ed25519: ed25519,
};

/** jose refuses shorter RSA keys for RS* and PS*; so does the native path (by handing them to jose). */
const MIN_RSA_BITS = 2048;
const encoder = new TextEncoder();
/** RFC 7515 base64url: no padding, no whitespace. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies the signature of the JWT `jwt` (a compact JWS) with the key `keys` resolves
 * for its protected header. Resolves when it is valid; otherwise throws jose's
 * error (`JWSSignatureVerificationFailed`, `JWSInvalid`, `JWKSNoMatchingKey`,
 * `JOSENotSupported`, a key fetch error...).
 */
export async function verifyJwtSignature(jwt: string, keys: JWTVerifyGetKey, engine: SignatureEngine = defaultSignatureEngine): Promise<void> {
  if (engine === "native" && nodeCrypto) {
    const checked = await verifyNatively(nodeCrypto, jwt, keys);
    if (checked === "valid") return;
    if (checked === "invalid") throw new errors.JWSSignatureVerificationFailed();
  }
  const { protectedHeader } = await compactVerify(jwt, keys);
  // A JWT's payload is always base64url (RFC 7519 §7.2), as jose's jwtVerify also insists.
  if (protectedHeader.b64 === false) throw new errors.JWTInvalid("JWTs MUST NOT use unencoded payload");
}

/** `valid` or `invalid`, or `jose` when the token or its key is not one the native path takes. */
async function verifyNatively(api: NodeCryptoApi, jws: string, keys: JWTVerifyGetKey): Promise<"valid" | "invalid" | "jose"> {
  const parts = jws.split(".");
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return "jose";
  const [encodedHeader, payload, signature] = parts as [string, string, string];
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return "jose";
  }
  const { alg } = header;
  if ("crit" in header || "b64" in header || typeof alg !== "string") return "jose";
  const algorithm = Object.hasOwn(NATIVE, alg) ? NATIVE[alg]! : undefined;
  if (!algorithm) return "jose";
  // The resolver's own errors (no matching key, keys unreachable) are the answer, as in jose.
  const key = await keys({ ...header, alg }, { protected: encodedHeader, payload, signature });
  if (!keyFits(key, algorithm)) return "jose";
  const options = algorithm.saltLength
    ? { key, padding: api.constants.RSA_PKCS1_PSS_PADDING, saltLength: algorithm.saltLength }
    : algorithm.p1363
      ? { key, dsaEncoding: "ieee-p1363" as const }
      : { key };
  let signatureBytes: Uint8Array;
  try {
    signatureBytes = base64url.decode(signature);
  } catch {
    return "jose";
  }
  try {
    return api.verify(algorithm.digest, encoder.encode(`${encodedHeader}.${payload}`), options, signatureBytes) ? "valid" : "invalid";
  } catch {
    // A signature OpenSSL cannot parse (wrong length for the curve...), or a runtime whose
    // node:crypto takes no CryptoKey: jose gives the verdict, so a valid token is never refused here.
    return "jose";
  }
}

/** A public verify key of exactly the algorithm, hash and curve `alg` names, as jose itself demands. */
function keyFits(key: unknown, algorithm: NativeAlgorithm): key is CryptoKey {
  if (typeof CryptoKey !== "function" || !(key instanceof CryptoKey)) return false;
  if (key.type !== "public" || !key.usages.includes("verify")) return false;
  const actual = key.algorithm as { name: string; hash?: { name: string }; namedCurve?: string; modulusLength?: number };
  const expected = algorithm.key;
  if (actual.name !== expected.name) return false;
  if (expected.hash !== undefined && (actual.hash?.name !== expected.hash || (actual.modulusLength ?? 0) < MIN_RSA_BITS)) return false;
  return expected.namedCurve === undefined || actual.namedCurve === expected.namedCurve;
}
