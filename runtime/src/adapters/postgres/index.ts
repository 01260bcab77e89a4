/**
 * `@gatehouse/runtime/adapters/postgres`: the adapter, the migrator and the
 * schema's SQL. Driver wrappers are in `./postgres/pg` and `./postgres/pglite`.
 */
export { PostgresAdapter, PostgresAdapterError } from "./adapter.js";
export { migrate } from "./migrate.js";
export type { Migration, MigrateOptions } from "./migrate.js";
export { migrations } from "./migrations.js";
export { checkSchema, requireSchema } from "./check-schema.js";
export { SchemaMismatchError } from "../../schema/check.js";
export type { CheckSchemaOptions, Missing, RequireSchemaOptions, SchemaReport } from "../../schema/check.js";
export { PostgresRateLimitStore } from "./rate-limit-store.js";
export type { PostgresRateLimitStoreOptions } from "./rate-limit-store.js";
export type { SqlClient, SqlResult } from "./client.js";
export type { PostgresClient, PostgresConnect, PostgresDatabase } from "./connect.js";
