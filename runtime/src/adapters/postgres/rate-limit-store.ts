/**
 * `PostgresRateLimitStore`: the sign-in counts of `rateLimit` in the
 * `rate_limits` table (migration 0002), shared by every process on the
 * database. One statement per hit, atomic under concurrency.
 */
import type { RateLimitStore } from "../../core/rate-limit/types.js";
import { sqlRateLimitStore } from "../sql/rate-limit-store.js";
import type { SqlClient } from "./client.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { toDate, type Timestamp } from "./dialect.js";

export interface PostgresRateLimitStoreOptions {
  /** The clock, in milliseconds since the epoch. Default `Date.now()`; tests pass their own. */
  now?: () => number;
}

/**
 * The statements on `table` (as SQL names it, schema-qualified or not). A hit
 * adds one; a window that has ended (`expires <= now`) starts again at 1.
 * `SET` expressions read the row as it was, so both see the old `expires`. A
 * concurrent insert of the same key waits for this row and then updates it:
 * no hit is lost. Needs a unique index on `key`.
 */
function statementsOn(table: string) {
  return {
    hit: `INSERT INTO ${table} AS r (key, count, expires) VALUES ($1, 1, $3)
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN r.expires <= $2 THEN 1 ELSE r.count + 1 END,
  expires = CASE WHEN r.expires <= $2 THEN EXCLUDED.expires ELSE r.expires END
RETURNING count, expires`,
    reset: `DELETE FROM ${table} WHERE key = $1`,
    sweep: `DELETE FROM ${table} WHERE expires <= $1`,
  };
}

/** Where a store counts: the connection and the table, known at the first hit (the hosted store's branch comes with its config). */
export type RateLimitTable = () => Promise<{ client: SqlClient; table: string }>;

/** The store on a PostgreSQL table; shared by `PostgresRateLimitStore` and the hosted store's. */
export function postgresRateLimitStore(target: RateLimitTable, now?: () => number): RateLimitStore {
  let statements: { table: string; sql: ReturnType<typeof statementsOn> } | undefined;
  const open = async () => {
    const { client, table } = await target();
    if (statements?.table !== table) statements = { table, sql: statementsOn(table) };
    return { client, sql: statements.sql };
  };
  return sqlRateLimitStore(
    {
      async sweep(time) {
        const { client, sql } = await open();
        await client.query(sql.sweep, [new Date(time)]);
      },
      async hit(key, time, windowEnd) {
        const { client, sql } = await open();
        const { rows } = await client.query<{ count: number | string; expires: Timestamp }>(sql.hit, [key, new Date(time), new Date(windowEnd)]);
        return { count: Number(rows[0]!.count), resetAt: toDate(rows[0]!.expires).getTime() };
      },
      async reset(key) {
        const { client, sql } = await open();
        await client.query(sql.reset, [key]);
      },
    },
    now,
  );
}

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
  const target = { client, table: "rate_limits" };
  return postgresRateLimitStore(() => Promise.resolve(target), options.now);
}
