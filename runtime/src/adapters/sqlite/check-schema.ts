/**
 * `checkSchema()` for SQLite: how the database stands against the schema this
 * runtime expects (see `adapters/postgres/check-schema.ts`).
 */
import { authSchema } from "../../schema/auth-schema.js";
import { readSchemaReport, refuseIncomplete, type CheckSchemaOptions, type RequireSchemaOptions, type SchemaReader, type SchemaReport } from "../../schema/check.js";
import { inspectSqlite } from "../../schema/inspect/sqlite.js";
import { modelShape } from "../../schema/render/sql.js";
import type { SqliteClient } from "./client.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";
import { migrations as bundled } from "./migrations.js";

export const SQLITE_SHAPE = modelShape(authSchema, "sqlite");

export async function checkSchema(db: SqliteDatabase | SqliteConnect, options: CheckSchemaOptions = {}): Promise<SchemaReport> {
  return readSchemaReport(sqliteReader(toSqliteClient(db, "checkSchema")), SQLITE_SHAPE, options.migrations ?? bundled, options);
}

/** `checkSchema()` that throws a `SchemaMismatchError` unless the database has everything this runtime needs (see the PostgreSQL adapter's). */
export async function requireSchema(db: SqliteDatabase | SqliteConnect, options: RequireSchemaOptions = {}): Promise<SchemaReport> {
  return refuseIncomplete(await checkSchema(db, options), options);
}

export function sqliteReader(client: SqliteClient): SchemaReader {
  return {
    async ledger() {
      const { rows } = await client.query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'gatehouse_migrations'");
      if (rows.length === 0) return [];
      return (await client.query<{ name: string }>("SELECT name FROM gatehouse_migrations")).rows.map((row) => row.name);
    },
    catalog: (tables) => inspectSqlite(client, { tables }),
  };
}
