/**
 * `PostgresAdapter` and `migrate()` given a function that opens the database:
 * nothing is opened at construction, the first call opens it once (concurrent
 * first calls share that), a failed open is tried again by the next call, and a
 * function returning something that is not a client is a TypeError. On a real
 * PGlite (one per file: opening one is slow) and, with `DATABASE_URL`, on a
 * PostgreSQL server through pg.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// Relative imports: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import {
  PostgresAdapter,
  PostgresAdapterError,
  migrate,
  migrations,
  type PostgresConnect,
  type PostgresDatabase,
  type SqlClient,
} from "../../runtime/src/adapters/postgres/index.js";
import { toSqlClient } from "../../runtime/src/adapters/postgres/connect.js";
import { fromPGlite } from "../../runtime/src/adapters/postgres/pglite.js";
import { runAdapterConformance } from "./conformance.js";
import { openPGlite } from "./support/pglite.js";
import { NO_EXTRA_FIELDS } from "./support/postgres-checks.js";
import { createTestDatabase, droppablePool, type TestDatabase } from "./support/postgres-server.js";

const ALL = migrations.map((m) => m.name);
const TRUNCATE = "TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE";
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

let pglite: PGlite;
let db: SqlClient;
/** What the first `migrate(connect)` of the fresh PGlite applied, and how often it called connect. */
let firstMigration: { applied: string[]; connects: number };
let opened: Promise<void> | undefined;
/** Opens the file's one PGlite and migrates it through a connect function, the first time it is asked for. */
const ready = () =>
  (opened ??= (async () => {
    pglite = await openPGlite();
    db = fromPGlite(pglite);
    const connect = vi.fn(() => pglite);
    firstMigration = { ...(await migrate(connect)), connects: connect.mock.calls.length };
  })());

beforeAll(ready, 60_000);
afterAll(async () => {
  await pglite?.close();
});

/** A connect function that answers `database` after a macrotask, so concurrent first calls overlap. */
function slowConnect(database: () => PostgresDatabase) {
  return vi.fn<PostgresConnect>(() => new Promise((resolve) => setTimeout(() => resolve(database()), 10)));
}

runAdapterConformance({
  name: "postgres (PGlite opened by a connect function)",
  setup: async () => {
    await ready();
    return PostgresAdapter(async () => pglite);
  },
  reset: async () => {
    await db.query(TRUNCATE);
  },
  limits: { noExtraFields: NO_EXTRA_FIELDS },
});

describe("PostgresAdapter(connect)", () => {
  it("does not call connect when constructed; the first call does, once for concurrent first calls; later calls reuse it", async () => {
    await db.query(TRUNCATE);
    const connect = slowConnect(() => pglite);
    const adapter = PostgresAdapter(connect);
    expect(connect).not.toHaveBeenCalled();

    const first = await Promise.all([
      adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null }),
      adapter.getUser("nobody"),
      adapter.getSessionAndUser("no-session"),
      adapter.getUserByEmail("nobody@example.com"),
    ]);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(first).toEqual([{ id: "u", email: "ada@example.com", emailVerified: null, name: null, image: null }, null, null, null]);

    expect((await adapter.getUser("u"))?.email).toBe("ada@example.com");
    await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it("takes a function returning a SqlClient, a PGlite, synchronously or not", async () => {
    await db.query(TRUNCATE);
    const forms: PostgresConnect[] = [() => pglite, () => db, async () => pglite, async () => db];
    for (const [i, connect] of forms.entries()) {
      const adapter = PostgresAdapter(connect);
      await adapter.createUser({ id: `u${i}`, email: `u${i}@example.com`, emailVerified: null });
      expect((await adapter.getUser(`u${i}`))?.id).toBe(`u${i}`);
    }
  });

  it("a connect that rejects fails the call with an error naming the adapter and the cause; the next call connects again", async () => {
    await db.query(TRUNCATE);
    const down = new Error("connect ECONNREFUSED 127.0.0.1:5432");
    let up = false;
    const connect = vi.fn<PostgresConnect>(async () => {
      if (!up) throw down;
      return pglite;
    });
    const adapter = PostgresAdapter(connect);

    // Concurrent calls during the failed attempt share it and all fail.
    const failed = await Promise.allSettled([adapter.getUser("u"), adapter.getUserByEmail("ada@example.com")]);
    expect(connect).toHaveBeenCalledTimes(1);
    for (const result of failed) {
      expect(result.status).toBe("rejected");
      const error = (result as PromiseRejectedResult).reason as Error;
      expect(error).not.toBeInstanceOf(PostgresAdapterError); // not_found is for missing rows; this is the driver's kind of error
      expect(error.message).toBe("PostgresAdapter: could not open the database: connect ECONNREFUSED 127.0.0.1:5432");
      expect(error.cause).toBe(down);
    }

    // Still down: tried again, fails again.
    await expect(adapter.getUser("u")).rejects.toThrow(/could not open the database/);
    expect(connect).toHaveBeenCalledTimes(2);

    up = true;
    expect(await adapter.getUser("u")).toBeNull();
    await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
    expect(connect).toHaveBeenCalledTimes(3);
  });

  it("a connect that throws synchronously (or throws a non-Error) is handled the same way", async () => {
    let calls = 0;
    const adapter = PostgresAdapter(() => {
      if (calls++ === 0) throw "no database";
      return pglite;
    });
    const error = await Promise.resolve(adapter.getUser("nobody")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: "PostgresAdapter: could not open the database: no database", cause: "no database" });
    expect(await adapter.getUser("nobody")).toBeNull();
    expect(calls).toBe(2);
  });

  it("a connect that returns something other than a client: a TypeError on first use, not at construction", async () => {
    const wrong = [{}, null, "postgres://localhost/auth", () => pglite] as unknown as PostgresDatabase[];
    for (const value of wrong) {
      const connect = vi.fn<PostgresConnect>(async () => value);
      const adapter = PostgresAdapter(connect);
      expect(connect).not.toHaveBeenCalled();
      const error = await Promise.resolve(adapter.getUser("u")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe(
        "PostgresAdapter: expected the connect function to return a SqlClient, a pg Pool or Client, a PGlite instance or postgres.js's sql.",
      );
    }
    // Not a function either: still refused at construction, and the message names the function form.
    expect(() => PostgresAdapter({} as SqlClient)).toThrow(
      "PostgresAdapter: expected a SqlClient, a pg Pool or Client, a PGlite instance or postgres.js's sql, or a function that returns one.",
    );
  });

  it("deleteUser cascades to accounts, sessions and authenticators", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(async () => pglite);
    await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
    await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
    await adapter.linkAccount({ userId: "u", type: "oauth", provider: "github", providerAccountId: "1" });
    await adapter.createAuthenticator({
      userId: "u",
      credentialID: "c",
      providerAccountId: "c",
      credentialPublicKey: "k",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    });
    await adapter.deleteUser("u");
    expect(await adapter.getSessionAndUser("t")).toBeNull();
    expect(await adapter.getAccount("1", "github")).toBeNull();
    expect(await adapter.listAuthenticatorsByUserId("u")).toEqual([]);
  });

  it("the TSDoc's shared opener: a failed open-and-migrate is not kept, the next call opens again", async () => {
    let attempts = 0;
    let opening: Promise<PGlite> | undefined;
    const openDb = vi.fn(() =>
      (opening ??= openAndMigrate().catch((error: unknown) => {
        opening = undefined;
        throw error;
      })),
    );
    async function openAndMigrate(): Promise<PGlite> {
      if (attempts++ === 0) throw new Error("disk full");
      await migrate(pglite);
      return pglite;
    }
    const adapter = PostgresAdapter(openDb);
    await expect(adapter.getUser("u")).rejects.toThrow("PostgresAdapter: could not open the database: disk full");
    await db.query(TRUNCATE);
    expect(await adapter.getUser("u")).toBeNull();
    expect(await openDb()).toBe(pglite); // the app's own queries get the same instance
    expect(attempts).toBe(2);
    expect(openDb).toHaveBeenCalledTimes(3);
  });
});

describe("migrate(connect)", () => {
  it("applied every migration through the connect function, calling it once; a second run is a no-op", async () => {
    expect(firstMigration).toEqual({ applied: ALL, connects: 1 });
    const connect = vi.fn<PostgresConnect>(async () => db);
    expect(await migrate(connect)).toEqual({ applied: [] });
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it("a connect that rejects fails migrate() with an error naming it and the cause", async () => {
    const cause = new Error("the database is starting up");
    const error = await migrate(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: "migrate: could not open the database: the database is starting up", cause });
  });

  it("a connect that returns no client: a TypeError naming migrate", async () => {
    await expect(migrate(async () => ({}) as SqlClient)).rejects.toThrow(
      new TypeError("migrate: expected the connect function to return a SqlClient, a pg Pool or Client, a PGlite instance or postgres.js's sql."),
    );
  });
});

describe("the lazy SqlClient", () => {
  it("a transaction as the first call opens the database; it commits, rolls back on throw, and nests as a savepoint", async () => {
    const connect = vi.fn(() => pglite);
    const lazy = toSqlClient(connect, "test");
    expect(connect).not.toHaveBeenCalled();
    await lazy.transaction(async (tx) => {
      await tx.query("CREATE TEMP TABLE lazy_tx (x int)");
      await tx.query("INSERT INTO lazy_tx VALUES ($1)", [1]);
      await tx
        .transaction(async (inner) => {
          await inner.query("INSERT INTO lazy_tx VALUES ($1)", [2]);
          throw new Error("undo the inner step");
        })
        .catch(() => {});
    });
    expect(connect).toHaveBeenCalledTimes(1);
    await expect(
      lazy.transaction(async (tx) => {
        await tx.query("INSERT INTO lazy_tx VALUES ($1)", [3]);
        throw new Error("undo everything");
      }),
    ).rejects.toThrow("undo everything");
    expect((await lazy.query("SELECT x FROM lazy_tx ORDER BY x", [])).rows).toEqual([{ x: 1 }]);
    await lazy.query("DROP TABLE lazy_tx");
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it("concurrent first calls, queries and transactions mixed, share one connect", async () => {
    const connect = slowConnect(() => db);
    const lazy = toSqlClient(connect, "test");
    const results = await Promise.all([
      lazy.query<{ n: number }>("SELECT 1 AS n", []),
      lazy.transaction((tx) => tx.query<{ n: number }>("SELECT 2 AS n", [])),
      lazy.query<{ n: number }>("SELECT 3 AS n"),
    ]);
    expect(results.map((r) => r.rows[0]?.n)).toEqual([1, 2, 3]);
    expect(connect).toHaveBeenCalledTimes(1);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)(
  serverUrl
    ? "PostgresAdapter(connect) on a PostgreSQL server"
    : "PostgresAdapter(connect) on a PostgreSQL server (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    let database: TestDatabase;
    const pools: pg.Pool[] = [];
    const clients: pg.Client[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(serverUrl as string, "lazy");
    }, 60_000);
    afterAll(async () => {
      await Promise.all([...clients.map((c) => c.end()), ...pools.map((p) => p.end())]);
      await database?.drop();
    });

    it("a pg Pool migrated on first use (docs/adapters.md's form), once for concurrent first calls", async () => {
      const pool = droppablePool({ connectionString: database.url, max: 3 });
      // DROP DATABASE ... WITH (FORCE) at the end may end a connection the pool is still closing.
      pool.on("error", () => {});
      pools.push(pool);
      const connect = vi.fn(async () => {
        await migrate(pool);
        return pool;
      });
      const adapter = PostgresAdapter(connect);
      expect(connect).not.toHaveBeenCalled();
      expect(pool.totalCount).toBe(0);

      await Promise.all([
        adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null }),
        adapter.getUser("nobody"),
        adapter.getUserByEmail("nobody@example.com"),
      ]);
      await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
      expect((await adapter.getSessionAndUser("t"))?.user.id).toBe("u");
      expect(connect).toHaveBeenCalledTimes(1);
      expect(await migrate(async () => pool)).toEqual({ applied: [] });
    });

    it("a pg Client whose connect() fails (server unreachable): the call fails with the cause, the next one connects", async () => {
      // Port 1 on loopback: nothing listens there, so connect() is refused at once.
      let url = "postgres://gatehouse@127.0.0.1:1/none";
      const connect = vi.fn(async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        clients.push(client);
        return client;
      });
      const adapter = PostgresAdapter(connect);

      const error = await Promise.resolve(adapter.getUser("u")).catch((e: unknown) => e);
      expect(error).toMatchObject({ message: expect.stringMatching(/^PostgresAdapter: could not open the database: .*ECONNREFUSED/) });
      expect((error as Error).cause).toMatchObject({ code: "ECONNREFUSED" });

      url = database.url;
      await migrate(connect); // its own connect call: a second client
      await adapter.createUser({ id: "v", email: "grace@example.com", emailVerified: null });
      expect((await adapter.getUser("v"))?.email).toBe("grace@example.com");
      expect(connect).toHaveBeenCalledTimes(3);
    });
  },
);
