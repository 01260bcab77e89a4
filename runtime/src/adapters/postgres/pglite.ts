/**
 * `fromPGlite`: a PGlite database (PostgreSQL in WebAssembly) as a `SqlClient`.
 *
 * Nothing here imports `@electric-sql/pglite`: the shapes below are what this
 * module calls, and a real `PGlite` fits them, so loading this module loads no
 * driver and its types need none installed.
 */
import { inTransaction, type SqlClient, type SqlResult } from "./client.js";
import { statementName } from "./statement-name.js";
import { closeMessage, concat, executeMessages, parseMessage, rowsOf, type BackendMessage, type TypeParser } from "./wire.js";

/** The part of PGlite's `Transaction` this module uses. */
export interface PGliteTransactionLike {
  query<T>(query: string, params?: unknown[], options?: { paramTypes?: number[] }): Promise<SqlResult<T>>;
  exec(query: string): Promise<SqlResult<unknown>[]>;
}

/** The part of a `PGlite` instance this module uses. */
export interface PGliteLike extends PGliteTransactionLike {
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  readonly waitReady: Promise<void>;
  /** The wire protocol, for prepared statements. */
  execProtocol?(message: Uint8Array): Promise<{ messages: BackendMessage[] }>;
  /**
   * The two locks PGlite's own `query` takes (waiting for an open transaction,
   * then for a running query): the protocol itself takes neither. Private, and
   * used on purpose: PGlite's public `runExclusive` takes only the second, so a
   * statement sent through it while another caller's transaction is open (between
   * that transaction's queries) would run inside that transaction. Without both
   * methods (another PGlite version, a worker proxy), queries take PGlite's public
   * `query` instead: correct, only slower. Measured on the bench's session GET
   * (PGlite 0.5, issue 22): public `query` (no named statements) serves about
   * half the requests per second (1.9x slower one at a time, 2.1x at 64 in
   * flight); named statements through public calls only (`transaction()` for
   * the first lock, `runExclusive()` for the second) pay BEGIN and COMMIT on
   * every read: 1.4x slower, 1.6x in flight. `npm run bench` measures the first
   * again on every run ("Why fromPGlite takes PGlite's private locks").
   */
  _runExclusiveTransaction?<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery?<T>(fn: () => Promise<T>): Promise<T>;
  /** PGlite's parsers by type OID (its defaults and the app's `parsers` option). */
  readonly parsers?: Readonly<Record<number, TypeParser>>;
}

export interface FromPGliteOptions {
  /**
   * Run queries with parameters as named prepared statements, parsed and planned
   * once (the session read of every request gets about four times faster).
   * Default `true`.
   */
  preparedStatements?: boolean;
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
export function fromPGlite(db: PGliteLike, options: FromPGliteOptions = {}): SqlClient {
  const prepared = options.preparedStatements !== false ? preparedRunner(db) : undefined;
  return {
    query: (text, params) => (prepared && params !== undefined ? prepared(text, params) : run(db, text, params)),
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

/** Names prepared on each PGlite: it is one connection, shared by every wrapper of it. */
const preparedOn = new WeakMap<PGliteLike, Set<string>>();

/**
 * Queries as named prepared statements through PGlite's wire protocol, as
 * node-postgres runs them on a server: the first run of a text parses it under
 * a name derived from the text, later runs only bind and execute. Inside a
 * transaction (`tx.query`) queries go the ordinary way.
 */
function preparedRunner(db: PGliteLike): (<Row>(text: string, params: unknown[]) => Promise<SqlResult<Row>>) | undefined {
  // A PGlite without these (another version, a worker proxy) gets ordinary queries.
  if (typeof db.execProtocol !== "function" || typeof db._runExclusiveTransaction !== "function" || typeof db._runExclusiveQuery !== "function") {
    return undefined;
  }
  let names = preparedOn.get(db);
  if (!names) preparedOn.set(db, (names = new Set()));
  const prepared = names;
  // As PGlite's query does: wait for an open transaction to end, then for the running query.
  const exchange = (bytes: Uint8Array) => db._runExclusiveTransaction!(() => db._runExclusiveQuery!(() => db.execProtocol!(bytes)));
  return async <Row>(text: string, params: unknown[]) => {
    const name = statementName(text);
    const values = params.map(asText);
    const parse = () => parseMessage(name, text, values.length);
    const send = (...first: Uint8Array[]) => exchange(concat([...first, executeMessages(name, values)]));
    let first = prepared.has(name) ? [] : [parse()];
    // Calls that overlap each decide from the same knowledge: the second of two parses, or of two
    // re-parses after a DEALLOCATE, finds the statement there already. A few rounds settle it.
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await send(...first);
        prepared.add(name);
        return { rows: rowsOf<Row>(answer.messages, db.parsers ?? {}) };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt === 3) throw error;
        // The app deallocated it (DEALLOCATE ALL, DISCARD ALL): parse it again.
        if (code === "26000") first = [parse()];
        // Parsed already (by an overlapping call, or an earlier one whose Bind failed): only bind.
        else if (code === "42P05") first = [];
        // "cached plan must not change result type": a migration altered a table since: parse it anew.
        else if (code === "0A000") first = [closeMessage(name), parse()];
        else throw error;
      }
    }
  };
}
