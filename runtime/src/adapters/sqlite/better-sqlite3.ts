/**
 * `fromBetterSqlite3`: a better-sqlite3 `Database` as a `SqliteClient`.
 *
 * Nothing here imports `better-sqlite3`: the shapes below are what this module
 * calls, and a real `Database` fits them, so loading this module loads no
 * native driver and its types need none installed.
 */
import type { SqliteClient, SqliteValue } from "./client.js";
import { fromSyncDriver } from "./sync.js";

/** The part of a better-sqlite3 `Statement` this module uses. */
export interface BetterSqlite3StatementLike {
  /** Whether the statement returns rows (a SELECT, a PRAGMA, a write with RETURNING). */
  readonly reader: boolean;
  all(...params: SqliteValue[]): unknown[];
  run(...params: SqliteValue[]): unknown;
}

/** The part of a better-sqlite3 `Database` this module uses. */
export interface BetterSqlite3Like {
  prepare(sql: string): BetterSqlite3StatementLike;
  exec(sql: string): unknown;
  /** Not called; only better-sqlite3 has it, so it tells the driver apart from node:sqlite. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

// One client per connection: the client tracks the connection's open
// transaction, so `migrate(db)` and `SqliteAdapter(db)` on the same Database
// must share it.
const clients = new WeakMap<BetterSqlite3Like, SqliteClient>();

/**
 * Wraps a better-sqlite3 `Database` (turning its foreign keys on: SQLite has them
 * off on every new connection). Its calls are synchronous; the client's are
 * asynchronous, and while a transaction is open other calls wait for it.
 * Wrapping the same Database twice gives the same client.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * const db = fromBetterSqlite3(new Database("./data/auth.db"));
 * await migrate(db);
 * const adapter = SqliteAdapter(db);
 * ```
 */
export function fromBetterSqlite3(db: BetterSqlite3Like): SqliteClient {
  let client = clients.get(db);
  if (!client) {
    client = fromSyncDriver({
      all(sql, params) {
        const statement = db.prepare(sql);
        // `all()` refuses a statement that returns no rows (an INSERT without RETURNING).
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      },
      exec: (sql) => void db.exec(sql),
      // better-sqlite3's SqliteError carries SQLite's code name, extended codes included (SQLITE_BUSY_SNAPSHOT).
      isBusy: (error) => typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("SQLITE_BUSY"),
    });
    clients.set(db, client);
  }
  return client;
}

/** better-sqlite3 has `pragma()`; node:sqlite's DatabaseSync and a `SqliteClient` have not. */
export function isBetterSqlite3(value: object): value is BetterSqlite3Like {
  const candidate = value as Partial<BetterSqlite3Like>;
  return typeof candidate.prepare === "function" && typeof candidate.exec === "function" && typeof candidate.pragma === "function";
}
