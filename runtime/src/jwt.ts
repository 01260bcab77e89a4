/**
 * Encrypted JWTs (JWE, `dir` + `A256CBC-HS512`), interchangeable with Auth.js: the
 * key is derived by HKDF-SHA256 from the secret with the cookie name as salt, and
 * the `kid` header is the key's JWK thumbprint, so a token made by Auth.js with the
 * same secret decodes here and the other way round.
 *
 * Derived keys are cached: deriving costs more than encrypting, and Auth.js pays
 * it on every call.
 */
import { EncryptJWT, base64url, calculateJwkThumbprint, jwtDecrypt } from "jose";
import { parseCookies, readChunked } from "./core/cookies.js";
import type { Awaitable } from "./types.js";

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

interface DerivedKey {
  key: Uint8Array;
  kid: string;
}

/**
 * Derived keys by secret and salt. Pure memoisation of a deterministic function, so
 * sharing it between configs shares no behaviour; bounded so a process that sees
 * many secrets (tests) does not grow without end.
 */
const derivedKeys = new Map<string, Promise<DerivedKey>>();
const MAX_DERIVED_KEYS = 256;

export function derivedKey(secret: string, salt: string): Promise<DerivedKey> {
  const cacheKey = `${salt}\u0000${secret}`;
  let entry = derivedKeys.get(cacheKey);
  if (!entry) {
    if (derivedKeys.size >= MAX_DERIVED_KEYS) derivedKeys.delete(derivedKeys.keys().next().value!);
    entry = deriveKey(secret, salt);
    derivedKeys.set(cacheKey, entry);
    entry.catch(() => derivedKeys.delete(cacheKey));
  }
  return entry;
}

async function deriveKey(secret: string, salt: string): Promise<DerivedKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    material,
    512,
  );
  const key = new Uint8Array(bits);
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512");
  return { key, kid };
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
  const { key, kid } = await derivedKey(newest!, salt);
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(token as Record<string, unknown>)
    .setProtectedHeader({ alg: "dir", enc: ENC, kid })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(crypto.randomUUID())
    .encrypt(key);
}

/**
 * Decrypts and verifies a token made by `encode`. Returns `null` for an empty token;
 * throws for a token that is tampered, made with another secret, or expired.
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, salt } = params;
  if (!token) return null;
  const secrets = secretList(params.secret);
  const { payload } = await jwtDecrypt(
    token,
    async ({ kid }) => {
      for (const secret of secrets) {
        const derived = await derivedKey(secret, salt);
        if (kid === undefined || kid === derived.kid) return derived.key;
      }
      throw new Error("No secret matches the key id of this token.");
    },
    {
      clockTolerance: 15,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: [ENC, "A256GCM"],
    },
  );
  return payload as Payload;
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
 * bad token.
 */
export async function getToken(params: GetTokenParams & { raw: true }): Promise<string | null>;
export async function getToken(params: GetTokenParams): Promise<JWT | null>;
export async function getToken(params: GetTokenParams): Promise<JWT | string | null> {
  const headers = params.req.headers instanceof Headers ? params.req.headers : new Headers(params.req.headers);
  const secure =
    params.secureCookie ?? ("url" in params.req && typeof params.req.url === "string" && params.req.url.startsWith("https:"));
  const cookieName = params.cookieName ?? `${secure ? "__Secure-" : ""}authjs.session-token`;
  let token = readChunked(parseCookies(headers.get("cookie")), cookieName);
  const authorization = headers.get("authorization");
  if (!token && authorization?.split(" ")[0] === "Bearer") {
    token = authorization.split(" ")[1];
  }
  if (!token) return null;
  if (params.raw) return token;
  try {
    return await (params.decode ?? decode)({ token, secret: params.secret, salt: params.salt ?? cookieName });
  } catch {
    return null;
  }
}
