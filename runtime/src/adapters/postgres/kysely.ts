/**
 * `fromKysely`: a Kysely instance on PostgreSQL as a `SqlClient`, so the adapter
 * runs on the app's own Kysely (its pool, its dialect) when the app keeps only
 * that: `new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })`, or
 * Kysely's `PGliteDialect`.
 *
 * Nothing here imports `kysely` (see `../sql/kysely.ts`).
 */
import { runRaw, type KyselyLike, type KyselyQueryable } from "../sql/kysely.js";
import { inTransaction, type SqlClient, type SqlResult } from "./client.js";

export type { KyselyLike, KyselyQueryable, KyselyRawQuery, KyselyScopeBuilder } from "../sql/kysely.js";

/**
 * Wraps a `Kysely<DB>` on PostgreSQL. Queries go through `db.executeQuery`
 * with the text and parameters as they are, without the app's plugins; a
 * transaction is Kysely's (`db.transaction()`), and a nested one a savepoint.
 * A Kysely `Transaction` may be wrapped too: the adapter's transactions are
 * then savepoints of it.
 *
 * A text without parameters may hold several statements over `PostgresDialect`
 * (node-postgres sends it unprepared), so `migrate()` runs through it, but such
 * a text answers no rows. `PGliteDialect` prepares every query: `migrate()` is
 * refused there; run it on the PGlite instance itself.
 *
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from "kysely";
 * import pg from "pg";
 * import { fromKysely } from "@gatehouse/runtime/adapters/postgres/kysely";
 * import { PostgresAdapter, requireSchema } from "@gatehouse/runtime/adapters/postgres";
 *
 * import type { AuthDatabase } from "./auth-tables"; // a copy of @gatehouse/runtime/orm/kysely/postgres.ts
 *
 * const db = new Kysely<AuthDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) }) });
 * await requireSchema(fromKysely(db), { ledger: false }); // the auth tables came from Kysely's Migrator
 * const adapter = PostgresAdapter(fromKysely(db));
 * ```
 */
export function fromKysely(db: KyselyLike): SqlClient {
  const plain = db.withoutPlugins();
  const query = <Row>(text: string, params?: unknown[]) => run<Row>(plain, text, params);
  // A Transaction's transaction() throws: inside one, ours are savepoints.
  if (plain.isTransaction) return inTransaction(query);
  return {
    query,
    transaction: (fn) => plain.transaction().execute((trx) => fn(inTransaction((text, params) => run(trx, text, params)))),
  };
}

async function run<Row>(db: KyselyQueryable, text: string, params: unknown[] | undefined): Promise<SqlResult<Row>> {
  return { rows: await runRaw<Row>(db, text, params ?? [], "PostgreSQL") };
}
