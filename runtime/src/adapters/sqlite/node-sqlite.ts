/**
 * `fromNodeSqlite`: a `DatabaseSync` of Node's built-in `node:sqlite` (Node >= 22.5)
 * as a `SqliteClient`.
 *
 * Nothing here imports `node:sqlite`: the shapes below are what this module
 * calls, and a real `DatabaseSync` fits them, so this module loads on any
 * runtime and its types need no Node types.
 */
import type { SqliteClient, SqliteValue } from "./client.js";
import { fromSyncDriver } from "./sync.js";

/** The part of a node:sqlite `StatementSync` this module uses. */
export interface NodeSqliteStatementLike {
  /** Runs the statement; its rows, or [] for a statement that returns none. */
  all(...params: SqliteValue[]): unknown[];
}

/** The part of a node:sqlite `DatabaseSync` this module uses. */
export interface DatabaseSyncLike {
  prepare(sql: string): NodeSqliteStatementLike;
  exec(sql: string): void;
}

/**
 * better-sqlite3's default busy timeout. node:sqlite's is 0: a write while
 * another process holds the lock fails at once with "database is locked".
 */
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

// One client per connection: the client tracks the connection's open
// transaction, so `migrate(db)` and `SqliteAdapter(db)` on the same database
// must share it.
const clients = new WeakMap<DatabaseSyncLike, SqliteClient>();

/**
 * Wraps a `DatabaseSync` (turning its foreign keys on, as SQLite has them off
 * on a new connection unless node:sqlite's `enableForeignKeyConstraints` did).
 * A busy timeout of 0, node:sqlite's default, becomes 5000 ms, better-sqlite3's
 * default; open the database with another `timeout` to choose yours. Wrapping
 * the same database twice gives the same client.
 *
 * @example
 * ```ts
 * import { fromNodeSqlite } from "@gatehouse/runtime/adapters/sqlite/node-sqlite";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * // Built in from Node 22.5 (a static import of "node:sqlite" works as well).
 * const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
 * const db = fromNodeSqlite(new DatabaseSync("./data/auth.db"));
 * await migrate(db);
 * const adapter = SqliteAdapter(db);
 * ```
 */
export function fromNodeSqlite(db: DatabaseSyncLike): SqliteClient {
  let client = clients.get(db);
  if (!client) {
    const [row] = db.prepare("PRAGMA busy_timeout").all() as { timeout?: unknown }[];
    if (Number(row?.timeout) === 0) db.exec(`PRAGMA busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
    client = fromSyncDriver({
      // Rows come with a null prototype; copied into plain objects like other drivers'.
      all: (sql, params) => db.prepare(sql).all(...params).map((row) => ({ ...(row as Record<string, unknown>) })),
      exec: (sql) => db.exec(sql),
      isBusy,
    });
    clients.set(db, client);
  }
  return client;
}

/** A DatabaseSync has `prepare` and `exec`; better-sqlite3 also has `pragma` (test for it first). */
export function isDatabaseSync(value: object): value is DatabaseSyncLike {
  const candidate = value as Partial<DatabaseSyncLike>;
  return typeof candidate.prepare === "function" && typeof candidate.exec === "function";
}

/**
 * node:sqlite's errors have code ERR_SQLITE_ERROR and SQLite's (extended) result
 * code in `errcode`; SQLITE_BUSY is 5. The first releases had only the message.
 */
function isBusy(error: unknown): boolean {
  const { errcode, message } = error as { errcode?: unknown; message?: unknown };
  if (typeof errcode === "number") return (errcode & 0xff) === 5;
  return typeof message === "string" && message.includes("database is locked");
}
