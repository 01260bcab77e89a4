/**
 * `@gatehouse/runtime/adapters/hosted-store`: the hosted store's client, the
 * adapter on its svc_ tables, the migrator and the schema's SQL. The store is
 * reached through a `SqlClient`: wrap your driver with `fromPg`
 * (`@gatehouse/runtime/adapters/postgres/pg`) or `fromPGlite`
 * (`@gatehouse/runtime/adapters/postgres/pglite`).
 */
export { HostedStoreAdapter } from "./adapter.js";
export { DEFAULT_BRANCH, HOSTED_STORE_ENV, HostedStoreClient } from "./client.js";
export type { HostedStoreClientOptions, HostedStoreConfig } from "./client.js";
export { HostedStoreError } from "./errors.js";
export type { HostedStoreErrorCode } from "./errors.js";
export { migrate } from "./migrate.js";
export type { MigrateOptions, Migration } from "./migrate.js";
export { migrations } from "./migrations.js";
export { HostedStoreRateLimitStore } from "./rate-limit-store.js";
export type { HostedStoreRateLimitStoreOptions } from "./rate-limit-store.js";
export { checkSchema } from "./check-schema.js";
export { SchemaMismatchError } from "../../schema/check.js";
export type { CheckSchemaOptions, Missing, SchemaReport } from "../../schema/check.js";
export type { SqlClient, SqlResult } from "../postgres/client.js";
