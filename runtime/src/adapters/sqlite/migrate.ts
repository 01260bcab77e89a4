/**
 * `migrate()`: brings a SQLite database to the schema this adapter expects by
 * applying the migrations it has not applied yet, in order, each in its own
 * transaction, and recording each in `gatehouse_migrations`. Safe to run on
 * every start and from several connections or processes at once: SQLite has one
 * writer, and each step is a BEGIN IMMEDIATE transaction that takes the write
 * lock before reading the ledger, so the runs take turns and a run that finds
 * everything applied changes nothing.
 */
import { migrateWith, type Ledger, type MigrateOptions, type MigrationRun } from "../sql/migrations.js";
import { SQLITE_SHAPE, sqliteReader } from "./check-schema.js";
import type { SqliteClient } from "./client.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";
import { migrations as bundled } from "./migrations.js";

export type { MigrateOptions, Migration } from "../sql/migrations.js";

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
  const run: MigrationRun<SqliteClient> = {
    transaction: (step) => client.transaction(step),
    ledger: LEDGER,
    reader: sqliteReader(client),
    shape: SQLITE_SHAPE,
    sqlDir: "node_modules/@gatehouse/runtime/migrations/sqlite/",
  };
  return migrateWith(run, bundled, options);
}

const LEDGER: Ledger<SqliteClient> = {
  async read(tx) {
    // The transaction holds the write lock already: a concurrent run waits for it, then sees what this one recorded.
    await tx.exec(CREATE_LEDGER);
    return (await tx.query<{ name: string }>("SELECT name FROM gatehouse_migrations")).rows;
  },
  run: (tx, sql) => tx.exec(sql),
  record: (tx, name) => tx.query("INSERT INTO gatehouse_migrations (name, applied_at) VALUES (?, ?)", [name, Date.now()]),
};
