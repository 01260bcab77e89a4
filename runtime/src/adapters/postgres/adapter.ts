/**
 * `PostgresAdapter`: the SQL adapter core (`../sql/adapter.ts`) on the schema
 * of `runtime/migrations/postgres` (the Auth.js PostgreSQL tables plus
 * authenticators, and the passwords of email + password accounts), through any
 * driver `SqlClient` wraps (pg, PGlite, postgres.js).
 */
import { sqlAdapter } from "../sql/adapter.js";
import { MODEL_NAMING } from "../sql/dialect.js";
import type { Adapter } from "../types.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { postgresDialect } from "./dialect.js";

/** Thrown when a method that must act on an existing row finds none (the driver's own errors pass through). */
export class PostgresAdapterError extends Error {
  override name = "PostgresAdapterError";
  readonly code = "not_found";
}

const POSTGRES = postgresDialect(MODEL_NAMING, (message) => new PostgresAdapterError(message));

/**
 * The adapter for a PostgreSQL database migrated with `migrate()` (or the SQL
 * files in `@gatehouse/runtime/migrations/postgres`).
 *
 * Takes a `SqlClient` (see `fromPg`, `fromPGlite`) or, for convenience, a
 * `pg.Pool`, a connected `pg.Client` or a `PGlite` instance directly. Or a
 * function that returns (a promise of) one of these: it is called on the first
 * method call, not here, so a module that builds the adapter can be imported
 * (by a bundler analysing it, say) without opening the database. It is called
 * once (concurrent first calls share that call); if it throws or rejects, the
 * method call fails with an error that has it as `cause`, and the next method
 * call calls it again.
 *
 * Fields beyond the schema's columns (e.g. extra user profile fields,
 * `expires_in` of an account) are not stored. Users and sessions are read
 * whole: a column the app added (`ALTER TABLE users ADD COLUMN role text`)
 * comes back from every user read, `getSessionAndUser` and so the callbacks.
 * (`getSessionAndUser` carries the session row as JSON, to stay one round trip:
 * a column added to `sessions` comes back as its JSON value there, a
 * `timestamptz` as its ISO string.) Adding a column while the app runs needs
 * no restart (see `fromPg`).
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migrate(pool);
 * const config = { adapter: PostgresAdapter(pool), providers: [...] };
 * ```
 *
 * @example Opened and migrated on first use
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * let opening: Promise<PGlite> | undefined;
 * // The app's one PGlite; the adapter and the app's own queries share it.
 * export const openDb = () =>
 *   (opening ??= openAndMigrate().catch((error: unknown) => {
 *     opening = undefined; // a failed open is not kept: the next call tries again
 *     throw error;
 *   }));
 *
 * async function openAndMigrate(): Promise<PGlite> {
 *   const db = new PGlite("./.data/auth");
 *   try {
 *     await migrate(db);
 *     return db;
 *   } catch (error) {
 *     await db.close().catch(() => {}); // a retry opens the directory again: never two PGlite on it
 *     throw error;
 *   }
 * }
 *
 * export const adapter = PostgresAdapter(openDb);
 * ```
 */
export function PostgresAdapter(client: PostgresClient): Required<Adapter> {
  const store = { db: toSqlClient(client, "PostgresAdapter"), dialect: POSTGRES };
  return sqlAdapter(() => store);
}
