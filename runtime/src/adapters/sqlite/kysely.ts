/**
 * `fromKysely`: a Kysely instance on SQLite as a `SqliteClient`, so the adapter
 * runs on the app's own Kysely when the app keeps only that:
 * `new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(file) }) })`.
 *
 * Nothing here imports `kysely` (see `../sql/kysely.ts`).
 */
import { runRaw, type KyselyLike, type KyselyQueryable } from "../sql/kysely.js";
import type { SqliteClient } from "./client.js";
import { enableForeignKeys, preparedFirst, savepointScope } from "./scope.js";

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
  const inScope = (scope: KyselyQueryable) => savepointScope((sql, params) => runRaw(scope, sql, params, "SQLite"));
  const prepare = () =>
    enableForeignKeys(
      (sql, params) => runRaw(plain, sql, params, "SQLite"),
      "fromKysely",
      "Wrap the Kysely instance, not a transaction, or turn the foreign keys on when the dialect opens its connection.",
    );

  if (plain.isTransaction) return preparedFirst(prepare, inScope(plain));
  return preparedFirst(prepare, {
    ...inScope(plain),
    transaction: (fn) =>
      plain.connection().execute(async (connection) => {
        const run = (sql: string) => runRaw(connection, sql, [], "SQLite");
        await run("BEGIN IMMEDIATE");
        try {
          const result = await fn(inScope(connection));
          await run("COMMIT");
          return result;
        } catch (error) {
          // SQLite may have rolled the whole transaction back already (after SQLITE_FULL, an interrupt):
          // nothing is left to undo, and the caller gets the error that caused it.
          await run("ROLLBACK").catch(() => {});
          throw error;
        }
      }),
  });
}
