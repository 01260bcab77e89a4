/** The random byte pool behind CSRF tokens and JWE IVs: every byte handed out once. */
import { describe, expect, it } from "vitest";
import { randomBytes } from "../../runtime/src/core/crypto/random.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("randomBytes", () => {
  it("gives distinct values across many calls, over several refills of the pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(hex(randomBytes(32))); // 32 KB: eight refills
    expect(seen.size).toBe(1000);
  });

  it("returns copies: changing one does not change the next", () => {
    const a = randomBytes(16);
    const before = hex(a);
    a.fill(0);
    expect(hex(randomBytes(16))).not.toBe(before);
    expect(a.byteLength).toBe(16);
  });

  it("serves lengths that straddle a refill and lengths larger than the pool", () => {
    for (let i = 0; i < 300; i++) expect(randomBytes(31).byteLength).toBe(31);
    const big = randomBytes(10_000);
    expect(big.byteLength).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200); // all 256 byte values, give or take
  });
});
