/**
 * scrypt (RFC 7914), the key derivation behind stored passwords: OpenSSL's
 * through `node:crypto` where the runtime has it (Node, Deno, Bun: native
 * speed, off the main thread), else the audited pure-JS one of
 * `@noble/hashes`, which yields to the event loop while it works. Both give
 * the same bytes for the same input (tested on RFC 7914's vectors).
 */
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { memoryFor, type ScryptParams } from "./phc.js";

interface NodeScrypt {
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keylen: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
}

const nodeScrypt: NodeScrypt | undefined = (() => {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  try {
    const module = typeof getBuiltinModule === "function" ? (getBuiltinModule("node:crypto") as Partial<NodeScrypt> | undefined) : undefined;
    return typeof module?.scrypt === "function" ? (module as NodeScrypt) : undefined;
  } catch {
    return undefined;
  }
})();

export type ScryptEngine = "node" | "noble";

/** Which engine `deriveKey` uses here. */
export const defaultEngine: ScryptEngine = nodeScrypt ? "node" : "noble";

export function deriveKey(password: Uint8Array, salt: Uint8Array, params: ScryptParams, length: number, engine = defaultEngine): Promise<Uint8Array> {
  const N = 2 ** params.ln;
  if (engine === "node" && nodeScrypt) {
    const scrypt = nodeScrypt.scrypt;
    return new Promise((resolve, reject) => {
      scrypt(password, salt, length, { N, r: params.r, p: params.p, maxmem: memoryFor(params) }, (error, key) =>
        error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
      );
    });
  }
  return scryptAsync(password, salt, { N, r: params.r, p: params.p, dkLen: length, maxmem: memoryFor(params) });
}
