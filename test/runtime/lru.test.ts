/**
 * The bounded cache behind the decoded-session cache, the session versions and
 * the OAuth refresh flights (core/lru.ts): two generations, so a hit is one
 * lookup. What its users rely on: it never holds more than its bound, what was
 * used within the last half-bound writes stays, and a key is counted once.
 */
import { describe, expect, it } from "vitest";
import { LruCache } from "../../runtime/src/core/lru.js";

describe("LruCache", () => {
  it("never holds more than its bound, however many keys go in", () => {
    const cache = new LruCache<number, number>(10);
    for (let i = 0; i < 1000; i++) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    // The last writes are all there.
    for (let i = 995; i < 1000; i++) expect(cache.get(i)).toBe(i);
  });

  it("an entry read within the last half-bound writes survives any number of writes after", () => {
    const cache = new LruCache<string, string>(10);
    cache.set("kept", "value");
    for (let i = 0; i < 500; i++) {
      cache.set(`other-${i}`, "x");
      // Read every 4 writes: well within 5 (half of 10).
      if (i % 4 === 0) expect(cache.get("kept")).toBe("value");
    }
    expect(cache.get("kept")).toBe("value");
    expect(cache.size).toBeLessThanOrEqual(10);
  });

  it("an entry neither read nor written for a whole bound of writes is gone", () => {
    const cache = new LruCache<string, number>(10);
    cache.set("forgotten", 1);
    for (let i = 0; i < 10; i++) cache.set(`other-${i}`, i);
    expect(cache.get("forgotten")).toBeUndefined();
  });

  it("a key written again, in either generation, is counted once and reads its last value", () => {
    const cache = new LruCache<string, number>(4);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3); // "a" and "b" are now the old generation
    cache.set("a", 10);
    cache.set("c", 30);
    expect(cache.size).toBe(3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([10, 2, 30]);
    expect(cache.size).toBe(3);
  });

  it("delete removes a key from whichever generation holds it", () => {
    const cache = new LruCache<string, number>(4);
    cache.set("old", 1);
    cache.set("older", 2);
    cache.set("young", 3);
    cache.delete("old");
    cache.delete("young");
    expect([cache.get("old"), cache.get("young"), cache.get("older")]).toEqual([undefined, undefined, 2]);
    expect(cache.size).toBe(1);
  });
});
