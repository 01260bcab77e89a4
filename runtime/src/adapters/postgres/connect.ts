/**
 * Accepting a raw driver object, or a function that opens one, where a
 * `SqlClient` is expected. Detection is by shape, so no driver is imported: the
 * wrappers this picks load none either.
 */
import { openOnce } from "../sql/open-once.js";
import type { SqlClient } from "./client.js";
import { fromPg, type PgConnectionLike, type PgPoolLike } from "./pg.js";
import { fromPGlite, isPGlite, type PGliteLike } from "./pglite.js";
import { fromPostgresJs, type PostgresJsSqlLike } from "./postgres-js.js";

/** An open database: a `SqlClient`, a `pg.Pool`, a connected `pg.Client`, a `PGlite` instance or postgres.js's `sql`. */
export type PostgresDatabase = SqlClient | PgPoolLike | PgConnectionLike | PGliteLike | PostgresJsSqlLike;

/**
 * A function that opens the database: called on first use, not before, so
 * importing the module that builds the adapter (as a bundler does to analyse
 * it) opens nothing. Called once; if it throws or rejects, the call that needed
 * it fails and the next call calls it again.
 */
export type PostgresConnect = () => PostgresDatabase | Promise<PostgresDatabase>;

/** An open database (`PostgresDatabase`) or a function that opens one (`PostgresConnect`). */
export type PostgresClient = PostgresDatabase | PostgresConnect;

const DATABASE = "a SqlClient, a pg Pool or Client, a PGlite instance or postgres.js's sql";

export function toSqlClient(client: PostgresClient, caller: string): SqlClient {
  // postgres.js's sql is a function too: told apart from a connect function by its methods.
  if (isPostgresJs(client)) return fromPostgresJs(client);
  if (typeof client === "function") return lazy(client as PostgresConnect, caller);
  return fromDatabase(client, caller, `expected ${DATABASE}, or a function that returns one`);
}

/** postgres.js's `sql`: callable, with `unsafe` and `begin` (pg and PGlite objects are not functions). */
function isPostgresJs(value: unknown): value is PostgresJsSqlLike {
  return typeof value === "function" && typeof (value as Partial<PostgresJsSqlLike>).unsafe === "function" && typeof (value as Partial<PostgresJsSqlLike>).begin === "function";
}

function fromDatabase(client: PostgresDatabase, caller: string, expected: string): SqlClient {
  if (isPostgresJs(client)) return fromPostgresJs(client);
  if (typeof client !== "object" || client === null || typeof client.query !== "function") {
    throw new TypeError(`${caller}: ${expected}.`);
  }
  if (isPGlite(client)) return fromPGlite(client);
  // A pg Pool or Client connects; a SqlClient (which may wrap either) has transaction() instead.
  if ("connect" in client && typeof client.connect === "function") return fromPg(client);
  if ("transaction" in client && typeof client.transaction === "function") return client as SqlClient;
  throw new TypeError(`${caller}: ${expected}.`);
}

/** A `SqlClient` that calls `connect` on its first query or transaction. */
function lazy(connect: PostgresConnect, caller: string): SqlClient {
  const db = openOnce(connect, (database) => fromDatabase(database, caller, `expected the connect function to return ${DATABASE}`), caller);
  return {
    // Once open, calls go straight to the client, as if it had been given.
    query: <Row>(text: string, params?: unknown[]) => db.current()?.query<Row>(text, params) ?? db.get().then((c) => c.query<Row>(text, params)),
    transaction: <T>(fn: (tx: SqlClient) => Promise<T>) => db.current()?.transaction(fn) ?? db.get().then((c) => c.transaction(fn)),
  };
}
