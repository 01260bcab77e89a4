/**
 * `fromPGlite`: a PGlite database (PostgreSQL in WebAssembly) as a `SqlClient`.
 *
 * Nothing here imports `@electric-sql/pglite`: the shapes below are what this
 * module calls, and a real `PGlite` fits them, so loading this module loads no
 * driver and its types need none installed.
 */
import { inTransaction, type SqlClient, type SqlResult } from "./client.js";

/** The part of PGlite's `Transaction` this module uses. */
export interface PGliteTransactionLike {
  query<T>(query: string, params?: unknown[], options?: { paramTypes?: number[] }): Promise<SqlResult<T>>;
  exec(query: string): Promise<SqlResult<unknown>[]>;
}

/** The part of a `PGlite` instance this module uses. */
export interface PGliteLike extends PGliteTransactionLike {
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  readonly waitReady: Promise<void>;
}

/**
 * Wraps a PGlite instance. PGlite is one connection: its own `transaction`
 * makes other queries wait while one is open, and this wrapper uses it.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const db = fromPGlite(new PGlite("./data/auth"));
 * await migrate(db);
 * const adapter = PostgresAdapter(db);
 * ```
 */
export function fromPGlite(db: PGliteLike): SqlClient {
  return {
    query: (text, params) => run(db, text, params),
    transaction: (fn) => db.transaction((tx) => fn(inTransaction((text, params) => run(tx, text, params)))),
  };
}

/** PGlite has `waitReady`; a pg Pool or a plain `SqlClient` has not. */
export function isPGlite(value: object): value is PGliteLike {
  const candidate = value as Partial<PGliteLike>;
  return (
    "waitReady" in value &&
    typeof candidate.query === "function" &&
    typeof candidate.exec === "function" &&
    typeof candidate.transaction === "function"
  );
}

async function run<Row>(db: PGliteTransactionLike, text: string, params?: unknown[]): Promise<SqlResult<Row>> {
  // PGlite's `query` takes one statement (extended protocol); `exec` takes several.
  if (params === undefined) {
    const results = await db.exec(text);
    return { rows: (results[results.length - 1]?.rows ?? []) as Row[] };
  }
  // Without `paramTypes` PGlite first asks the server for them (a describe round
  // trip that doubles the cost of a query). Like node-postgres, send every value
  // as text of type "unknown" (OID 0) and let the server infer from the statement.
  const values = params.map(asText);
  return { rows: (await db.query<Row>(text, values, { paramTypes: values.map(() => 0) })).rows };
}

/** A parameter as the text PostgreSQL parses for any column type. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
