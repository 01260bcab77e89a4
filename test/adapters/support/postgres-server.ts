/**
 * Throwaway databases on the PostgreSQL server of `DATABASE_URL` (started by
 * `test/adapters/support/start-postgres.sh`): each test run works in databases
 * of its own and drops them, so runs never see each other's rows.
 */
import pg from "pg";

export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Drops the database, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl: string, label: string): Promise<TestDatabase> {
  const name = `gatehouse_test_${label}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A pool on a test database that may be dropped under it. Pool.end() resolves
 * before its connections have closed, and dropping the database (WITH FORCE)
 * then terminates them: that error is expected, and unheard (an idle one is
 * re-emitted on the pool) it fails the whole run as an unhandled error.
 */
export function droppablePool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(options);
  pool.on("connect", (connection) => connection.on("error", () => {}));
  pool.on("error", () => {});
  return pool;
}

/** Databases a test file makes as it goes, each its own, all dropped at its end: `afterAll(databases.dropAll)`. */
export function testDatabases(serverUrl: string | undefined, label: string): { create(): Promise<string>; dropAll(): Promise<void> } {
  const made: TestDatabase[] = [];
  return {
    async create() {
      if (!serverUrl) throw new Error("DATABASE_URL is not set: no PostgreSQL server to make a database on");
      const database = await createTestDatabase(serverUrl, label);
      made.push(database);
      return database.url;
    },
    async dropAll() {
      for (const database of made.splice(0)) await database.drop();
    },
  };
}
