/**
 * Accepting a raw driver object where a `SqliteClient` is expected. Detection is
 * by shape, so no driver is imported: the wrappers this picks load none either.
 */
import { fromBetterSqlite3, isBetterSqlite3, type BetterSqlite3Like } from "./better-sqlite3.js";
import type { SqliteClient } from "./client.js";
import { fromNodeSqlite, isDatabaseSync, type DatabaseSyncLike } from "./node-sqlite.js";

/** A `SqliteClient`, a better-sqlite3 `Database` or a node:sqlite `DatabaseSync`. */
export type SqliteDatabase = SqliteClient | BetterSqlite3Like | DatabaseSyncLike;

const EXPECTED = "expected a SqliteClient, a better-sqlite3 Database or a node:sqlite DatabaseSync.";

export function toSqliteClient(db: SqliteDatabase, caller: string): SqliteClient {
  if (typeof db !== "object" || db === null) throw new TypeError(`${caller}: ${EXPECTED}`);
  // Drivers prepare statements; a SqliteClient has no `prepare`. Of the drivers, only better-sqlite3 has `pragma`.
  if (isBetterSqlite3(db)) return fromBetterSqlite3(db);
  if (isDatabaseSync(db)) return fromNodeSqlite(db);
  if (isSqliteClient(db)) return db;
  throw new TypeError(`${caller}: ${EXPECTED}`);
}

function isSqliteClient(value: object): value is SqliteClient {
  const candidate = value as Partial<SqliteClient>;
  return typeof candidate.query === "function" && typeof candidate.exec === "function" && typeof candidate.transaction === "function";
}
