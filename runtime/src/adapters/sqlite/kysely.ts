/**
 * `fromKysely`: a Kysely instance on SQLite as a `SqliteClient`, so the adapter
 * runs on the app's own Kysely when the app keeps only that:
 * `new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(file) }) })`.
 *
 * Nothing here imports `kysely` (see `../sql/kysely.ts`).
 */
import { runRaw, type KyselyLike, type KyselyQueryable } from "../sql/kysely.js";
import type { SqliteClient, SqliteResult, SqliteValue } from "./client.js";

export type { KyselyLike, KyselyQueryable, KyselyRawQuery, KyselyScopeBuilder } from "../sql/kysely.js";

/**
 * Wraps a `Kysely<DB>` on SQLite, turning its foreign keys on (SQLite has them
 * off on every new connection, and then deleting a user would keep its
 * sessions) before the first statement. Queries go through `db.executeQuery`
 * with the text and parameters as they are, without the app's plugins.
 *
 * A transaction is BEGIN IMMEDIATE (as the client's contract says: it takes
 * the write lock up front) on the connection Kysely reserves for it, where
 * Kysely's own `transaction()` would begin a deferred one; other calls wait for
 * it, as Kysely's SQLite dialect has one connection. A nested one is a
 * savepoint. A Kysely `Transaction` may be wrapped too: the adapter's
 * transactions are then savepoints of it.
 *
 * `exec` runs one statement: Kysely's SQLite dialect prepares every query, and
 * better-sqlite3 prepares one statement at a time. So `migrate()` does not run
 * through it: run it on the Database given to the dialect, or create the auth
 * tables with Kysely's Migrator and check them with `requireSchema`.
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { Kysely, SqliteDialect } from "kysely";
 * import { fromKysely } from "@gatehouse/runtime/adapters/sqlite/kysely";
 * import { SqliteAdapter, requireSchema } from "@gatehouse/runtime/adapters/sqlite";
 *
 * import type { AuthDatabase } from "./auth-tables"; // a copy of @gatehouse/runtime/orm/kysely/sqlite.ts
 *
 * const db = new Kysely<AuthDatabase>({ dialect: new SqliteDialect({ database: new Database("./data/app.db") }) });
 * await requireSchema(fromKysely(db), { ledger: false }); // the auth tables came from Kysely's Migrator
 * const adapter = SqliteAdapter(fromKysely(db));
 * ```
 */
export function fromKysely(db: KyselyLike): SqliteClient {
  const plain = db.withoutPlugins();
  let checked: Promise<void> | undefined;
  // Once per client; a failed check is not kept, so the next call tries again.
  const ready = () => (checked ??= enableForeignKeys(plain).catch((error: unknown) => ((checked = undefined), Promise.reject(error))));

  if (plain.isTransaction) return withReady(ready, inScope(plain));
  return withReady(ready, {
    ...inScope(plain),
    transaction: (fn) =>
      plain.connection().execute(async (connection) => {
        await run(connection, "BEGIN IMMEDIATE");
        try {
          const result = await fn(inScope(connection));
          await run(connection, "COMMIT");
          return result;
        } catch (error) {
          // SQLite may have rolled the whole transaction back already (after SQLITE_FULL, an interrupt):
          // nothing is left to undo, and the caller gets the error that caused it.
          await run(connection, "ROLLBACK").catch(() => {});
          throw error;
        }
      }),
  });
}

/** Statements on `db`, a connection inside a transaction or a `Transaction`, where a transaction is a savepoint. */
function inScope(db: KyselyQueryable): SqliteClient {
  let savepoints = 0;
  const scope: SqliteClient = {
    query: async <Row>(sql: string, params: readonly SqliteValue[] = []): Promise<SqliteResult<Row>> => ({ rows: await runRaw<Row>(db, sql, params, "SQLite") }),
    exec: async (sql) => void (await run(db, sql)),
    async transaction(fn) {
      const name = `gatehouse_savepoint_${++savepoints}`;
      await run(db, `SAVEPOINT ${name}`);
      try {
        const result = await fn(scope);
        await run(db, `RELEASE ${name}`);
        return result;
      } catch (error) {
        // ROLLBACK TO keeps the savepoint open; RELEASE then removes it.
        await run(db, `ROLLBACK TO ${name}`).catch(() => {});
        await run(db, `RELEASE ${name}`).catch(() => {});
        throw error;
      }
    },
  };
  return scope;
}

/** `client` whose calls first wait for `ready` (the foreign keys' check). */
function withReady(ready: () => Promise<void>, client: SqliteClient): SqliteClient {
  return {
    query: async <Row>(sql: string, params?: readonly SqliteValue[]) => (await ready(), client.query<Row>(sql, params)),
    exec: async (sql) => (await ready(), client.exec(sql)),
    transaction: async <T>(fn: (tx: SqliteClient) => Promise<T>) => (await ready(), client.transaction(fn)),
  };
}

/** The pragma is ignored inside a transaction, so check that it took. */
async function enableForeignKeys(db: KyselyQueryable): Promise<void> {
  await run(db, "PRAGMA foreign_keys = ON");
  const [row] = await runRaw<Record<string, unknown>>(db, "PRAGMA foreign_keys", [], "SQLite");
  if (Number(row === undefined ? undefined : Object.values(row)[0]) !== 1) {
    throw new Error(
      "fromKysely: `PRAGMA foreign_keys = ON` did not take effect on this connection (is a transaction open on it?). " +
        "Wrap the Kysely instance, not a transaction, or turn the foreign keys on when the dialect opens its connection: " +
        "without them, deleting a user would not delete its sessions.",
    );
  }
}

async function run(db: KyselyQueryable, sql: string): Promise<void> {
  await runRaw(db, sql, [], "SQLite");
}
