/**
 * `rateLimit` options are checked when the config is resolved: a wrong one is
 * a configuration error (logged with the option's name, 500 for the browser),
 * not a limit that silently does nothing. And the memory store: counts, fixed
 * windows on an injected clock, and a bound on its keys.
 */
import { describe, expect, it } from "vitest";
import { Auth, MemoryRateLimitStore, type RateLimitOptions } from "@gatehouse/runtime";
import { captureLogger, request } from "../helpers.js";
import { limitedSetup, manualClock } from "./support.js";

async function configError(rateLimit: unknown): Promise<{ status: number; message: string }> {
  const log = captureLogger();
  const { config } = limitedSetup(rateLimit as RateLimitOptions, { logger: log.logger });
  const response = await Auth(request("/auth/providers"), config);
  return { status: response.status, message: log.errors.map((e) => `${e.name}: ${e.message}`).join("\n") };
}

describe("rateLimit options", () => {
  it.each([
    ["window 0", { window: 0 }, /rateLimit\.window is 0/],
    ["a negative window", { window: -60 }, /rateLimit\.window is -60/],
    ["a fractional window", { window: 1.5 }, /rateLimit\.window is 1\.5.*positive whole number of seconds/],
    ["a window as text", { window: "900" }, /rateLimit\.window is "900"/],
    ["an ip limit of 0", { ip: 0 }, /rateLimit\.ip is 0.*positive whole number of attempts, or false/],
    ["a fractional identifier limit", { identifier: 2.5 }, /rateLimit\.identifier is 2\.5/],
    ["an infinite identifier limit", { identifier: Infinity }, /rateLimit\.identifier is Infinity/],
    ["ip: true", { ip: true }, /rateLimit\.ip is true/],
    ["both limits off", { ip: false, identifier: false }, /rateLimit\.ip and rateLimit\.identifier are both false/],
    ["a store without hit/reset", { store: { get() {} } }, /rateLimit\.store must be a rate limit store/],
    ["a clientAddress that is not a function", { clientAddress: "x-forwarded-for" }, /rateLimit\.clientAddress must be a function/],
    ["empty identifierFields", { identifierFields: [] }, /rateLimit\.identifierFields is \[\]/],
    ["identifierFields with a non-string", { identifierFields: ["email", 3] }, /rateLimit\.identifierFields/],
    ["rateLimit: true", true, /rateLimit is true; it must be an object/],
    ["rateLimit: null", null, /rateLimit is null/],
  ])("%s is a configuration error naming the option", async (_name, rateLimit, message) => {
    const { status, message: logged } = await configError(rateLimit);
    expect(status).toBe(500);
    expect(logged).toMatch(/^InvalidConfig: /);
    expect(logged).toMatch(message);
  });

  it("{} turns it on with the defaults; each limit can be turned off alone", async () => {
    for (const rateLimit of [{}, { ip: false }, { identifier: false }, { window: 1, ip: 1, identifier: 1 }] as RateLimitOptions[]) {
      expect((await Auth(request("/auth/providers"), limitedSetup(rateLimit).config)).status).toBe(200);
    }
  });
});

describe("MemoryRateLimitStore", () => {
  it("counts hits per key in fixed windows that start at a key's first hit (injected clock)", async () => {
    const clock = manualClock(1_000_000);
    const store = MemoryRateLimitStore({ now: clock.now });
    expect(await store.hit("a", 10)).toEqual({ count: 1, resetAt: 1_010_000 });
    clock.advance(4_000);
    expect(await store.hit("a", 10)).toEqual({ count: 2, resetAt: 1_010_000 });
    expect(await store.hit("b", 10)).toEqual({ count: 1, resetAt: 1_014_000 });
    clock.advance(6_000); // a's window has ended
    expect(await store.hit("a", 10)).toEqual({ count: 1, resetAt: 1_020_000 });
    expect(await store.hit("b", 10)).toEqual({ count: 2, resetAt: 1_014_000 });
    await store.reset("b");
    expect(await store.hit("b", 10)).toEqual({ count: 1, resetAt: 1_020_000 });
  });

  it("counts concurrent hits exactly", async () => {
    const store = MemoryRateLimitStore();
    const hits = await Promise.all(Array.from({ length: 500 }, () => store.hit("k", 60)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  it("keeps at most maxKeys: ended windows go first, then the oldest live ones", async () => {
    const clock = manualClock(0);
    const store = MemoryRateLimitStore({ maxKeys: 3, now: clock.now });
    await store.hit("old", 10);
    clock.advance(1_000);
    await store.hit("x", 10);
    await store.hit("x", 10);
    await store.hit("y", 10);
    clock.advance(9_000); // "old" has ended; x and y are live
    await store.hit("z", 10); // full: "old" goes
    expect((await store.hit("x", 10)).count).toBe(3);
    expect((await store.hit("y", 10)).count).toBe(2);

    // A flood of new keys: the store never holds more than 3, so the oldest live counts are forgotten.
    for (let i = 0; i < 1000; i++) await store.hit(`flood-${i}`, 10);
    expect((await store.hit("x", 10)).count).toBe(1);
    expect((await store.hit("flood-999", 10)).count).toBe(2);
    expect((await store.hit("flood-997", 10)).count).toBe(1);
  });

  it("refuses a maxKeys that is not a positive whole number", () => {
    expect(() => MemoryRateLimitStore({ maxKeys: 0 })).toThrow(/maxKeys is 0/);
    expect(() => MemoryRateLimitStore({ maxKeys: 1.5 })).toThrow(/maxKeys/);
  });
});
