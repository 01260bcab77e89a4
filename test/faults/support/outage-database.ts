/**
 * A fresh database on the PostgreSQL server of `DATABASE_URL`, reached by the
 * adapter through a cuttable proxy (`tcp-proxy.ts`), so a test can take the
 * database away in the middle of a flow and bring it back. The test's own queries
 * (seeding, reading rows, watching what the server runs) go straight to the
 * server, so they work while the adapter's path is cut.
 */
import pg from "pg";
import type { Adapter } from "@gatehouse/runtime";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { createTestDatabase, type TestDatabase } from "../../adapters/support/postgres-server.js";
import { startTcpProxy } from "./tcp-proxy.js";

/** The skip message of suites that need the server. */
export const NEEDS_POSTGRES = "(needs DATABASE_URL: export DATABASE_URL=\"$(bash test/adapters/support/start-postgres.sh)\")";

export interface OutageDatabase {
  /** The adapter's pool, through the proxy. The same pool lives through every outage of a file. */
  pool: pg.Pool;
  adapter: Adapter;
  /** Rows of a query sent straight to the server (not through the proxy). */
  rows<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Cuts the adapter's path to the database (see `TcpProxy.cut`). */
  cut(): void;
  restore(): void;
  /**
   * Waits until a backend of this database runs a statement matching `pattern`
   * (from pg_stat_activity), e.g. an INSERT held by a slow trigger.
   */
  waitForStatement(pattern: RegExp): Promise<void>;
  /**
   * Makes every INSERT into `table` wait `seconds` first (a trigger calling pg_sleep), so a test
   * can cut the connection while the statement is held. Returns the undo.
   */
  delayInserts(table: "users" | "accounts" | "sessions", seconds: number): Promise<() => Promise<void>>;
  /**
   * Waits until no backend of the adapter's pool holds a statement matching `pattern` any more: a
   * backend whose client was cut finishes its statement, finds the connection gone, rolls back and
   * exits. Only then is "nothing was written" final.
   */
  waitForStatementToEnd(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

const APPLICATION_NAME = "gatehouse-faults-adapter";

export async function openOutageDatabase(serverUrl: string, label: string): Promise<OutageDatabase> {
  const database: TestDatabase = await createTestDatabase(serverUrl, label);
  const server = new URL(database.url);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
  const direct = new pg.Pool({ connectionString: database.url, max: 2 });
  const pool = new pg.Pool({
    connectionString: proxy.through(database.url),
    max: 5,
    // A cut makes new connections fail at once; this bounds a connect that would hang instead.
    connectionTimeoutMillis: 2_000,
    application_name: APPLICATION_NAME,
  });
  // Idle connections destroyed by a cut emit "error" on the pool; unhandled, it would crash the run.
  for (const p of [direct, pool]) p.on("error", () => {});
  const client = fromPg(pool);
  await migrate(client);

  const rows = async <Row>(sql: string, params?: unknown[]) => (await direct.query(sql, params)).rows as Row[];
  const until = async (what: string, test: () => Promise<boolean>) => {
    for (let waited = 0; waited < 10_000; waited += 20) {
      if (await test()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** The statements (running, or last run) of the adapter's connections on the server. */
  const statements = async (activeOnly: boolean) =>
    (
      await rows<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 ${activeOnly ? "AND state = 'active'" : ""}`,
        [APPLICATION_NAME],
      )
    ).map((row) => row.query);

  return {
    pool,
    adapter: PostgresAdapter(client),
    rows,
    cut: () => proxy.cut(),
    restore: () => proxy.restore(),
    waitForStatement: (pattern) =>
      until(`a statement matching ${pattern}`, async () => (await statements(true)).some((query) => pattern.test(query))),
    async delayInserts(table, seconds) {
      const name = `fault_delay_${table}`;
      await rows(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(${Number(seconds)}); RETURN NEW; END $$`);
      await rows(`CREATE OR REPLACE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
      return async () => void (await rows(`DROP TRIGGER IF EXISTS ${name} ON ${table}`));
    },
    waitForStatementToEnd: (pattern) =>
      until(`the end of ${pattern}`, async () => !(await statements(false)).some((query) => pattern.test(query))),
    async close() {
      await proxy.close();
      await Promise.all([pool.end(), direct.end()]);
      await database.drop();
    },
  };
}
