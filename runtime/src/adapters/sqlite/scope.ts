/**
 * What the SQLite wrappers over an app's own database library (`fromKysely`,
 * `fromPrisma`) share: a client whose every statement goes through one
 * function, nested transactions as savepoints, and SQLite's foreign keys
 * turned on before the first statement.
 */
import type { SqliteClient, SqliteResult, SqliteValue } from "./client.js";

/** Runs one statement; its rows. */
export type RunStatement = <Row>(sql: string, params: readonly SqliteValue[]) => Promise<Row[]>;

/**
 * A client on one scope (the library's connection, or a transaction of it):
 * every statement through `run`, `exec` one statement (the libraries prepare
 * every query), and `transaction()` a savepoint of the scope.
 */
export function savepointScope(run: RunStatement): SqliteClient {
  let savepoints = 0;
  const scope: SqliteClient = {
    query: async <Row>(sql: string, params: readonly SqliteValue[] = []): Promise<SqliteResult<Row>> => ({ rows: await run<Row>(sql, params) }),
    exec: async (sql) => void (await run(sql, [])),
    async transaction(fn) {
      const name = `gatehouse_savepoint_${++savepoints}`;
      await run(`SAVEPOINT ${name}`, []);
      try {
        const result = await fn(scope);
        await run(`RELEASE ${name}`, []);
        return result;
      } catch (error) {
        // ROLLBACK TO keeps the savepoint open; RELEASE then removes it.
        await run(`ROLLBACK TO ${name}`, []).catch(() => {});
        await run(`RELEASE ${name}`, []).catch(() => {});
        throw error;
      }
    },
  };
  return scope;
}

/**
 * `client`, whose calls first wait for `prepare` (once per client; a failure
 * is not kept, so the next call tries again).
 */
export function preparedFirst(prepare: () => Promise<void>, client: SqliteClient): SqliteClient {
  let prepared: Promise<void> | undefined;
  const ready = () => (prepared ??= prepare().catch((error: unknown) => ((prepared = undefined), Promise.reject(error))));
  return {
    query: async <Row>(sql: string, params?: readonly SqliteValue[]) => (await ready(), client.query<Row>(sql, params)),
    exec: async (sql) => (await ready(), client.exec(sql)),
    transaction: async <T>(fn: (tx: SqliteClient) => Promise<T>) => (await ready(), client.transaction(fn)),
  };
}

/**
 * Turns SQLite's foreign keys on (they are off on every new connection, and
 * then deleting a user would keep its sessions) and checks they are: the
 * pragma does nothing inside a transaction. `wrapper` and `remedy` say whose
 * connection it was and what to do instead.
 */
export async function enableForeignKeys(run: RunStatement, wrapper: string, remedy: string): Promise<void> {
  await run("PRAGMA foreign_keys = ON", []);
  const [row] = await run<Record<string, unknown>>("PRAGMA foreign_keys", []);
  if (Number(row === undefined ? undefined : Object.values(row)[0]) !== 1) {
    throw new Error(`${wrapper}: \`PRAGMA foreign_keys = ON\` did not take effect on this connection (is a transaction open on it?). ${remedy} Without them, deleting a user would not delete its sessions.`);
  }
}
