/**
 * `PostgresRateLimitStore`: the sign-in counts of `rateLimit` in the
 * `rate_limits` table (migration 0002), shared by every process on the
 * database. One statement per hit, atomic under concurrency.
 */
import type { RateLimitStore } from "../../core/rate-limit/types.js";
import { sqlRateLimitStore } from "../sql/rate-limit-store.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { toDate, type Timestamp } from "./dialect.js";

export interface PostgresRateLimitStoreOptions {
  /** The clock, in milliseconds since the epoch. Default `Date.now()`; tests pass their own. */
  now?: () => number;
}

/**
 * Adds one hit; a window that has ended (`expires <= now`) starts again at 1.
 * `SET` expressions read the row as it was, so both see the old `expires`. A
 * concurrent insert of the same key waits for this row and then updates it:
 * no hit is lost.
 */
const HIT = `INSERT INTO rate_limits (key, count, expires) VALUES ($1, 1, $3)
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN rate_limits.expires <= $2 THEN 1 ELSE rate_limits.count + 1 END,
  expires = CASE WHEN rate_limits.expires <= $2 THEN EXCLUDED.expires ELSE rate_limits.expires END
RETURNING count, expires`;

const RESET = "DELETE FROM rate_limits WHERE key = $1";
const SWEEP = "DELETE FROM rate_limits WHERE expires <= $1";

/**
 * A `RateLimitStore` on PostgreSQL (a server through `pg`, or PGlite). Takes
 * what `PostgresAdapter` takes: a `SqlClient`, a `pg.Pool` or `Client`, a
 * `PGlite`, or a function that opens one (called on first use). Needs the
 * `rate_limits` table: `migrate()` creates it. Rows of ended windows are
 * deleted at most once per window, by the hit that finds one has passed.
 *
 * @example
 * ```ts
 * import { PostgresAdapter, PostgresRateLimitStore, migrate } from "@gatehouse/runtime/adapters/postgres";
 * await migrate(pool);
 * const config = { adapter: PostgresAdapter(pool), rateLimit: { store: PostgresRateLimitStore(pool) }, providers };
 * ```
 */
export function PostgresRateLimitStore(db: PostgresClient, options: PostgresRateLimitStoreOptions = {}): RateLimitStore {
  const client = toSqlClient(db, "PostgresRateLimitStore");
  return sqlRateLimitStore(
    {
      sweep: (now) => client.query(SWEEP, [new Date(now)]),
      async hit(key, now, windowEnd) {
        const { rows } = await client.query<{ count: number | string; expires: Timestamp }>(HIT, [key, new Date(now), new Date(windowEnd)]);
        return { count: Number(rows[0]!.count), resetAt: toDate(rows[0]!.expires).getTime() };
      },
      reset: (key) => client.query(RESET, [key]),
    },
    options.now,
  );
}
