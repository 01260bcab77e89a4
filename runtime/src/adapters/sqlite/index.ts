/**
 * `@gatehouse/runtime/adapters/sqlite`: the adapter, the migrator and the
 * schema's SQL. Driver wrappers are in `./sqlite/better-sqlite3` and
 * `./sqlite/node-sqlite`.
 */
export { SqliteAdapter, SqliteAdapterError } from "./adapter.js";
export { migrate } from "./migrate.js";
export type { Migration, MigrateOptions } from "./migrate.js";
export { migrations } from "./migrations.js";
export { checkSchema, requireSchema } from "./check-schema.js";
export { SchemaMismatchError } from "../../schema/check.js";
export type { CheckSchemaOptions, Missing, RequireSchemaOptions, SchemaReport } from "../../schema/check.js";
export { SqliteRateLimitStore } from "./rate-limit-store.js";
export type { SqliteRateLimitStoreOptions } from "./rate-limit-store.js";
export type { SqliteClient, SqliteResult, SqliteValue } from "./client.js";
export type { SqliteConnect, SqliteDatabase } from "./connect.js";
