/**
 * A fresh, migrated database on the PostgreSQL server of `DATABASE_URL` for one
 * load test file, reached through ONE small `pg.Pool` (the bound the tests
 * check), and a watcher that counts the database's connections from outside
 * the pool while the load runs.
 */
import pg from "pg";
import { expect } from "vitest";
import { migrate, PostgresAdapter, type SqlClient } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import type { Adapter } from "@gatehouse/runtime";
import { createTestDatabase, type TestDatabase } from "../../adapters/support/postgres-server.js";

export const SERVER_URL = process.env.DATABASE_URL;

/** The skip message of every file here: what to run to get the server. */
export const NEEDS_POSTGRES = "needs DATABASE_URL: export DATABASE_URL=\"$(bash test/adapters/support/start-postgres.sh)\"";

/** `application_name` of the tests' own watching connections, which the connection count leaves out. */
export const WATCHER_NAME = "gatehouse-load-watcher";

/** A connection of the test's own (not the handler's) that watches the database while the load runs. */
export async function watcherConnection(url: string): Promise<pg.Client> {
  const watcher = new pg.Client({ connectionString: url, application_name: WATCHER_NAME });
  watcher.on("error", () => {});
  await watcher.connect();
  return watcher;
}

/** Small on purpose: hundreds of concurrent requests must queue for five connections, not open hundreds. */
export const POOL_MAX = 5;

export interface LoadDatabase {
  /** Name of the database, as `pg_stat_activity.datname` shows it. */
  name: string;
  url: string;
  pool: pg.Pool;
  /** The pool's `max`: the most connections the load may hold. */
  poolMax: number;
  /** The pool as the adapter's `SqlClient`. */
  client: SqlClient;
  /** A new adapter on the shared pool (cheap: configs made per request use one each). */
  adapter(): Adapter;
  /** Runs SQL through the pool (after the load, to check what was stored). */
  rows<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export async function openLoadDatabase(label: string, poolMax = POOL_MAX): Promise<LoadDatabase> {
  const database: TestDatabase = await createTestDatabase(SERVER_URL!, `load_${label}`);
  const url = database.url;
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  // The database is dropped WITH (FORCE) at the end: idle connections then error, and that is expected.
  pool.on("error", () => {});
  const client = fromPg(pool);
  await migrate(client);
  return {
    name: new URL(url).pathname.slice(1),
    url,
    pool,
    poolMax,
    client,
    adapter: () => PostgresAdapter(client),
    rows: async (sql, params) => (await pool.query(sql, params)).rows,
    async close() {
      // A test may have ended the pool itself, to see what is left connected.
      if (!pool.ended && !pool.ending) await pool.end();
      await database.drop();
    },
  };
}

/** The database's client connections; autovacuum workers also show up under its name, so only client backends count. */
const COUNT_CONNECTIONS = `SELECT count(*)::int AS count FROM pg_stat_activity
  WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2`;

export interface ConnectionPeaks {
  /** Most client connections to the database seen at once, the watchers' own left out. */
  serverConnections: number;
  /** Most connections the pool held at once. */
  poolConnections: number;
  /** Most requests waiting for a connection at once: above 0 means the load really exceeded the pool. */
  poolWaiting: number;
  samples: number;
}

export interface ConnectionWatch {
  stop(): Promise<ConnectionPeaks>;
}

/**
 * Counts the database's client backends from a connection of its own, every few
 * milliseconds until `stop()`. Counted by the server, not the pool: a connection
 * opened outside the pool would be missed there.
 */
export async function watchConnections(db: LoadDatabase): Promise<ConnectionWatch> {
  const watcher = await watcherConnection(db.url);
  const peaks: ConnectionPeaks = { serverConnections: 0, poolConnections: 0, poolWaiting: 0, samples: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await watcher.query<{ count: number }>(COUNT_CONNECTIONS, [db.name, WATCHER_NAME]);
      peaks.serverConnections = Math.max(peaks.serverConnections, rows[0]!.count);
      peaks.poolConnections = Math.max(peaks.poolConnections, db.pool.totalCount);
      peaks.poolWaiting = Math.max(peaks.poolWaiting, db.pool.waitingCount);
      peaks.samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await watcher.end();
      return peaks;
    },
  };
}

/**
 * Client connections to the database once the closed ones are gone (the watchers'
 * own left out). A backend leaves `pg_stat_activity` a moment after its client
 * hung up, so this looks again for up to about two seconds before answering.
 */
export async function connectionsLeft(db: LoadDatabase): Promise<number> {
  const watcher = await watcherConnection(db.url);
  try {
    let count = Number.POSITIVE_INFINITY;
    for (let look = 0; look < 100 && count > 0; look += 1) {
      if (look > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      count = (await watcher.query<{ count: number }>(COUNT_CONNECTIONS, [db.name, WATCHER_NAME])).rows[0]!.count;
    }
    return count;
  } finally {
    await watcher.end();
  }
}

/** Runs `load` while watching the database's connections; returns its result and the peaks. */
export async function underWatch<T>(db: LoadDatabase, load: () => Promise<T>): Promise<{ result: T; peaks: ConnectionPeaks }> {
  const watch = await watchConnections(db);
  try {
    const result = await load();
    return { result, peaks: await watch.stop() };
  } catch (error) {
    await watch.stop();
    throw error;
  }
}

/**
 * The load stayed within the pool and really queued on it; afterwards every
 * connection is back, idle, and none is left inside a transaction.
 */
export async function expectBoundedAndSettled(db: LoadDatabase, peaks: ConnectionPeaks): Promise<void> {
  const { poolMax } = db;
  expect(peaks.samples).toBeGreaterThan(0);
  expect(peaks.serverConnections).toBeLessThanOrEqual(poolMax);
  // The watcher saw the pool's connections: the count is real, not a query that matches nothing.
  expect(peaks.serverConnections).toBeGreaterThan(0);
  expect(peaks.poolConnections).toBeLessThanOrEqual(poolMax);
  expect(peaks.poolWaiting).toBeGreaterThan(0);
  expect(db.pool.waitingCount).toBe(0);
  expect(db.pool.idleCount).toBe(db.pool.totalCount);
  const stuck = await db.rows(
    `SELECT state FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND state LIKE 'idle in transaction%'`,
    [db.name],
  );
  expect(stuck).toEqual([]);
}
