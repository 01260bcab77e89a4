/**
 * The default rate limit store: counts in this process's memory. Each process
 * (each server instance, each serverless isolate) counts on its own, so N
 * instances allow N times the limit; use a database store when that matters.
 */
import type { RateLimitHit, RateLimitStore } from "./types.js";

export interface MemoryRateLimitStoreOptions {
  /**
   * The most keys kept. When full, keys whose window has ended go first, then
   * the oldest windows: a flood of distinct keys (many addresses, made-up
   * identifiers) cannot grow memory without bound, at the price that such a
   * flood forgets the oldest live counts early. Default 10,000 (about 2 MB).
   */
  maxKeys?: number;
  /** The clock, in milliseconds since the epoch. Default `Date.now`; tests pass their own. */
  now?: () => number;
}

interface Window {
  count: number;
  resetAt: number;
}

const DEFAULT_MAX_KEYS = 10_000;

/**
 * A `RateLimitStore` on a `Map`. A hit is synchronous inside, so concurrent hits
 * in one process are counted exactly.
 *
 * @example
 * ```ts
 * import { MemoryRateLimitStore } from "@gatehouse/runtime";
 * const config = { providers, rateLimit: { store: MemoryRateLimitStore({ maxKeys: 50_000 }) } };
 * ```
 */
export function MemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  if (!Number.isSafeInteger(maxKeys) || maxKeys <= 0) {
    throw new TypeError(`MemoryRateLimitStore: maxKeys is ${JSON.stringify(maxKeys)}; it must be a positive whole number.`);
  }
  const now = options.now ?? Date.now;
  // Insertion order is window-start order: a key whose window restarts is re-inserted at
  // the end. With one window length the first entries are the first to expire.
  const windows = new Map<string, Window>();

  function makeRoom(time: number): void {
    for (const [key, window] of windows) {
      if (windows.size < maxKeys) return;
      // Expired first; once the oldest is live, every later one is too (same window length),
      // and the oldest live window goes.
      windows.delete(key);
      if (window.resetAt > time) return;
    }
  }

  return {
    async hit(key, windowSeconds): Promise<RateLimitHit> {
      const time = now();
      const current = windows.get(key);
      if (current && current.resetAt > time) {
        current.count += 1;
        return { count: current.count, resetAt: current.resetAt };
      }
      if (current) windows.delete(key);
      else makeRoom(time);
      const started: Window = { count: 1, resetAt: time + windowSeconds * 1000 };
      windows.set(key, started);
      return { count: 1, resetAt: started.resetAt };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
