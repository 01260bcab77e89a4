/**
 * `fromPostgresJs`: a postgres.js (`postgres`) client as a `SqlClient`, the
 * driver `sv add drizzle` sets up for PostgreSQL, so the adapter can run on
 * the app's own connection.
 *
 * Nothing here imports `postgres`: the shapes below are what this module calls,
 * and the `sql` function `postgres(url)` returns fits them.
 */
import type { SqlClient, SqlResult } from "./client.js";

/** A pending postgres.js query: awaited for its rows; `.simple()` sends it unprepared, which a text of several statements needs. */
export interface PostgresJsQueryLike extends PromiseLike<unknown> {
  simple(): PromiseLike<unknown>;
}

/** The part of postgres.js's `sql` (and of a transaction's) this module uses. */
export interface PostgresJsQueryable {
  unsafe(query: string, parameters?: never[]): PostgresJsQueryLike;
}

export interface PostgresJsTransactionLike extends PostgresJsQueryable {
  savepoint<T>(cb: (sql: PostgresJsTransactionLike) => Promise<T>): Promise<T>;
}

/** postgres.js's `sql`: a function (the tagged template) with these methods. */
export interface PostgresJsSqlLike extends PostgresJsQueryable {
  begin<T>(cb: (sql: PostgresJsTransactionLike) => Promise<T>): Promise<T>;
}

/**
 * A parameter every postgres.js client can send: a Date as its ISO text, which
 * PostgreSQL reads as the same instant. Drizzle's `drizzle(client)` takes
 * postgres.js's serializers of dates off the client it is given (Drizzle maps
 * dates itself), and `db.$client` is that client: a Date sent as is would be
 * refused there. (The dates read back come as text then; the adapter parses both.)
 */
function portable(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Wraps postgres.js's `sql`. Queries with parameters are prepared once per
 * connection (postgres.js's default); a text without parameters may hold
 * several statements (migrations), sent with the simple protocol. A
 * transaction runs on a connection postgres.js reserves for it; a nested one
 * is a savepoint.
 *
 * @example
 * ```ts
 * import postgres from "postgres";
 * import { fromPostgresJs } from "@gatehouse/runtime/adapters/postgres/postgres-js";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const db = fromPostgresJs(postgres(process.env.DATABASE_URL!));
 * await migrate(db);
 * const adapter = PostgresAdapter(db);
 * ```
 */
export function fromPostgresJs(sql: PostgresJsSqlLike): SqlClient {
  return {
    query: (text, params) => run(sql, text, params),
    transaction: (fn) => sql.begin((tx) => fn(inPostgresJsTransaction(tx))),
  };
}

function inPostgresJsTransaction(tx: PostgresJsTransactionLike): SqlClient {
  return {
    query: (text, params) => run(tx, text, params),
    transaction: (fn) => tx.savepoint((savepoint) => fn(inPostgresJsTransaction(savepoint))),
  };
}

async function run<Row>(sql: PostgresJsQueryable, text: string, params: unknown[] | undefined): Promise<SqlResult<Row>> {
  const query = sql.unsafe(text, (params ?? []).map(portable) as never[]);
  const result = (await (params && params.length > 0 ? query : query.simple())) as unknown[];
  // Several statements answer one result each (arrays of rows): the rows are the last one's.
  const rows = result.length > 0 && Array.isArray(result[0]) ? (result.at(-1) as unknown[]) : result;
  return { rows: [...rows] as Row[] };
}
