/**
 * `migrate()`: brings a branch of the hosted store to the svc_ schema this
 * adapter expects. It creates the branch's PostgreSQL schema when missing, then
 * applies the migrations the branch has not applied yet, in order, each in its
 * own transaction with `search_path` set to the branch, and records each in the
 * branch's `svc_migrations` ledger. Safe to run on every start and from several
 * processes at once: a transaction-scoped advisory lock per branch makes the
 * runs on one branch take turns, and a run that finds everything applied
 * changes nothing. Other branches are neither touched nor blocked.
 */
import type { SqlClient } from "../postgres/client.js";
import { createLedger } from "../postgres/migrate.js";
import { migrateWith, type Ledger, type MigrateOptions, type MigrationRun } from "../sql/migrations.js";
import { HOSTED_STORE_SHAPE, hostedStoreReader } from "./check-schema.js";
import { schemaOf, type HostedStoreClient } from "./client.js";
import { migrations as bundled } from "./migrations.js";

export type { MigrateOptions, Migration } from "../sql/migrations.js";

/**
 * First key of the advisory lock (the second is the branch's hash): an
 * arbitrary constant, "gate" in ASCII, the same in every process. Two-key
 * locks never collide with the one-key lock of the PostgreSQL adapter's migrate().
 */
const LOCK_CLASS = 0x67_61_74_65;

/**
 * The ledger lives in the branch's schema, so each branch records its own
 * migrations; its svc_ name keeps it apart from the PostgreSQL adapter's
 * `gatehouse_migrations` even when a branch is the `public` schema.
 */
const LEDGER_TABLE = "svc_migrations";

/**
 * Applies the pending migrations to the client's branch; returns the names of
 * those it applied (empty when the branch was up to date).
 *
 * @example
 * ```ts
 * const store = new HostedStoreClient({ env: process.env, connect: (url) => fromPg(new pg.Pool({ connectionString: url })) });
 * const { applied } = await migrate(store); // ["0001_init"] the first time, [] after
 * ```
 */
export async function migrate(client: HostedStoreClient, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const { branch } = await client.getConfig();
  const db = await client.connection();
  const run: MigrationRun<SqlClient> = {
    transaction: (step) => db.transaction(step),
    ledger: branchLedger(branch),
    reader: hostedStoreReader(db, branch),
    shape: HOSTED_STORE_SHAPE,
    sqlDir: "node_modules/@gatehouse/runtime/migrations/hosted-store/",
    where: `branch "${branch}"`,
  };
  return migrateWith(run, bundled, options);
}

/** The branch's ledger, in its own schema; the migrations run with `search_path` set to the branch. */
function branchLedger(branch: string): Ledger<SqlClient> {
  const schema = schemaOf(branch);
  return {
    async read(tx) {
      // Held until this transaction ends: a concurrent run on the branch waits here, then sees what this one recorded.
      await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_CLASS, branch]);
      // Looked up first rather than CREATE SCHEMA IF NOT EXISTS, which needs the
      // CREATE privilege on the database even when the schema exists: a role
      // limited to a schema made for it by an admin can still migrate.
      const { rows: existing } = await tx.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [branch]);
      if (existing.length === 0) await tx.query(`CREATE SCHEMA ${schema}`);
      // LOCAL: back to the connection's own search_path when the transaction ends.
      await tx.query(`SET LOCAL search_path TO ${schema}`);
      await tx.query(createLedger(LEDGER_TABLE));
      return (await tx.query<{ name: string }>(`SELECT name FROM ${LEDGER_TABLE}`)).rows;
    },
    run: (tx, sql) => tx.query(sql),
    record: (tx, name) => tx.query(`INSERT INTO ${LEDGER_TABLE} (name) VALUES ($1)`, [name]),
  };
}
