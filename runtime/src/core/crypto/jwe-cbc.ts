/**
 * The fast path for our own session tokens: compact JWE with `alg: "dir"` and
 * `enc: "A256CBC-HS512"` (RFC 7516, RFC 7518 §5.2.2), using CryptoKeys imported
 * once per derived key.
 *
 * Why not `jose` for every call: for CBC-HS512 `jose` re-imports the AES and HMAC
 * keys from raw bytes on every encrypt and decrypt, which is most of the cost of a
 * sign-in. This file does exactly the RFC's steps with the cached keys. It handles
 * only the one header we produce; any other token goes to `jose` (see `jwt.ts`).
 * Tests check it against tokens made by `jose` and Auth.js, in both directions,
 * and against an independent AES-CBC + HMAC computation.
 *
 * Two engines do the same steps. Where the runtime offers `node:crypto` (found
 * with `process.getBuiltinModule`, a runtime check rather than an import, so
 * bundles for edge runtimes are unaffected), AES-CBC and HMAC-SHA-512 run in its
 * synchronous OpenSSL calls, with keys imported once. Elsewhere AES runs in
 * WebCrypto and the HMAC in `@noble/hashes` from a pre-keyed state: a WebCrypto
 * call is a round trip through the thread pool that costs more than the rest of a
 * sign-in, and SHA-2 is plain arithmetic, with no secret-dependent branches or
 * table lookups, so it is as timing-safe in JavaScript as natively. Tests run the
 * RFC vectors and the cross-checks through both engines.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { base64url, errors } from "jose";
import { nodeCrypto } from "./native-crypto.js";
import { randomBytes } from "./random.js";

/** AES-256-CBC with PKCS#7 padding, and HMAC-SHA-512, under the two halves of one key. */
export interface CbcPrimitives {
  encrypt(iv: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>): Uint8Array | Promise<Uint8Array>;
  /** Throws on bad padding. */
  decrypt(iv: Uint8Array<ArrayBuffer>, ciphertext: Uint8Array<ArrayBuffer>): Uint8Array | Promise<Uint8Array>;
  /** HMAC-SHA-512 of the parts, in order. */
  mac(parts: readonly Uint8Array[]): Uint8Array;
}

export type AesEngine = "native" | "webcrypto";

/** The engine used unless a test asks for another: native where available. */
export const defaultAesEngine: AesEngine = nodeCrypto ? "native" : "webcrypto";

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.byteLength === 0) return a;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

async function cbcPrimitives(macKey: Uint8Array<ArrayBuffer>, encKey: Uint8Array<ArrayBuffer>, engine: AesEngine): Promise<CbcPrimitives> {
  if (engine === "native") {
    if (!nodeCrypto) throw new TypeError("This runtime has no node:crypto.");
    const api = nodeCrypto;
    const aesKey = api.createSecretKey(encKey);
    const hmacKey = api.createSecretKey(macKey);
    return {
      encrypt(iv, plaintext) {
        const cipher = api.createCipheriv("aes-256-cbc", aesKey, iv);
        return concat(cipher.update(plaintext), cipher.final());
      },
      decrypt(iv, ciphertext) {
        const decipher = api.createDecipheriv("aes-256-cbc", aesKey, iv);
        return concat(decipher.update(ciphertext), decipher.final());
      },
      mac(parts) {
        const mac = api.createHmac("sha512", hmacKey);
        for (const part of parts) mac.update(part);
        return mac.digest();
      },
    };
  }
  const key = await crypto.subtle.importKey("raw", encKey, "AES-CBC", false, ["encrypt", "decrypt"]);
  // HMAC-SHA-512 state after the key, cloned for every tag.
  const keyed = hmac.create(sha512, macKey);
  return {
    encrypt: async (iv, plaintext) => new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, key, plaintext)),
    decrypt: async (iv, ciphertext) => new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key, ciphertext)),
    mac(parts) {
      const mac = keyed.clone();
      for (const part of parts) mac.update(part);
      return mac.digest();
    },
  };
}

export interface CbcKeys {
  /** The protected header we write, already base64url-encoded (it is also the AAD). */
  header: string;
  /** The header as bytes, for the tag. */
  aad: Uint8Array;
  primitives: CbcPrimitives;
}

const encoder = new TextEncoder();
const IV_BYTES = 16;
/** A256CBC-HS512 keeps the first half of the HMAC-SHA-512 output as the tag. */
const TAG_BYTES = 32;

/** Imports the two halves of a 64-byte key: MAC key first, encryption key second (RFC 7518 §5.2.2.1). */
export async function importCbcKeys(key: Uint8Array, kid: string, engine: AesEngine = defaultAesEngine): Promise<CbcKeys> {
  if (key.byteLength !== 64) throw new TypeError("A256CBC-HS512 needs a 64-byte key.");
  const primitives = await cbcPrimitives(key.slice(0, 32), key.slice(32), engine);
  const header = base64url.encode(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid }));
  return { header, aad: encoder.encode(header), primitives };
}

/** The 64-bit big-endian bit length of the AAD (RFC 7518 §5.2.2.1 step 4). */
function aadLength(aad: Uint8Array): Uint8Array {
  const bits = new Uint8Array(8);
  new DataView(bits.buffer).setBigUint64(0, BigInt(aad.byteLength) * 8n);
  return bits;
}

/** HMAC-SHA-512 over AAD || IV || ciphertext || AL, truncated to 32 bytes (RFC 7518 §5.2.2.1 steps 4-5). */
function tag(keys: CbcKeys, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return keys.primitives.mac([keys.aad, iv, ciphertext, aadLength(keys.aad)]).subarray(0, TAG_BYTES);
}

/** Encrypts with a fresh random IV. */
export function encryptCompact(keys: CbcKeys, plaintext: Uint8Array<ArrayBuffer>): Promise<string> {
  return encryptCompactWithIv(keys, plaintext, randomBytes(IV_BYTES));
}

/** Encrypts with the given IV: only for known-answer tests (an IV must never repeat under one key). */
export async function encryptCompactWithIv(
  keys: CbcKeys,
  plaintext: Uint8Array<ArrayBuffer>,
  iv: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const ciphertext = await keys.primitives.encrypt(iv, plaintext);
  const authTag = tag(keys, iv, ciphertext);
  return `${keys.header}..${base64url.encode(iv)}.${base64url.encode(ciphertext)}.${base64url.encode(authTag)}`;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** RFC 7515 base64url: no padding, no whitespace. A looser decoder would let one token have many spellings. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodePart(part: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(part)) throw new errors.JWEInvalid("A JWE part is not valid base64url.");
  try {
    return base64url.decode(part) as Uint8Array<ArrayBuffer>;
  } catch {
    throw new errors.JWEInvalid("A JWE part is not valid base64url.");
  }
}

/**
 * Decrypts a compact JWE whose protected header is exactly `keys.header`. The tag
 * is checked (in constant time) before anything is decrypted.
 */
export async function decryptCompact(keys: CbcKeys, parts: string[]): Promise<Uint8Array> {
  const [header, encryptedKey, ivPart, ciphertextPart, tagPart] = parts;
  if (parts.length !== 5 || header !== keys.header || encryptedKey !== "") {
    throw new errors.JWEInvalid("The token is not a dir/A256CBC-HS512 compact JWE of this key.");
  }
  const iv = decodePart(ivPart!);
  const ciphertext = decodePart(ciphertextPart!);
  const receivedTag = decodePart(tagPart!);
  if (iv.byteLength !== IV_BYTES || receivedTag.byteLength !== TAG_BYTES || ciphertext.byteLength === 0 || ciphertext.byteLength % 16 !== 0) {
    throw new errors.JWEInvalid("The token's IV, ciphertext or tag has the wrong length.");
  }
  const expectedTag = tag(keys, iv, ciphertext);
  if (!equalBytes(expectedTag, receivedTag)) throw new errors.JWEDecryptionFailed();
  try {
    return await keys.primitives.decrypt(iv, ciphertext);
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause });
  }
}
