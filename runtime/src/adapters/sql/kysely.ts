/**
 * What the `fromKysely` wrappers (PostgreSQL and SQLite) share: the part of a
 * Kysely instance they call, and running one SQL text through it.
 *
 * Nothing here imports `kysely`: the shapes below are what the wrappers call,
 * and a `Kysely<DB>` (or a `Transaction<DB>`) fits them. The query handed to
 * `executeQuery` is the object Kysely's own `CompiledQuery.raw(sql, parameters)`
 * builds: Kysely passes its text and parameters to the dialect's driver as they
 * are, without compiling anything.
 */

/** The object `CompiledQuery.raw(sql, parameters)` returns in Kysely 0.27 to 0.29. */
export interface KyselyRawQuery {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly query: { readonly kind: "RawNode"; readonly sqlFragments: readonly string[]; readonly parameters: readonly never[] };
  readonly queryId: { readonly queryId: string };
}

/** A Kysely instance, or a connection or transaction of one: anything that runs a compiled query. */
export interface KyselyQueryable {
  executeQuery(query: KyselyRawQuery): Promise<{ rows: unknown[] }>;
}

/** A callback's scope, as Kysely's `transaction()` and `connection()` builders run it. */
export interface KyselyScopeBuilder {
  execute<T>(callback: (scope: KyselyQueryable) => Promise<T>): Promise<T>;
}

/** The part of a `Kysely<DB>` (or a `Transaction<DB>`) the wrappers use. */
export interface KyselyLike extends KyselyQueryable {
  /** The same database without the app's plugins (a `CamelCasePlugin` would rename the columns of our rows). */
  withoutPlugins(): KyselyLike;
  /** True on a `Transaction`, whose `transaction()` and `connection()` throw. */
  readonly isTransaction: boolean;
  /** Runs the callback in a transaction on a connection reserved for it. */
  transaction(): KyselyScopeBuilder;
  /** Runs the callback on a connection reserved for it (SQLite's only connection, which others then wait for). */
  connection(): KyselyScopeBuilder;
}

let queries = 0;

/** `CompiledQuery.raw(sql, parameters)`, as Kysely builds it. */
export function rawQuery(sql: string, parameters: readonly unknown[]): KyselyRawQuery {
  return {
    sql,
    parameters,
    query: { kind: "RawNode", sqlFragments: [sql], parameters: [] },
    // Kysely's ids are random strings; it uses them to tell queries apart (plugins, cancelling), never parses them.
    queryId: { queryId: `gatehouse-${++queries}` },
  };
}

/** Runs one text through Kysely; its rows as Kysely's driver returns them. */
export async function runRaw<Row>(db: KyselyQueryable, sql: string, parameters: readonly unknown[], dialect: string): Promise<Row[]> {
  try {
    return (await db.executeQuery(rawQuery(sql, parameters))).rows as Row[];
  } catch (error) {
    throw severalStatementsRefused(error) ? severalStatementsError(dialect, error) : error;
  }
}

/**
 * better-sqlite3 ("contains more than one statement") and PGlite ("cannot
 * insert multiple commands into a prepared statement") prepare every query
 * Kysely sends, and a prepared statement is one statement.
 */
function severalStatementsRefused(error: unknown): boolean {
  return error instanceof Error && /more than one statement|multiple commands/i.test(error.message);
}

function severalStatementsError(dialect: string, cause: unknown): Error {
  return new Error(
    `fromKysely: this Kysely ${dialect} dialect runs one statement per query, and the text holds several (a migration?). ` +
      `Run migrate() on the driver's own connection (the one given to the dialect), or create the auth tables with Kysely's ` +
      `Migrator (node_modules/@gatehouse/runtime/migrations/ has their SQL) and check them with requireSchema(fromKysely(db), { ledger: false }). ` +
      `The driver said: ${(cause as Error).message}`,
    { cause },
  );
}
