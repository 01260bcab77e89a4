/**
 * `SqliteAdapter`: the SQL adapter core (`../sql/adapter.ts`) on the schema of
 * `runtime/migrations/sqlite` (the tables and columns of the PostgreSQL schema,
 * in SQLite types, with the passwords of email + password accounts), through
 * any driver `SqliteClient` wraps (better-sqlite3, node:sqlite).
 */
import { sqlAdapter } from "../sql/adapter.js";
import { MODEL_NAMING, type SqlDialect } from "../sql/dialect.js";
import type { Adapter } from "../types.js";
import type { SqliteValue } from "./client.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";

/** Thrown when a method that must act on an existing row finds none (the driver's own errors pass through). */
export class SqliteAdapterError extends Error {
  override name = "SqliteAdapterError";
  readonly code = "not_found";
}

/**
 * The schema stores dates as INTEGER milliseconds and booleans as INTEGER 0/1
 * (SQLite has neither type); an INTEGER comes back as a number, or as a bigint
 * on a connection set to read them so (better-sqlite3 `safeIntegers`,
 * node:sqlite `readBigInts`). Placeholders are `?`, bound in order.
 */
const SQLITE: SqlDialect<SqliteValue> = {
  naming: MODEL_NAMING,
  placeholder: () => "?",
  encode: { date: toMillis, boolean: (value) => (value ? 1 : 0) },
  decode: {
    date: (ms) => new Date(Number(ms)),
    boolean: (value) => Number(value) === 1,
    // The session's INTEGER id, and INTEGER columns the app added, as numbers even on a connection
    // that reads them as BigInt, so that a session callback's result still goes through JSON.
    row: safeIntegers,
  },
  // Milliseconds, as the columns' defaults write them.
  now: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
  // IS compares NULLs as equal.
  nullSafeEquals: "IS",
  // NULL sorts first in SQLite.
  nullsFirst: "",
  // No row-to-JSON that keeps the types: getSessionAndUser reads the session, then its user.
  rowAsJson: null,
  notFound: (message) => new SqliteAdapterError(message),
};

/**
 * The adapter for a SQLite database migrated with `migrate()` (or the SQL files
 * in `@gatehouse/runtime/migrations/sqlite`).
 *
 * Takes a `SqliteClient` (see `fromBetterSqlite3`, `fromNodeSqlite`) or, for
 * convenience, a better-sqlite3 `Database` or a node:sqlite `DatabaseSync`
 * directly (wrapped, which turns its foreign keys on). Or a function that
 * returns (a promise of) one of these: it is called on the first method call,
 * not here, so a module that builds the adapter can be imported (by a bundler
 * analysing it, say) without creating the database file. It is called once
 * (concurrent first calls share that call); if it throws or rejects, the
 * method call fails with an error that has it as `cause`, and the next method
 * call calls it again.
 *
 * Fields beyond the schema's columns (e.g. extra user profile fields,
 * `expires_in` of an account) are not stored. Users and sessions are read
 * whole: a column the app added (`ALTER TABLE users ADD COLUMN role TEXT`)
 * comes back from every user read, `getSessionAndUser` and so the callbacks,
 * as SQLite stores it (an INTEGER date stays a number: only the schema's own
 * columns are known to be dates or booleans).
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * const db = new Database("./data/auth.db");
 * db.pragma("journal_mode = WAL"); // readers do not wait for the writer
 * await migrate(db);
 * const config = { adapter: SqliteAdapter(db), providers: [...] };
 * ```
 *
 * @example Opened and migrated on first use
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * let opening: Promise<Database.Database> | undefined;
 * // The app's one connection; the adapter and the app's own queries share it.
 * export const openDb = () =>
 *   (opening ??= openAndMigrate().catch((error: unknown) => {
 *     opening = undefined; // a failed open is not kept: the next call tries again
 *     throw error;
 *   }));
 *
 * async function openAndMigrate(): Promise<Database.Database> {
 *   const db = new Database("./data/auth.db"); // creates the file: only now, on first use
 *   try {
 *     await migrate(db);
 *     return db;
 *   } catch (error) {
 *     db.close();
 *     throw error;
 *   }
 * }
 *
 * export const adapter = SqliteAdapter(openDb);
 * ```
 */
export function SqliteAdapter(client: SqliteDatabase | SqliteConnect): Required<Adapter> {
  const store = { db: toSqliteClient(client, "SqliteAdapter"), dialect: SQLITE };
  return sqlAdapter(() => store);
}

/** A date as the schema stores it: milliseconds since the epoch. */
function toMillis(date: Date, field: string): number {
  // `Date` by the contract; a string or number (e.g. a date that went through JSON) is taken too.
  const ms = date instanceof Date ? date.getTime() : new Date(date as string | number).getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`SqliteAdapter: ${field} is not a valid date: ${String(date)}`);
  return ms;
}

function safeIntegers(row: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...row };
  for (const [column, value] of Object.entries(copy)) {
    if (typeof value === "bigint" && Number.isSafeInteger(Number(value))) copy[column] = Number(value);
  }
  return copy;
}
