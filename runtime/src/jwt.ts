/**
 * Encrypted JWTs (JWE, `dir` + `A256CBC-HS512`), interchangeable with Auth.js: the
 * key is derived by HKDF-SHA256 from the secret with the cookie name as salt, and
 * the `kid` header is the key's JWK thumbprint, so a token made by Auth.js with the
 * same secret decodes here and the other way round.
 *
 * Derived keys are cached with their imported CryptoKeys: deriving and importing
 * cost more than encrypting, and Auth.js pays for both on every call.
 */
import { base64url, calculateJwkThumbprint, errors, jwtDecrypt } from "jose";
import { parseCookies, readChunked } from "./core/http/cookies.js";
import { decryptCompact, encryptCompact, importCbcKeys, type CbcKeys } from "./core/crypto/jwe-cbc.js";
import type { Awaitable } from "./model.js";

export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null;
  email?: string | null;
  picture?: string | null;
  sub?: string;
  iat?: number;
  exp?: number;
  jti?: string;
}

/** The session payload; add your own claims in the `jwt` callback. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

export interface JWTEncodeParams<Payload = JWT> {
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number;
  /** The cookie name; it salts the key derivation. */
  salt: string;
  /** With an array the first (newest) secret encrypts. */
  secret: string | string[];
  token?: Payload;
}

export interface JWTDecodeParams {
  salt: string;
  /** With an array any of the secrets may decrypt (rotation). */
  secret: string | string[];
  token?: string;
}

export interface JWTOptions {
  secret: string | string[];
  maxAge: number;
  encode: (params: JWTEncodeParams) => Awaitable<string>;
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}

const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
const ENC = "A256CBC-HS512";
const encoder = new TextEncoder();
// Fatal: a plaintext that is not valid UTF-8 is a broken token, as in jose.
const decoder = new TextDecoder("utf-8", { fatal: true });
/** Seconds of clock skew tolerated on `exp` and `nbf`, as Auth.js. */
const CLOCK_TOLERANCE = 15;

/** Content encryptions Auth.js tokens use: ours write CBC, Auth.js can read GCM too. */
type ContentEncryption = typeof ENC | "A256GCM";
/** Content encryptions `decode` reads (the key is always `dir`): ours, and Auth.js's older default. */
const READABLE_ENCS: readonly string[] = [ENC, "A256GCM"] satisfies ContentEncryption[];

interface DerivedKey {
  key: Uint8Array;
  /** JWK thumbprint of the key, the `kid` header of the tokens it makes. */
  kid: string;
  /** Imported keys for the fast path (CBC keys only). */
  cbc?: CbcKeys;
}

/**
 * Derived keys by secret and salt. Pure memoisation of a deterministic function, so
 * sharing it between configs shares no behaviour; bounded so a process that sees
 * many secrets (tests) does not grow without end.
 */
const derivedKeys = new Map<string, Promise<DerivedKey>>();
const MAX_DERIVED_KEYS = 256;

function derivedKey(secret: string, salt: string, enc: ContentEncryption = ENC): Promise<DerivedKey> {
  const cacheKey = `${enc}\u0000${salt}\u0000${secret}`;
  let entry = derivedKeys.get(cacheKey);
  if (!entry) {
    if (derivedKeys.size >= MAX_DERIVED_KEYS) derivedKeys.delete(derivedKeys.keys().next().value!);
    entry = deriveKey(secret, salt, enc);
    derivedKeys.set(cacheKey, entry);
    entry.catch(() => derivedKeys.delete(cacheKey));
  }
  return entry;
}

async function deriveKey(secret: string, salt: string, enc: ContentEncryption): Promise<DerivedKey> {
  const bits = enc === ENC ? 512 : 256;
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const derived = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    material,
    bits,
  );
  const key = new Uint8Array(derived);
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, `sha${bits}` as "sha256" | "sha512");
  return { key, kid, cbc: enc === ENC ? await importCbcKeys(key, kid) : undefined };
}

function secretList(secret: string | string[]): string[] {
  const list = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s.length === 0)) {
    throw new TypeError("A JWT needs a non-empty secret.");
  }
  return list;
}

/** Encrypts `token` into a JWE with fresh `iat`, `exp` and `jti`. */
export async function encode<Payload extends Record<string, unknown> = JWT>(
  params: JWTEncodeParams<Payload>,
): Promise<string> {
  const { token = {}, salt, maxAge = DEFAULT_MAX_AGE } = params;
  const [newest] = secretList(params.secret);
  const { cbc } = (await derivedKey(newest!, salt)) as Required<DerivedKey>;
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...token, iat: now, exp: now + maxAge, jti: crypto.randomUUID() };
  return encryptCompact(cbc, encoder.encode(JSON.stringify(claims)));
}

/**
 * Decrypts and verifies a token made by `encode`. Returns `null` for an empty token;
 * throws for a token that is tampered, made with another secret, or expired.
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, salt } = params;
  if (!token) return null;
  const secrets = secretList(params.secret);
  const parts = token.split(".");
  for (const secret of secrets) {
    const { cbc } = (await derivedKey(secret, salt)) as Required<DerivedKey>;
    if (parts[0] === cbc.header) {
      return checkClaims(parseClaims(await decryptCompact(cbc, parts))) as Payload;
    }
  }
  // Not one of our headers (another kid order, A256GCM, no kid): let jose handle it.
  const { payload } = await jwtDecrypt(
    token,
    async ({ kid, enc }) => {
      if (!READABLE_ENCS.includes(enc)) throw new errors.JOSENotSupported("Unsupported content encryption.");
      for (const secret of secrets) {
        const derived = await derivedKey(secret, salt, enc as ContentEncryption);
        if (kid === undefined || kid === derived.kid) return derived.key;
      }
      throw new Error("No secret matches the key id of this token.");
    },
    {
      clockTolerance: CLOCK_TOLERANCE,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: [...READABLE_ENCS],
    },
  );
  return payload as Payload;
}

function parseClaims(plaintext: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(plaintext));
  } catch {
    throw new errors.JWTInvalid("The JWT claims are not valid UTF-8 JSON.");
  }
}

/** The checks `jose`'s `jwtDecrypt` applies to the claims, for the fast path. */
function checkClaims(payload: unknown): JWT {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new errors.JWTInvalid("The JWT claims are not a JSON object.");
  }
  const claims = payload as JWT;
  const now = Math.floor(Date.now() / 1000);
  for (const claim of ["iat", "exp", "nbf"] as const) {
    if (claims[claim] !== undefined && typeof claims[claim] !== "number") {
      throw new errors.JWTClaimValidationFailed(`"${claim}" claim must be a number`, claims, claim, "invalid");
    }
  }
  if (typeof claims.nbf === "number" && claims.nbf > now + CLOCK_TOLERANCE) {
    throw new errors.JWTClaimValidationFailed('"nbf" claim timestamp check failed', claims, "nbf", "check_failed");
  }
  if (typeof claims.exp === "number" && claims.exp <= now - CLOCK_TOLERANCE) {
    throw new errors.JWTExpired('"exp" claim timestamp check failed', claims, "exp", "check_failed");
  }
  return claims;
}

export interface GetTokenParams {
  /** A `Request`, or anything with `headers`. */
  req: Request | { headers: Headers | Record<string, string> };
  secret: string | string[];
  /** Read the `__Secure-` cookie. Default: whether the request URL is https. */
  secureCookie?: boolean;
  /** Cookie name; default `authjs.session-token` (with the `__Secure-` prefix when secure). */
  cookieName?: string;
  /** Key derivation salt; default the cookie name. */
  salt?: string;
  /** Return the encrypted token instead of decoding it. */
  raw?: boolean;
  decode?: JWTOptions["decode"];
}

/**
 * Reads the session JWT of a request (cookie, or `Authorization: Bearer`), for API
 * routes and middleware. Returns `null` when absent or invalid; never throws for a
 * bad token. With `raw: true` it returns the token as sent, but only a well-formed
 * one (see `isWellFormedToken`): anything else is `null`, never the garbage.
 */
export async function getToken(params: GetTokenParams & { raw: true }): Promise<string | null>;
export async function getToken(params: GetTokenParams): Promise<JWT | null>;
export async function getToken(params: GetTokenParams): Promise<JWT | string | null> {
  const headers = params.req.headers instanceof Headers ? params.req.headers : new Headers(params.req.headers);
  const secure =
    params.secureCookie ?? ("url" in params.req && typeof params.req.url === "string" && params.req.url.startsWith("https:"));
  const cookieName = params.cookieName ?? `${secure ? "__Secure-" : ""}authjs.session-token`;
  // As Auth.js: the cookie wins; the Authorization header is read only without one.
  const token = readChunked(parseCookies(headers.get("cookie")), cookieName) || bearerToken(headers.get("authorization"));
  if (!token) return null;
  if (params.raw) return isWellFormedToken(token, params.decode !== undefined) ? token : null;
  try {
    return await (params.decode ?? decode)({ token, secret: params.secret, salt: params.salt ?? cookieName });
  } catch {
    return null;
  }
}

/**
 * The credentials of `Authorization: Bearer <token>` (the scheme in any case, as
 * RFC 9110 says), percent-decoded as Auth.js does. Anything else (another scheme,
 * no token, two tokens, broken percent-encoding) is no token.
 */
function bearerToken(authorization: string | null): string | undefined {
  const match = authorization?.trim().match(/^Bearer +(\S+)$/i);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Whether `token` has the shape of a session token, without decrypting it: what
 * `raw: true` hands out must be something a token reader can be given. With the
 * default codec that is a compact JWE as `encode` (or Auth.js) makes it: five
 * base64url parts, no encrypted key, a protected header `{"alg":"dir","enc":...}`.
 * With a custom `decode` (whose format we cannot know) any compact JWS or JWE.
 */
function isWellFormedToken(token: string, customCodec: boolean): boolean {
  const parts = token.split(".");
  if ((parts.length !== 5 && !(customCodec && parts.length === 3)) || !parts.every((part) => BASE64URL.test(part))) return false;
  let header: unknown;
  try {
    header = JSON.parse(decoder.decode(base64url.decode(parts[0]!)));
  } catch {
    return false;
  }
  if (header === null || typeof header !== "object" || Array.isArray(header)) return false;
  const { alg, enc } = header as { alg?: unknown; enc?: unknown };
  if (customCodec) return typeof alg === "string";
  return alg === "dir" && typeof enc === "string" && READABLE_ENCS.includes(enc) && parts[1] === "" && parts.slice(2).every((part) => part !== "");
}
