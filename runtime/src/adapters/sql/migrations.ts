/**
 * What every adapter's `migrate()` does the same way: the list it applies, the
 * order of one step (read the ledger, apply the next migration it lacks, record
 * it), the error when one fails, and the loop of one transaction per migration.
 * The lock, the ledger's table and the SQL that reads and writes it are each
 * dialect's, in its `migrate.ts`, as a `Ledger`.
 */

import { readSchemaReport, refuseMismatch, type SchemaReader } from "../../schema/check.js";
import type { ExpectedTable } from "../../schema/drift.js";

/** One migration: a name (the SQL file's name without `.sql`) and its SQL. */
export interface Migration {
  readonly name: string;
  readonly sql: string;
}

export interface MigrateOptions {
  /**
   * The migrations to apply, in order: the whole list the database is migrated
   * with. Default: this package's, the same SQL as the adapter's
   * `migrations/<dialect>/*.sql`. With migrations of your own, pass
   * `[...migrations, ...yours]`. A migration runs inside a transaction: no BEGIN
   * or COMMIT of its own (nor, on SQLite, a PRAGMA it ignores there, such as
   * foreign_keys).
   */
  migrations?: readonly Migration[];
  /**
   * Run on a database whose ledger records migrations this list lacks (a newer
   * runtime applied them). Default false: `migrate()` refuses, naming them.
   */
  allowNewerSchema?: boolean;
}

/** A dialect's ledger of applied migrations, used inside the transaction of one step. */
export interface Ledger<Tx> {
  /**
   * Makes the runs take turns (a lock held until the transaction ends, where the
   * dialect needs one), creates the ledger when missing, and returns the names it records.
   */
  read(tx: Tx): Promise<readonly { name: string }[]>;
  /** Runs a migration's SQL (any number of statements). */
  run(tx: Tx, sql: string): Promise<unknown>;
  /** Records a migration as applied. */
  record(tx: Tx, name: string): Promise<unknown>;
}

/** What one dialect's `migrate()` hands the shared order. */
export interface MigrationRun<Tx> {
  /** Opens one transaction and runs `step` in it. */
  transaction(step: (tx: Tx) => Promise<string | null>): Promise<string | null>;
  ledger: Ledger<Tx>;
  /** The database's tables and ledger as they are, and as this runtime expects them, for the check afterwards. */
  reader: SchemaReader;
  shape: readonly ExpectedTable[];
  /** For the refusal's message: the folder of the SQL. */
  sqlDir: string;
  /** Where, for errors (`branch "x"`); default: the database. */
  where?: string;
}

/**
 * Applies what the list (`options.migrations`, or `bundled`) has that the
 * ledger lacks, one migration per transaction, in order; the names applied.
 * Each one is applied entirely or not at all, and a failing one leaves those
 * before it applied and recorded. A concurrent run waits for the step's lock,
 * then sees what this one recorded. Then the database must be one this runtime
 * runs on: refused here, at the app's first use of it, otherwise.
 */
export async function migrateWith<Tx>(run: MigrationRun<Tx>, bundled: readonly Migration[], options: MigrateOptions): Promise<{ applied: string[] }> {
  const list = migrationsToApply(options.migrations, bundled);
  const result = await applyPending(run, list);
  const report = await readSchemaReport(run.reader, run.shape, list);
  refuseMismatch(report, { allowNewerSchema: options.allowNewerSchema, sqlDir: run.sqlDir, ...(run.where ? { where: run.where } : {}) });
  return result;
}

function applyPending<Tx>({ transaction, ledger, where }: MigrationRun<Tx>, list: readonly Migration[]): Promise<{ applied: string[] }> {
  return applyInTurn(() =>
    transaction(async (tx) => {
      const next = nextPending(list, await ledger.read(tx));
      if (!next) return null;
      await runMigration(next, (sql) => ledger.run(tx, sql), where ? ` on ${where}` : "");
      await ledger.record(tx, next.name);
      return next.name;
    }),
  );
}

/** `given`, or the adapter's own migrations; the names must be unique, as the ledger records each by name. */
function migrationsToApply(given: readonly Migration[] | undefined, bundled: readonly Migration[]): readonly Migration[] {
  const list = given ?? bundled;
  const names = new Set(list.map((migration) => migration.name));
  if (names.size !== list.length) throw new Error("migrate: two migrations have the same name.");
  return list;
}

/** The first migration of `list` that the ledger's rows do not name, or undefined when all are applied. */
function nextPending(list: readonly Migration[], ledger: readonly { name: string }[]): Migration | undefined {
  const done = new Set(ledger.map((row) => row.name));
  return list.find((migration) => !done.has(migration.name));
}

/** Runs `migration` with `run`, naming it (and `where`, e.g. a branch) in the error if it fails. */
async function runMigration(migration: Migration, run: (sql: string) => Promise<unknown>, where = ""): Promise<void> {
  try {
    await run(migration.sql);
  } catch (error) {
    throw new Error(`migrate: migration ${migration.name} failed${where}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Calls `applyNext` until it applies nothing (returns null); the names it applied.
 * Each call is one transaction applying one migration: each one is applied
 * entirely or not at all, and a failing one leaves those before it applied and recorded.
 */
async function applyInTurn(applyNext: () => Promise<string | null>): Promise<{ applied: string[] }> {
  const applied: string[] = [];
  for (;;) {
    const name = await applyNext();
    if (name === null) return { applied };
    applied.push(name);
  }
}
