/**
 * Accepting a raw driver object where a `SqlClient` is expected. Detection is by
 * shape, so no driver is imported: the wrappers this picks load none either.
 */
import type { SqlClient } from "./client.js";
import { fromPg, type PgConnectionLike, type PgPoolLike } from "./pg.js";
import { fromPGlite, isPGlite, type PGliteLike } from "./pglite.js";

/** A `SqlClient`, a `pg.Pool`, a connected `pg.Client` or a `PGlite` instance. */
export type PostgresClient = SqlClient | PgPoolLike | PgConnectionLike | PGliteLike;

export function toSqlClient(client: PostgresClient, caller: string): SqlClient {
  if (typeof client !== "object" || client === null || typeof client.query !== "function") {
    throw new TypeError(`${caller}: expected a SqlClient, a pg Pool or Client, or a PGlite instance.`);
  }
  if (isPGlite(client)) return fromPGlite(client);
  // A pg Pool or Client connects; a SqlClient (which may wrap either) has transaction() instead.
  if ("connect" in client && typeof client.connect === "function") return fromPg(client);
  if ("transaction" in client && typeof client.transaction === "function") return client as SqlClient;
  throw new TypeError(`${caller}: expected a SqlClient, a pg Pool or Client, or a PGlite instance.`);
}
