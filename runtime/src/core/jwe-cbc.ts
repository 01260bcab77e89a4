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
 * AES runs in WebCrypto (native, constant time). The HMAC-SHA-512 tag is computed
 * synchronously with `@noble/hashes` from a pre-keyed state: SHA-2 is plain
 * arithmetic, with no secret-dependent branches or table lookups, so it is as
 * timing-safe in JavaScript as natively, and it saves a thread-pool round trip
 * that costs more than the hash on every sign-in.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { base64url, errors } from "jose";
import { randomBytes } from "./random.js";

type KeyedHmac = ReturnType<typeof hmac.create>;

export interface CbcKeys {
  /** The protected header we write, already base64url-encoded (it is also the AAD). */
  header: string;
  /** The header as bytes, for the tag. */
  aad: Uint8Array;
  encKey: CryptoKey;
  /** HMAC-SHA-512 state after the key: cloned for every tag. */
  mac: KeyedHmac;
}

const encoder = new TextEncoder();
const IV_BYTES = 16;
/** A256CBC-HS512 keeps the first half of the HMAC-SHA-512 output as the tag. */
const TAG_BYTES = 32;

/** Imports the two halves of a 64-byte key: MAC key first, encryption key second (RFC 7518 §5.2.2.1). */
export async function importCbcKeys(key: Uint8Array, kid: string): Promise<CbcKeys> {
  if (key.byteLength !== 64) throw new TypeError("A256CBC-HS512 needs a 64-byte key.");
  const encKey = await crypto.subtle.importKey("raw", key.slice(32), "AES-CBC", false, ["encrypt", "decrypt"]);
  const header = base64url.encode(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid }));
  return { header, aad: encoder.encode(header), encKey, mac: hmac.create(sha512, key.slice(0, 32)) };
}

/** The 64-bit big-endian bit length of the AAD (RFC 7518 §5.2.2.1 step 4). */
function aadLength(aad: Uint8Array): Uint8Array {
  const bits = new Uint8Array(8);
  new DataView(bits.buffer).setBigUint64(0, BigInt(aad.byteLength) * 8n);
  return bits;
}

/** HMAC-SHA-512 over AAD || IV || ciphertext || AL, truncated to 32 bytes (RFC 7518 §5.2.2.1 steps 4-5). */
function tag(keys: CbcKeys, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const mac = keys.mac.clone();
  mac.update(keys.aad).update(iv).update(ciphertext).update(aadLength(keys.aad));
  return mac.digest().subarray(0, TAG_BYTES);
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
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, keys.encKey, plaintext));
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
    return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, keys.encKey, ciphertext));
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause });
  }
}
