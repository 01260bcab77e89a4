/**
 * Accepting a raw driver object, or a function that opens one, where a
 * `SqliteClient` is expected. Detection is by shape, so no driver is imported:
 * the wrappers this picks load none either.
 */
import { fromBetterSqlite3, isBetterSqlite3, type BetterSqlite3Like } from "./better-sqlite3.js";
import { openOnce } from "../sql/open-once.js";
import type { SqliteClient, SqliteResult, SqliteValue } from "./client.js";
import { fromNodeSqlite, isDatabaseSync, type DatabaseSyncLike } from "./node-sqlite.js";

/** An open database: a `SqliteClient`, a better-sqlite3 `Database` or a node:sqlite `DatabaseSync`. */
export type SqliteDatabase = SqliteClient | BetterSqlite3Like | DatabaseSyncLike;

/**
 * A function that opens the database: called on first use, not before, so
 * importing the module that builds the adapter (as a bundler does to analyse
 * it) creates no database file. Called once; if it throws or rejects, the call
 * that needed it fails and the next call calls it again.
 */
export type SqliteConnect = () => SqliteDatabase | Promise<SqliteDatabase>;

const DATABASE = "a SqliteClient, a better-sqlite3 Database or a node:sqlite DatabaseSync";

export function toSqliteClient(db: SqliteDatabase | SqliteConnect, caller: string): SqliteClient {
  if (typeof db === "function") return lazy(db, caller);
  return fromDatabase(db, caller, `expected ${DATABASE}, or a function that returns one`);
}

function fromDatabase(db: SqliteDatabase, caller: string, expected: string): SqliteClient {
  if (typeof db !== "object" || db === null) throw new TypeError(`${caller}: ${expected}.`);
  // Drivers prepare statements; a SqliteClient has no `prepare`. Of the drivers, only better-sqlite3 has `pragma`.
  if (isBetterSqlite3(db)) return fromBetterSqlite3(db);
  if (isDatabaseSync(db)) return fromNodeSqlite(db);
  if (isSqliteClient(db)) return db;
  throw new TypeError(`${caller}: ${expected}.`);
}

function isSqliteClient(value: object): value is SqliteClient {
  const candidate = value as Partial<SqliteClient>;
  return typeof candidate.query === "function" && typeof candidate.exec === "function" && typeof candidate.transaction === "function";
}

/**
 * A `SqliteClient` that calls `connect` on its first query, exec or
 * transaction. The opened connection's own client does the rest (a driver's
 * connection has one client, so `migrate(connect)` and `SqliteAdapter(connect)`
 * returning the same connection share its transactions).
 */
function lazy(connect: SqliteConnect, caller: string): SqliteClient {
  const db = openOnce(connect, (database) => fromDatabase(database, caller, `expected the connect function to return ${DATABASE}`), caller);
  return {
    // Once open, calls go straight to the client, as if it had been given.
    query: <Row>(sql: string, params?: readonly SqliteValue[]): Promise<SqliteResult<Row>> =>
      db.current()?.query<Row>(sql, params) ?? db.get().then((c) => c.query<Row>(sql, params)),
    exec: (sql: string) => db.current()?.exec(sql) ?? db.get().then((c) => c.exec(sql)),
    transaction: <T>(fn: (tx: SqliteClient) => Promise<T>) => db.current()?.transaction(fn) ?? db.get().then((c) => c.transaction(fn)),
  };
}
