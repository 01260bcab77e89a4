/**
 * What the SQL adapter core (`adapter.ts`) asks of a dialect: the PostgreSQL
 * adapter (pg, PGlite, postgres.js), the SQLite adapter and the hosted store's
 * are one adapter that differs only in these answers. The statements are the
 * core's; a dialect says how a placeholder, a date, a boolean and "now" are
 * written, how a row comes back, and where the schema's tables and columns
 * are (`SqlNaming`). A transaction is the driver wrapper's own
 * (`SqlDb.transaction`): every wrapper already runs one on its driver.
 */
import type { Column, Table } from "../../schema/model.js";

/**
 * One statement with its parameters, and its rows: a client's or a
 * transaction's. `Value` is what the driver binds beyond text, numbers and
 * NULL (`unknown` for PostgreSQL's, which take dates and booleans too).
 */
export interface SqlQuery<Value> {
  query<Row>(sql: string, params: (string | number | null | Value)[]): Promise<{ rows: Row[] }>;
}

/**
 * A driver wrapper, as the core uses it (`SqlClient` of the PostgreSQL
 * adapter, `SqliteClient` of the SQLite adapter): statements, and transactions
 * whose statements go through their `tx` (a nested one is a savepoint).
 */
export interface SqlDb<Value> extends SqlQuery<Value> {
  transaction<T>(fn: (tx: SqlQuery<Value>) => Promise<T>): Promise<T>;
}

/**
 * Where the schema's tables and columns are in a database: the same names as
 * the model's (PostgreSQL, SQLite), or the hosted store's svc_ records (other
 * table names in a branch's schema, `"user"` for `userId`, the record's
 * `created_at` for a `createdAt`).
 */
export interface SqlNaming {
  /** The table as a statement names it (quoted, schema-qualified where it must be). */
  table(table: Table): string;
  /** The column's name in the database (unquoted). */
  column(table: Table, column: Column): string;
  /** The join record written beside each new row (hosted store: accounts, sessions), and its field naming the row. */
  join(table: Table): { table: string; field: string } | undefined;
  /** Columns every record has that are not the model's (the hosted store's bookkeeping): never returned. */
  recordColumns: readonly string[];
}

export interface SqlDialect<Value> {
  /** Where the tables are. */
  naming: SqlNaming;
  /** The n-th placeholder (from 1): `$n`, or `?` where they bind in order of appearance (statements number them so). */
  placeholder(n: number): string;
  /** Values in: a date and a boolean as a statement binds them. `field` names the date in an error. */
  encode: {
    date(date: Date, field: string): Value;
    boolean(value: boolean): Value;
  };
  /** Values out: a date and a boolean column as the driver returns them, as the contract's. */
  decode: {
    date(value: unknown): Date;
    boolean(value: unknown): boolean;
    /** A row read whole (users, sessions), as the app gets it: e.g. SQLite's BigInt integers as numbers. */
    row?(row: Record<string, unknown>): Record<string, unknown>;
  };
  /** The database's current time, as a timestamp column stores it. */
  now: string;
  /** `a <this> b` is true when both are NULL or equal. */
  nullSafeEquals: string;
  /** What makes an ascending ORDER BY put NULLs first (empty where they come first anyway). */
  nullsFirst: string;
  /**
   * The row of table alias `alias` as one JSON value (`to_jsonb(s)`), so that
   * `getSessionAndUser` reads the session and its user in one statement; `null`
   * where there is none (SQLite), and it reads them one after the other.
   */
  rowAsJson: ((alias: string) => string) | null;
  /** The error of a method that must change an existing row and found none. */
  notFound(message: string): Error;
}

/** The model's names unchanged: the PostgreSQL and SQLite schemas. */
export const MODEL_NAMING: SqlNaming = {
  table: (table) => quote(table.name),
  column: (_table, column) => column.name,
  join: () => undefined,
  recordColumns: [],
};

/** Lowercase names that are keywords too, so quoted as identifiers (the hosted store's `"user"` field). */
const KEYWORDS = new Set(["user"]);

/** An identifier as a statement writes it: bare where PostgreSQL and SQLite read it as is (`users`), else quoted (`"userId"`). */
export function quote(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
