/**
 * The database rate limit stores, on the tables `migrate()` creates: one
 * contract run on PGlite, on the PostgreSQL server of DATABASE_URL (skipped
 * without it), on the hosted store's svc_rate_limits (a branch on each of those) and on SQLite (better-sqlite3; two connections to one file),
 * with the memory store as the reference. Fixed windows on an injected clock,
 * `reset`, ended windows swept, concurrent hits counted exactly (from several
 * connections where the database has them), and a sign-in limited through
 * `Auth` with no identifier stored in clear.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRateLimitStore, type RateLimitStore } from "@gatehouse/runtime";
import { PostgresRateLimitStore, migrate as migratePostgres } from "@gatehouse/runtime/adapters/postgres";
import { SqliteRateLimitStore, migrate as migrateSqlite } from "@gatehouse/runtime/adapters/sqlite";
import { HostedStoreClient, HostedStoreRateLimitStore, migrate as migrateHostedStore } from "@gatehouse/runtime/adapters/hosted-store";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { openPGlite } from "../adapters/support/pglite.js";
import { createTestDatabase, droppablePool, type TestDatabase } from "../adapters/support/postgres-server.js";
import { storesSession } from "../helpers.js";
import { PASSWORD, attempt, isLimited, limitedSetup, manualClock, wrong } from "./support.js";

interface Backend {
  /** A store on the backend's database with this clock (a new connection where the backend has several). */
  store(now?: () => number): RateLimitStore;
  /** The rows of `rate_limits`, or undefined for the memory store. */
  rows(): Promise<{ key: string; count: number }[] | undefined>;
  /** Empties the table between tests. */
  clear(): Promise<void>;
}

function storeContract(name: string, open: () => Promise<Backend & { close(): Promise<void> }>, skip?: string): void {
  describe.skipIf(skip !== undefined)(`${name}${skip ? ` (skipped: ${skip})` : ""}`, () => {
    let backend: Backend & { close(): Promise<void> };
    beforeAll(async () => {
      backend = await open();
    });
    afterAll(async () => {
      await backend?.close();
    });

    it("counts hits per key in fixed windows that start at a key's first hit, and resets a key", async () => {
      await backend.clear();
      const clock = manualClock(1_700_000_000_000);
      const store = backend.store(clock.now);
      expect(await store.hit("ip:198.51.100.1", 60)).toEqual({ count: 1, resetAt: 1_700_000_060_000 });
      clock.advance(30_000);
      expect(await store.hit("ip:198.51.100.1", 60)).toEqual({ count: 2, resetAt: 1_700_000_060_000 });
      expect(await store.hit("id:credentials:abc", 60)).toEqual({ count: 1, resetAt: 1_700_000_090_000 });
      clock.advance(29_999);
      expect(await store.hit("ip:198.51.100.1", 60)).toEqual({ count: 3, resetAt: 1_700_000_060_000 });
      clock.advance(1); // the first window has ended
      expect(await store.hit("ip:198.51.100.1", 60)).toEqual({ count: 1, resetAt: 1_700_000_120_000 });
      await store.reset("id:credentials:abc");
      expect(await store.hit("id:credentials:abc", 60)).toEqual({ count: 1, resetAt: 1_700_000_120_000 });
      await store.reset("never-seen");
    });

    it("deletes rows whose window has ended, at most once per window", async () => {
      await backend.clear();
      const clock = manualClock(1_700_000_000_000);
      const store = backend.store(clock.now);
      for (let i = 0; i < 5; i++) await store.hit(`ip:192.0.2.${i}`, 60);
      clock.advance(60_000);
      await store.hit("ip:198.51.100.9", 60);
      const rows = await backend.rows();
      if (rows) expect(rows.map((r) => r.key)).toEqual(["ip:198.51.100.9"]);
    });

    it("counts 200 concurrent hits on one key exactly: each count from 1 to 200 once, the row at 200", async () => {
      await backend.clear();
      const stores = [backend.store(), backend.store(), backend.store()];
      const hits = await Promise.all(Array.from({ length: 200 }, (_, i) => stores[i % stores.length]!.hit("id:credentials:race", 900)));
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(new Set(hits.map((h) => h.resetAt)).size).toBe(1);
      const rows = await backend.rows();
      if (rows) expect(rows).toEqual([{ key: "id:credentials:race", count: 200 }]);
    });

    it("limits sign-ins through Auth, across stores on one database (two processes), keeping no identifier in clear", async () => {
      await backend.clear();
      const one = limitedSetup({ identifier: 3, clientAddress: () => "198.51.100.99", store: backend.store() });
      const two = limitedSetup({ identifier: 3, clientAddress: () => "198.51.100.99", store: backend.store() });
      await wrong(one, "Ada@Example.com");
      await wrong(two, "ada@example.com");
      expect(storesSession(await attempt(one, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
      for (let i = 0; i < 3; i++) await wrong(i % 2 ? one : two, "ada@example.com");
      expect(isLimited(await wrong(two, "ADA@example.com "))).toBe(true);
      expect(isLimited(await attempt(one, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
      expect(one.authorize.mock.calls.length + two.authorize.mock.calls.length).toBe(6);
      const rows = await backend.rows();
      if (rows) {
        expect(rows.map((r) => r.key).sort()).toEqual([expect.stringMatching(/^id:credentials:[0-9a-f]{64}$/), "ip:198.51.100.99"]);
        expect(JSON.stringify(rows)).not.toContain("ada");
      }
    });
  });
}

storeContract("MemoryRateLimitStore", async () => {
  // One store, so that "several stores" share counts as a database does.
  let shared: RateLimitStore | undefined;
  return {
    store: (now) => (now ? MemoryRateLimitStore({ now }) : (shared ??= MemoryRateLimitStore())),
    rows: async () => undefined,
    clear: async () => {
      shared = undefined;
    },
    close: async () => {},
  };
});

storeContract("PostgresRateLimitStore on PGlite", async () => {
  const db = await openPGlite();
  await migratePostgres(db);
  return {
    store: (now) => PostgresRateLimitStore(db, { now }),
    rows: async () => (await db.query<{ key: string; count: number }>("SELECT key, count FROM rate_limits ORDER BY key")).rows,
    clear: async () => void (await db.query("DELETE FROM rate_limits")),
    close: () => db.close(),
  };
});

const serverUrl = process.env.DATABASE_URL;
storeContract(
  "PostgresRateLimitStore on the PostgreSQL server",
  async () => {
    const database: TestDatabase = await createTestDatabase(serverUrl!, "rate_limit");
    // Each store on its own pool: hits race over separate connections, as in separate processes.
    const pools: pg.Pool[] = [];
    const pool = () => {
      const created = droppablePool({ connectionString: database.url, max: 8 });
      pools.push(created);
      return created;
    };
    const admin = pool();
    await migratePostgres(admin);
    return {
      store: (now) => PostgresRateLimitStore(pool(), { now }),
      rows: async () => (await admin.query<{ key: string; count: number }>("SELECT key, count FROM rate_limits ORDER BY key")).rows,
      clear: async () => void (await admin.query("DELETE FROM rate_limits")),
      close: async () => {
        await Promise.all(pools.map((p) => p.end()));
        await database.drop();
      },
    };
  },
  serverUrl ? undefined : "DATABASE_URL is not set; export DATABASE_URL=\"$(bash test/adapters/support/start-postgres.sh)\"",
);

// The hosted store on a branch other than main: the table is found in the branch's schema, not on search_path.
storeContract("HostedStoreRateLimitStore on PGlite (branch preview)", async () => {
  const pglite = await openPGlite();
  const client = new HostedStoreClient({ client: fromPGlite(pglite), branch: "preview" });
  await migrateHostedStore(client);
  return {
    store: (now) => HostedStoreRateLimitStore(client, { now }),
    rows: async () => (await pglite.query<{ key: string; count: number }>('SELECT key, count FROM "preview".svc_rate_limits ORDER BY key')).rows,
    clear: async () => void (await pglite.query('DELETE FROM "preview".svc_rate_limits')),
    close: () => pglite.close(),
  };
});

storeContract(
  "HostedStoreRateLimitStore on the PostgreSQL server (branch preview)",
  async () => {
    const database: TestDatabase = await createTestDatabase(serverUrl!, "rate_limit_hosted");
    const pools: pg.Pool[] = [];
    // Each store a client on its own pool, as each process of the app has.
    const client = () => {
      const pool = droppablePool({ connectionString: database.url, max: 8 });
      pools.push(pool);
      return new HostedStoreClient({ client: fromPg(pool), branch: "preview" });
    };
    const admin = client();
    await migrateHostedStore(admin);
    const sql = await admin.connection();
    return {
      store: (now) => HostedStoreRateLimitStore(client(), { now }),
      rows: async () => (await sql.query<{ key: string; count: number }>('SELECT key, count FROM "preview".svc_rate_limits ORDER BY key', [])).rows,
      clear: async () => void (await sql.query('DELETE FROM "preview".svc_rate_limits', [])),
      close: async () => {
        await Promise.all(pools.map((p) => p.end()));
        await database.drop();
      },
    };
  },
  serverUrl ? undefined : "DATABASE_URL is not set; export DATABASE_URL=\"$(bash test/adapters/support/start-postgres.sh)\"",
);

it("HostedStoreRateLimitStore refuses what is not a HostedStoreClient, naming itself", () => {
  expect(() => HostedStoreRateLimitStore({} as HostedStoreClient)).toThrow("HostedStoreRateLimitStore: expected a HostedStoreClient.");
});

const sqlite = await import("better-sqlite3").then(
  ({ default: Database }) => {
    new Database(":memory:").close();
    return { Database, skip: undefined };
  },
  (error: Error) => ({ Database: undefined, skip: `better-sqlite3 does not load on Node ${process.version}: ${error.message.split("\n")[0]}` }),
);
storeContract(
  "SqliteRateLimitStore on better-sqlite3",
  async () => {
    const Database = sqlite.Database!;
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-rate-limit-"));
    const file = join(dir, "auth.sqlite");
    const connections: InstanceType<typeof Database>[] = [];
    const open = () => {
      const connection = new Database(file, { timeout: 5000 });
      connections.push(connection);
      return connection;
    };
    const admin = open();
    admin.pragma("journal_mode = WAL");
    await migrateSqlite(admin);
    return {
      // Every other store on a connection of its own: SQLite's lock orders the writers.
      store: (now) => SqliteRateLimitStore(connections.length % 2 ? open() : admin, { now }),
      rows: async () => admin.prepare("SELECT key, count FROM rate_limits ORDER BY key").all() as { key: string; count: number }[],
      clear: async () => void admin.prepare("DELETE FROM rate_limits").run(),
      close: async () => {
        for (const connection of connections) connection.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  sqlite.skip,
);
