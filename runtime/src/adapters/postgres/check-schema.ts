/**
 * `checkSchema()`: how a PostgreSQL (or PGlite) database stands against the
 * schema this runtime expects, without changing it: pending migrations,
 * migrations a newer runtime applied, and what is missing although applied.
 * `auth doctor` reports it; an app that migrates with its own tool can call it
 * at start.
 */
import { authSchema } from "../../schema/auth-schema.js";
import { readSchemaReport, refuseIncomplete, type CheckSchemaOptions, type RequireSchemaOptions, type SchemaReader, type SchemaReport } from "../../schema/check.js";
import { inspectPostgres } from "../../schema/inspect/postgres.js";
import { modelShape } from "../../schema/render/sql.js";
import type { SqlClient } from "./client.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { migrations as bundled } from "./migrations.js";

export const POSTGRES_SHAPE = modelShape(authSchema, "postgres");

/**
 * @example At the start of an app that applies the SQL with its own migration tool
 * ```ts
 * const report = await checkSchema(pool);
 * if (report.pending.length > 0 || report.missing.length > 0) throw new Error(`auth schema: ${JSON.stringify(report)}`);
 * ```
 */
export async function checkSchema(db: PostgresClient, options: CheckSchemaOptions = {}): Promise<SchemaReport> {
  const client = toSqlClient(db, "checkSchema");
  return readSchemaReport(postgresReader(client), POSTGRES_SHAPE, options.migrations ?? bundled, options);
}

/**
 * `checkSchema()` that throws a `SchemaMismatchError` (saying what is missing and
 * `fix`, the command to run) unless the database has everything this runtime needs.
 *
 * @example An app whose Drizzle schema holds the auth tables (drizzle-kit creates them)
 * ```ts
 * await requireSchema(db.$client, { ledger: false, fix: "npm run db:generate, then npm run db:migrate" });
 * ```
 */
export async function requireSchema(db: PostgresClient, options: RequireSchemaOptions = {}): Promise<SchemaReport> {
  return refuseIncomplete(await checkSchema(db, options), options);
}

/** The ledger and catalog of the search path's first schema. */
export function postgresReader(client: SqlClient): SchemaReader {
  return {
    async ledger() {
      const { rows } = await client.query<{ ledger: string | null }>("SELECT to_regclass('gatehouse_migrations')::text AS ledger");
      if (!rows[0]?.ledger) return [];
      return (await client.query<{ name: string }>("SELECT name FROM gatehouse_migrations")).rows.map((row) => row.name);
    },
    catalog: (tables) => inspectPostgres(client, { tables }),
  };
}
