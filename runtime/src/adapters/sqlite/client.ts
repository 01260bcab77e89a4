/**
 * The one interface the SQLite adapter and the migrator talk to. Drivers are
 * wrapped into it (`fromBetterSqlite3`, `fromNodeSqlite`), so the adapter's SQL
 * is written once and runs on either, or on anything else that can run a
 * statement (an asynchronous driver can implement it directly).
 */

/** What SQLite stores and what a statement may bind: no `Date`, no boolean. */
export type SqliteValue = string | number | bigint | Uint8Array | null;

/** Rows of one statement. */
export interface SqliteResult<Row> {
  rows: Row[];
}

/**
 * A SQLite connection, reduced to what the adapter needs.
 *
 * The wrappers run every statement of a transaction, and nothing else, on the
 * connection while the transaction is open: other calls wait for it to end (so
 * inside a transaction, use its `tx`: a call on the client itself would wait
 * for the very transaction it is part of).
 */
export interface SqliteClient {
  /**
   * Runs ONE statement with `?` placeholders bound in order. The rows are what
   * it returns: a SELECT's, or a RETURNING clause's; none otherwise. (For a
   * text of several statements use `exec`: better-sqlite3 refuses one here,
   * node:sqlite would run only the first.)
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqliteValue[]): Promise<SqliteResult<Row>>;
  /** Runs a script of several statements, without parameters or rows (migrations need it). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a write transaction (BEGIN IMMEDIATE: SQLite has one writer,
   * and this takes its lock up front): committed when `fn` resolves, rolled
   * back when it throws. Every statement of the transaction goes through `tx`;
   * a nested `tx.transaction()` is a savepoint.
   */
  transaction<T>(fn: (tx: SqliteClient) => Promise<T>): Promise<T>;
}
