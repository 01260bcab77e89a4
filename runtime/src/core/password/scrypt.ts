/**
 * scrypt (RFC 7914), the key derivation behind stored passwords: OpenSSL's
 * through `node:crypto` where the runtime has it (Node, Deno, Bun: native
 * speed, off the main thread), else the audited pure-JS one of
 * `@noble/hashes`, which yields to the event loop while it works. Both give
 * the same bytes for the same input (tested on RFC 7914's vectors).
 */
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { nodeCrypto } from "../crypto/native-crypto.js";
import { memoryFor, type ScryptParams } from "./phc.js";

export type ScryptEngine = "node" | "noble";

/** Which engine `deriveKey` uses here. */
export const defaultEngine: ScryptEngine = typeof nodeCrypto?.scrypt === "function" ? "node" : "noble";

export function deriveKey(password: Uint8Array, salt: Uint8Array, params: ScryptParams, length: number, engine = defaultEngine): Promise<Uint8Array> {
  const N = 2 ** params.ln;
  const scrypt = nodeCrypto?.scrypt;
  if (engine === "node" && typeof scrypt === "function") {
    return new Promise((resolve, reject) => {
      scrypt(password, salt, length, { N, r: params.r, p: params.p, maxmem: memoryFor(params) }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
      );
    });
  }
  return scryptAsync(password, salt, { N, r: params.r, p: params.p, dkLen: length, maxmem: memoryFor(params) });
}
