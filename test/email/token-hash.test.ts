/**
 * The stored hash of a sign-in link's token is SHA-256 of token + secret in hex
 * (Auth.js's value) on both engines: node:crypto's synchronous hash where the
 * runtime has it, WebCrypto on edge runtimes (simulated by hiding node:crypto).
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

const cases = [
  ["0123abcd", "a-secret-of-at-least-thirty-two-characters"],
  ["", ""],
  ["tøken", "sëcret ✓"],
] as const;

afterEach(() => {
  vi.resetModules();
  vi.doUnmock("../../runtime/src/core/crypto/native-crypto.js");
});

async function hashTokenWith(native: boolean) {
  if (!native) vi.doMock("../../runtime/src/core/crypto/native-crypto.js", () => ({ nodeCrypto: undefined }));
  return (await import("../../runtime/src/core/email/token.js")).hashToken;
}

describe.each([true, false])("hashToken (node:crypto: %s)", (native) => {
  it.each(cases)("hashes %j + %j as SHA-256 hex", async (token, secret) => {
    const hashToken = await hashTokenWith(native);
    expect(await hashToken(token, secret)).toBe(createHash("sha256").update(`${token}${secret}`).digest("hex"));
  });
});
