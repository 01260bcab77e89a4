/**
 * `migrate()`: brings a SQLite database to the schema this adapter expects by
 * applying the migrations it has not applied yet, in order, each in its own
 * transaction, and recording each in `gatehouse_migrations`. Safe to run on
 * every start and from several connections or processes at once: SQLite has one
 * writer, and each step is a BEGIN IMMEDIATE transaction that takes the write
 * lock before reading the ledger, so the runs take turns and a run that finds
 * everything applied changes nothing.
 */
import { readSchemaReport, refuseMismatch } from "../../schema/check.js";
import { applyInTurn, migrationsToApply, nextPending, runMigration, type Migration } from "../sql/migrations.js";
import { SQLITE_SHAPE, sqliteReader } from "./check-schema.js";
import type { SqliteClient } from "./client.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";
import { migrations as bundled } from "./migrations.js";

export type { Migration } from "../sql/migrations.js";

export interface MigrateOptions {
  /**
   * The migrations to apply, in order. Default: this package's, the same SQL as `migrations/sqlite/*.sql`.
   * A migration's SQL may hold any number of statements. It runs inside a transaction: no BEGIN or COMMIT
   * of its own, and no PRAGMA that SQLite ignores in a transaction (foreign_keys).
   */
  migrations?: readonly Migration[];
  /**
   * Run on a database whose ledger records migrations this list lacks (a newer
   * runtime applied them). Default false: `migrate()` refuses, naming them.
   */
  allowNewerSchema?: boolean;
}

// applied_at in milliseconds since the epoch, like every date of this schema.
const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS gatehouse_migrations (
  name TEXT NOT NULL PRIMARY KEY,
  applied_at INTEGER NOT NULL
) STRICT`;

/**
 * Applies the pending migrations; returns the names of those it applied
 * (empty when the database was up to date).
 *
 * `db` may also be a function that opens the database, as `SqliteAdapter`
 * takes: `migrate()` calls it when it starts, so a script can migrate with the
 * function the app gives its adapter.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * const db = new Database("./data/auth.db");
 * const { applied } = await migrate(db); // ["0001_init"] the first time, [] after
 * const adapter = SqliteAdapter(db);
 * ```
 */
export async function migrate(db: SqliteDatabase | SqliteConnect, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const client = toSqliteClient(db, "migrate");
  const list = migrationsToApply(options.migrations, bundled);
  const result = await applyInTurn(() => client.transaction((tx) => applyNext(tx, list)));
  // The database must now be one this runtime runs on: refused here, at the app's first use of it, otherwise.
  const report = await readSchemaReport(sqliteReader(client), SQLITE_SHAPE, list);
  refuseMismatch(report, { allowNewerSchema: options.allowNewerSchema, sqlDir: "node_modules/@gatehouse/runtime/migrations/sqlite/" });
  return result;
}

async function applyNext(tx: SqliteClient, list: readonly Migration[]): Promise<string | null> {
  // The transaction holds the write lock already: a concurrent run waits for it, then sees what this one recorded.
  await tx.exec(CREATE_LEDGER);
  const { rows } = await tx.query<{ name: string }>("SELECT name FROM gatehouse_migrations");
  const next = nextPending(list, rows);
  if (!next) return null;
  await runMigration(next, (sql) => tx.exec(sql));
  await tx.query("INSERT INTO gatehouse_migrations (name, applied_at) VALUES (?, ?)", [next.name, Date.now()]);
  return next.name;
}
