/**
 * `SqliteRateLimitStore`: the sign-in counts of `rateLimit` in the
 * `rate_limits` table (migration 0002), shared by every connection to the
 * file. One statement per hit: SQLite runs it under its write lock, so
 * concurrent hits are counted exactly.
 */
import type { RateLimitStore } from "../../core/rate-limit/types.js";
import { sqlRateLimitStore } from "../sql/rate-limit-store.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";

export interface SqliteRateLimitStoreOptions {
  /** The clock, in milliseconds since the epoch. Default `Date.now()`; tests pass their own. */
  now?: () => number;
}

/**
 * Adds one hit; a window that has ended (`expires <= now`) starts again at 1.
 * `SET` expressions read the row as it was, so both see the old `expires`.
 * Parameters: key, the new window's end, now, now (plain `?`, bound in order).
 */
const HIT = `INSERT INTO rate_limits (key, count, expires) VALUES (?, 1, ?)
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN rate_limits.expires <= ? THEN 1 ELSE rate_limits.count + 1 END,
  expires = CASE WHEN rate_limits.expires <= ? THEN excluded.expires ELSE rate_limits.expires END
RETURNING count, expires`;

const RESET = "DELETE FROM rate_limits WHERE key = ?";
const SWEEP = "DELETE FROM rate_limits WHERE expires <= ?";

/**
 * A `RateLimitStore` on SQLite. Takes what `SqliteAdapter` takes: a
 * better-sqlite3 `Database`, a node:sqlite `DatabaseSync`, a `SqliteClient`, or
 * a function that opens one (called on first use). Needs the `rate_limits`
 * table: `migrate()` creates it. Rows of ended windows are deleted at most once
 * per window, by the hit that finds one has passed.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, SqliteRateLimitStore, migrate } from "@gatehouse/runtime/adapters/sqlite";
 * const db = new Database("auth.sqlite");
 * await migrate(db);
 * const config = { adapter: SqliteAdapter(db), rateLimit: { store: SqliteRateLimitStore(db) }, providers };
 * ```
 */
export function SqliteRateLimitStore(db: SqliteDatabase | SqliteConnect, options: SqliteRateLimitStoreOptions = {}): RateLimitStore {
  const client = toSqliteClient(db, "SqliteRateLimitStore");
  return sqlRateLimitStore(
    {
      sweep: (now) => client.query(SWEEP, [now]),
      async hit(key, now, windowEnd) {
        const { rows } = await client.query<{ count: number | bigint; expires: number | bigint }>(HIT, [key, windowEnd, now, now]);
        return { count: Number(rows[0]!.count), resetAt: Number(rows[0]!.expires) };
      },
      reset: (key) => client.query(RESET, [key]),
    },
    options.now,
  );
}
