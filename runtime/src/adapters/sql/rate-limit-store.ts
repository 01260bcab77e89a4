/**
 * What the SQL rate limit stores share: the clock, the sweep of ended windows
 * at most once per window, one statement per hit. Each dialect brings its
 * statements and how it binds times (PostgreSQL `Date`s, SQLite milliseconds).
 */
import type { RateLimitHit, RateLimitStore } from "../../core/rate-limit/types.js";

export interface RateLimitStatements {
  /** Deletes the rows whose window ended at or before `now`. */
  sweep(now: number): Promise<unknown>;
  /** Adds one hit to `key` (a window ended by `now` starts again at 1, ending at `windowEnd`). */
  hit(key: string, now: number, windowEnd: number): Promise<RateLimitHit>;
  reset(key: string): Promise<unknown>;
}

export function sqlRateLimitStore(statements: RateLimitStatements, now: () => number = () => Date.now()): RateLimitStore {
  let lastSweep = 0;
  return {
    async hit(key, windowSeconds) {
      const time = Math.floor(now());
      if (time - lastSweep >= windowSeconds * 1000) {
        lastSweep = time;
        await statements.sweep(time);
      }
      return statements.hit(key, time, time + Math.round(windowSeconds * 1000));
    },
    async reset(key) {
      await statements.reset(key);
    },
  };
}
