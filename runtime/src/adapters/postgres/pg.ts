/**
 * `fromPg`: a node-postgres (`pg`) Pool or Client as a `SqlClient`.
 *
 * Nothing here imports `pg`: the shapes below are what this module calls, and a
 * real `pg.Pool`, `pg.Client` or `pg.PoolClient` fits them. So this module costs
 * nothing to load, and its types do not pull Node's types into your program.
 */
import { inTransaction, type SqlClient, type SqlResult } from "./client.js";
import { boundToFirstRequest, onWorkerd } from "./request-bound.js";
import { isStalePlan, renameStatement, statementName } from "./statement-name.js";

export { CrossRequestConnectionError } from "./request-bound.js";

/** What `pg` answers: one result, or one per statement for a multi-statement text. */
type PgAnswer = SqlResult<unknown> | SqlResult<unknown>[];

/** A named query: pg prepares it once per connection and reuses the plan. */
export interface PgNamedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/** The part of a `pg.Client` or `pg.PoolClient` this module uses. */
export interface PgConnectionLike {
  query(text: string, values?: unknown[]): Promise<PgAnswer>;
  query(query: PgNamedQuery): Promise<PgAnswer>;
}

export interface FromPgOptions {
  /**
   * Send queries with parameters as named prepared statements, parsed and
   * planned once per connection (the session read gets about twice as fast).
   * Default `true`; set `false` behind a pooler in transaction mode that cannot
   * keep prepared statements (PgBouncer before 1.21).
   */
  preparedStatements?: boolean;
}

/** A connection checked out of a pool (`pg.PoolClient`). */
export interface PgPoolClientLike extends PgConnectionLike {
  release(err?: Error | boolean): void;
  /** A `pg.PoolClient` is an EventEmitter; a lost connection emits `"error"` on it. */
  on?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
}

/** The part of a `pg.Pool` this module uses. */
export interface PgPoolLike extends PgConnectionLike {
  connect(): Promise<PgPoolClientLike>;
  readonly totalCount: number;
  readonly idleCount: number;
}

/**
 * Wraps a `pg.Pool` (recommended) or a connected `pg.Client`.
 *
 * With a Pool, a transaction runs on a connection checked out for it and always
 * released (destroyed instead of reused if even ROLLBACK failed). With a single
 * Client, transactions take turns and other queries wait while one is open, so
 * nothing unrelated runs inside it.
 *
 * On Cloudflare Workers (workerd, with `nodejs_compat`) a connection serves only
 * the request that opened it: make the pool inside the request handler. A
 * client used in a later request throws `CrossRequestConnectionError` where
 * `pg` would wait forever.
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const db = fromPg(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * await migrate(db);
 * const adapter = PostgresAdapter(db);
 * ```
 */
export function fromPg(pool: PgPoolLike | PgConnectionLike, options: FromPgOptions = {}): SqlClient {
  const prepared = options.preparedStatements ?? true;
  const client = isPool(pool) ? fromPool(pool, prepared) : fromConnection(pool, prepared);
  return onWorkerd() ? boundToFirstRequest(client) : client;
}

/** A `pg.Pool` has pool counters; a Client or PoolClient has none. */
export function isPool(value: PgPoolLike | PgConnectionLike): value is PgPoolLike {
  return "idleCount" in value && "totalCount" in value && typeof (value as PgPoolLike).connect === "function";
}

function fromPool(pool: PgPoolLike, prepared: boolean): SqlClient {
  return {
    query: (text, params) => run(pool, text, params, prepared, true),
    async transaction(fn) {
      const connection = await pool.connect();
      let broken: Error | undefined;
      // The pool listens for a client's "error" only while it is idle: a connection lost while
      // checked out (the database going away mid-transaction) would be an uncaught exception that
      // ends the process. The query in flight rejects anyway; the listener marks the client broken.
      const onError = (error: Error) => void (broken ??= error);
      connection.on?.("error", onError);
      try {
        await connection.query("BEGIN");
        const result = await fn(inTransaction((text, params) => run(connection, text, params, prepared)));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        await connection.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        connection.removeListener?.("error", onError);
        connection.release(broken);
      }
    },
  };
}

function fromConnection(connection: PgConnectionLike, prepared: boolean): SqlClient {
  // pg sends a connection's queries in call order. While a transaction is open
  // (`open` is set), other queries wait for it to end instead of joining it.
  let open: Promise<void> | undefined;

  async function query<Row>(text: string, params?: unknown[]): Promise<SqlResult<Row>> {
    while (open) await open;
    return run<Row>(connection, text, params, prepared, true);
  }

  return {
    query,
    async transaction(fn) {
      while (open) await open;
      let end!: () => void;
      open = new Promise((resolve) => (end = resolve));
      try {
        // Sent in the same tick `open` was set: anything sent earlier ran before BEGIN.
        await connection.query("BEGIN");
        try {
          const result = await fn(inTransaction((text, params) => run(connection, text, params, prepared)));
          await connection.query("COMMIT");
          return result;
        } catch (error) {
          await connection.query("ROLLBACK").catch(() => {});
          throw error;
        }
      } finally {
        open = undefined;
        end();
      }
    },
  };
}

/**
 * Runs one query; `retry`: outside a transaction, where a failed statement can
 * simply be sent again. Promise chains, not async functions: the session read
 * runs this on every request.
 */
function run<Row>(
  connection: PgConnectionLike,
  text: string,
  params: unknown[] | undefined,
  prepared: boolean,
  retry = false,
): Promise<SqlResult<Row>> {
  try {
    const answer =
      params === undefined
        ? connection.query(text)
        : prepared
          ? preparedQuery(connection, text, params, retry)
          : connection.query(text, params);
    return answer.then(rowsOf<Row>);
  } catch (error) {
    // A client that throws at once: rejected all the same, as an async function would.
    return Promise.reject(error);
  }
}

function rowsOf<Row>(answer: PgAnswer): SqlResult<Row> {
  // A text of several statements answers one result per statement: keep the last one's rows.
  const result = Array.isArray(answer) ? answer[answer.length - 1] : answer;
  return { rows: (result?.rows ?? []) as Row[] };
}

/**
 * A named prepared statement. After a migration added a column to a table it
 * reads whole, PostgreSQL refuses the plan cached under its name (on every
 * connection that prepared it): the text gets a new name, parsed afresh where
 * it runs next, and (outside a transaction, which the error has aborted) is
 * sent again at once. A sign-in must not fail until a restart because the app
 * ran `ALTER TABLE users ADD COLUMN role text`.
 */
function preparedQuery(connection: PgConnectionLike, text: string, params: unknown[], retry: boolean): Promise<PgAnswer> {
  return connection.query({ name: statementName(text), text, values: params }).catch((error: unknown) => {
    if (!isStalePlan(error)) throw error;
    renameStatement(text);
    if (!retry) throw error;
    return connection.query({ name: statementName(text), text, values: params });
  });
}
