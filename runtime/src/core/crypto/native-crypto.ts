/**
 * `node:crypto`, when the runtime has it, found at run time with
 * `process.getBuiltinModule` (Node 20.16+, Deno, Bun) rather than imported: core
 * stays free of `node:` imports, so edge-runtime bundles are unaffected, and
 * callers fall back to WebCrypto or `@noble/hashes` where it is `undefined`.
 * Its synchronous OpenSSL calls save a thread-pool round trip per operation.
 */

/** The part of `node:crypto` core uses. */
export interface NodeCryptoApi {
  createCipheriv(algorithm: string, key: unknown, iv: Uint8Array): { update(data: Uint8Array): Uint8Array; final(): Uint8Array };
  createDecipheriv(algorithm: string, key: unknown, iv: Uint8Array): { update(data: Uint8Array): Uint8Array; final(): Uint8Array };
  createHmac(algorithm: string, key: unknown): { update(data: Uint8Array): unknown; digest(): Uint8Array };
  createHash(algorithm: string): { update(data: string): { digest(encoding: "hex"): string } };
  createSecretKey(key: Uint8Array): unknown;
  /** A signature check; `key` may be a WebCrypto `CryptoKey`. */
  verify(
    digest: string | null,
    data: Uint8Array,
    key: { key: unknown; padding?: number; saltLength?: number; dsaEncoding?: "der" | "ieee-p1363" },
    signature: Uint8Array,
  ): boolean;
  constants: { RSA_PKCS1_PSS_PADDING: number };
  /** Password hashing (`core/password/scrypt.ts`), on the thread pool. */
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keylen: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
}

export const nodeCrypto: NodeCryptoApi | undefined = (() => {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  try {
    return typeof getBuiltinModule === "function" ? (getBuiltinModule("node:crypto") as NodeCryptoApi | undefined) : undefined;
  } catch {
    return undefined;
  }
})();
