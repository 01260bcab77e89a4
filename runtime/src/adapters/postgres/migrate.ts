/**
 * `migrate()`: brings a database to the schema this adapter expects by applying
 * the migrations it has not applied yet, in order, each in its own transaction,
 * and recording each in `gatehouse_migrations`. Safe to run on every start and
 * from several processes at once: a transaction-scoped advisory lock makes the
 * runs take turns, and a run that finds everything applied changes nothing.
 */
import { migrateWith, type Ledger, type MigrateOptions, type MigrationRun } from "../sql/migrations.js";
import { POSTGRES_SHAPE, postgresReader } from "./check-schema.js";
import type { SqlClient } from "./client.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { migrations as bundled } from "./migrations.js";

export type { MigrateOptions, Migration } from "../sql/migrations.js";

/**
 * Key of the advisory lock every `migrate()` on a database takes: an arbitrary
 * constant, the same in every process, that nothing else is expected to use.
 */
const LOCK_KEY = 7_265_768_011_462_412;

/** The ledger's table on PostgreSQL (the hosted store's has another name). */
export const createLedger = (table: string) => `CREATE TABLE IF NOT EXISTS ${table} (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies the pending migrations; returns the names of those it applied
 * (empty when the database was up to date).
 *
 * `db` may also be a function that opens the database, as `PostgresAdapter`
 * takes: `migrate()` calls it when it starts, so a script can migrate with the
 * function the app gives its adapter. Migrating on first use instead of at
 * start leaves the database alone until a request needs it (a bundler
 * importing the module to analyse it opens nothing): see the second example.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const db = new PGlite("./data/auth");
 * const { applied } = await migrate(db); // ["0001_init"] the first time, [] after
 * const adapter = PostgresAdapter(db);
 * ```
 *
 * @example Migrated on first use
 * ```ts
 * import pg from "pg";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL }); // connects on its first query
 * // Called on the adapter's first use, once; if the migration fails, again on the next use.
 * export const adapter = PostgresAdapter(async () => {
 *   await migrate(pool);
 *   return pool;
 * });
 * ```
 */
export async function migrate(db: PostgresClient, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const client = toSqlClient(db, "migrate");
  const run: MigrationRun<SqlClient> = {
    transaction: (step) => client.transaction(step),
    ledger: LEDGER,
    reader: postgresReader(client),
    shape: POSTGRES_SHAPE,
    sqlDir: "node_modules/@gatehouse/runtime/migrations/postgres/",
  };
  return migrateWith(run, bundled, options);
}

const LEDGER: Ledger<SqlClient> = {
  async read(tx) {
    // Held until this transaction ends: a concurrent run waits here, then sees what this one recorded.
    // FROM, not a select list: the function returns `void`, a type some drivers (Prisma's) cannot decode.
    await tx.query("SELECT 1 FROM pg_advisory_xact_lock($1)", [LOCK_KEY]);
    await tx.query(createLedger("gatehouse_migrations"));
    return (await tx.query<{ name: string }>("SELECT name FROM gatehouse_migrations")).rows;
  },
  run: (tx, sql) => tx.query(sql),
  record: (tx, name) => tx.query("INSERT INTO gatehouse_migrations (name) VALUES ($1)", [name]),
};
