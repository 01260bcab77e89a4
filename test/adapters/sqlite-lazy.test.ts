/**
 * `SqliteAdapter` and `migrate()` given a function that opens the database:
 * nothing is opened (no file created) at construction, the first call opens it
 * once (concurrent first calls share that), a failed open is tried again by the
 * next call, and a function returning something that is not a client is a
 * TypeError. On better-sqlite3 in a file; skipped with the reason where it does
 * not load on this Node.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  SqliteAdapter,
  SqliteAdapterError,
  migrate,
  migrations,
  type SqliteClient,
  type SqliteConnect,
  type SqliteDatabase,
} from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3, type BetterSqlite3Like } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { toSqliteClient } from "../../runtime/src/adapters/sqlite/connect.js";
import { runAdapterConformance } from "./conformance.js";

type Connection = BetterSqlite3Like & { close(): void };

async function loadBetterSqlite3(): Promise<{ open?: (path: string) => Connection; skip?: string }> {
  try {
    const { default: Database } = await import("better-sqlite3");
    new Database(":memory:").close(); // the native module loads only now
    return { open: (path) => new Database(path) };
  } catch (error) {
    return { skip: `better-sqlite3 does not load on Node ${process.version} (npm i -D better-sqlite3@12): ${(error as Error).message.replace(/\s+/g, " ")}` };
  }
}

const driver = await loadBetterSqlite3();
const ALL = migrations.map((m) => m.name);
const EMPTY_TABLES = `DELETE FROM authenticators; DELETE FROM sessions; DELETE FROM accounts;
  DELETE FROM verification_token; DELETE FROM users;`;
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

describe.skipIf(Boolean(driver.skip))(driver.skip ? `SQLite adapter given a connect function (skipped: ${driver.skip})` : "SQLite adapter given a connect function", () => {
  const open = driver.open!;
  const directory = mkdtempSync(join(tmpdir(), "gatehouse-sqlite-lazy-"));
  let files = 0;
  const newFile = () => join(directory, `auth-${++files}.db`);
  /** Every connection the tests open, closed at the end. */
  const connections: Connection[] = [];
  const opened = (path: string) => {
    const connection = open(path);
    connections.push(connection);
    return connection;
  };

  /** The file's main database, migrated through a connect function by the first test that needs it. */
  let main: Connection;
  let db: SqliteClient;
  let firstMigration: { applied: string[]; connects: number; existedBefore: boolean };
  beforeAll(async () => {
    const path = newFile();
    const connect = vi.fn(() => (main = opened(path)));
    const existedBefore = existsSync(path);
    firstMigration = { ...(await migrate(connect)), connects: connect.mock.calls.length, existedBefore };
    db = fromBetterSqlite3(main);
  });
  afterAll(() => {
    for (const connection of connections) connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** A connect function that answers `database` after a macrotask, so concurrent first calls overlap. */
  function slowConnect(database: () => SqliteDatabase) {
    return vi.fn<SqliteConnect>(() => new Promise((resolve) => setTimeout(() => resolve(database()), 10)));
  }

  runAdapterConformance({
    name: "sqlite (better-sqlite3 opened by a connect function)",
    setup: async () => SqliteAdapter(async () => main),
    reset: async () => {
      await db.exec(EMPTY_TABLES);
    },
    limits: { noExtraFields: "the schema is the Auth.js tables in SQLite: fixed columns, none for fields beyond the contract's" },
  });

  describe("SqliteAdapter(connect)", () => {
    it("creates no file when constructed; the first call opens it, once for concurrent first calls; later calls reuse it", async () => {
      const path = newFile();
      const connect = slowConnect(() => opened(path));
      const adapter = SqliteAdapter(async () => {
        const connection = await connect();
        await migrate(connection);
        return connection;
      });
      expect(connect).not.toHaveBeenCalled();
      expect(existsSync(path)).toBe(false);

      const first = await Promise.all([
        adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null }),
        adapter.getUser("nobody"),
        adapter.getSessionAndUser("no-session"),
        adapter.getUserByEmail("nobody@example.com"),
      ]);
      expect(connect).toHaveBeenCalledTimes(1);
      expect(existsSync(path)).toBe(true);
      expect(first).toEqual([{ id: "u", email: "ada@example.com", emailVerified: null, name: null, image: null }, null, null, null]);

      expect((await adapter.getUser("u"))?.email).toBe("ada@example.com");
      await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
      expect((await adapter.getSessionAndUser("t"))?.session.expires).toEqual(EXPIRES);
      expect(connect).toHaveBeenCalledTimes(1);
    });

    it("takes a function returning a SqliteClient or a driver's connection, synchronously or not", async () => {
      await db.exec(EMPTY_TABLES);
      const forms: SqliteConnect[] = [() => main, () => db, async () => main, async () => db];
      for (const [i, connect] of forms.entries()) {
        const adapter = SqliteAdapter(connect);
        await adapter.createUser({ id: `u${i}`, email: `u${i}@example.com`, emailVerified: null });
        expect((await adapter.getUser(`u${i}`))?.id).toBe(`u${i}`);
      }
    });

    it("a connect that rejects fails the call with an error naming the adapter and the cause; the next call connects again", async () => {
      await db.exec(EMPTY_TABLES);
      const down = new Error("SQLITE_CANTOPEN: unable to open database file");
      let up = false;
      const connect = vi.fn<SqliteConnect>(async () => {
        if (!up) throw down;
        return main;
      });
      const adapter = SqliteAdapter(connect);

      // Concurrent calls during the failed attempt share it and all fail.
      const failed = await Promise.allSettled([adapter.getUser("u"), adapter.getUserByEmail("ada@example.com")]);
      expect(connect).toHaveBeenCalledTimes(1);
      for (const result of failed) {
        expect(result.status).toBe("rejected");
        const error = (result as PromiseRejectedResult).reason as Error;
        expect(error).not.toBeInstanceOf(SqliteAdapterError); // not_found is for missing rows; this is the driver's kind of error
        expect(error.message).toBe("SqliteAdapter: could not open the database: SQLITE_CANTOPEN: unable to open database file");
        expect(error.cause).toBe(down);
      }

      // Still failing: tried again, fails again.
      await expect(adapter.getUser("u")).rejects.toThrow(/could not open the database/);
      expect(connect).toHaveBeenCalledTimes(2);

      up = true;
      expect(await adapter.getUser("u")).toBeNull();
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
      expect(connect).toHaveBeenCalledTimes(3);
    });

    it("a connect that throws synchronously (or throws a non-Error) is handled the same way", async () => {
      let calls = 0;
      const adapter = SqliteAdapter(() => {
        if (calls++ === 0) throw "no database";
        return main;
      });
      const error = await Promise.resolve(adapter.getUser("nobody")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ message: "SqliteAdapter: could not open the database: no database", cause: "no database" });
      expect(await adapter.getUser("nobody")).toBeNull();
      expect(calls).toBe(2);
    });

    it("a connect that returns something other than a client: a TypeError on first use, not at construction", async () => {
      const wrong = [{}, null, "./data/auth.db", () => main] as unknown as SqliteDatabase[];
      for (const value of wrong) {
        const connect = vi.fn<SqliteConnect>(async () => value);
        const adapter = SqliteAdapter(connect);
        expect(connect).not.toHaveBeenCalled();
        const error = await Promise.resolve(adapter.getUser("u")).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TypeError);
        expect((error as TypeError).message).toBe(
          "SqliteAdapter: expected the connect function to return a SqliteClient, a better-sqlite3 Database or a node:sqlite DatabaseSync.",
        );
      }
      // Not a function either: still refused at construction, and the message names the function form.
      expect(() => SqliteAdapter({} as SqliteClient)).toThrow(
        "SqliteAdapter: expected a SqliteClient, a better-sqlite3 Database or a node:sqlite DatabaseSync, or a function that returns one.",
      );
    });

    it("deleteUser cascades to accounts, sessions and authenticators (the wrapper turned foreign keys on)", async () => {
      await db.exec(EMPTY_TABLES);
      const adapter = SqliteAdapter(() => main);
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

    it("the TSDoc's shared opener: a failed open-and-migrate closes the connection and is not kept; the next call opens again", async () => {
      const path = newFile();
      let attempts = 0;
      let opening: Promise<Connection> | undefined;
      const openDb = vi.fn(() =>
        (opening ??= openAndMigrate().catch((error: unknown) => {
          opening = undefined;
          throw error;
        })),
      );
      async function openAndMigrate(): Promise<Connection> {
        const connection = opened(path);
        try {
          if (attempts++ === 0) throw new Error("disk full");
          await migrate(connection);
          return connection;
        } catch (error) {
          connection.close();
          throw error;
        }
      }
      const adapter = SqliteAdapter(openDb);
      await expect(adapter.getUser("u")).rejects.toThrow("SqliteAdapter: could not open the database: disk full");
      expect(await adapter.getUser("u")).toBeNull();
      const shared = await openDb(); // the app's own queries get the same connection, and its one client
      await expect(fromBetterSqlite3(shared).query("SELECT count(*) AS n FROM users")).resolves.toEqual({ rows: [{ n: 0 }] });
      expect(attempts).toBe(2);
      expect(openDb).toHaveBeenCalledTimes(3);
    });
  });

  describe("migrate(connect)", () => {
    it("applied every migration through the connect function, calling it once, creating the file only then; a second run is a no-op", async () => {
      expect(firstMigration).toEqual({ applied: ALL, connects: 1, existedBefore: false });
      const connect = vi.fn<SqliteConnect>(async () => db);
      expect(await migrate(connect)).toEqual({ applied: [] });
      expect(connect).toHaveBeenCalledTimes(1);
    });

    it("a connect that rejects fails migrate() with an error naming it and the cause", async () => {
      const cause = new Error("the disk is read-only");
      const error = await migrate(() => Promise.reject(cause)).catch((e: unknown) => e);
      expect(error).toMatchObject({ message: "migrate: could not open the database: the disk is read-only", cause });
    });

    it("a connect that returns no client: a TypeError naming migrate", async () => {
      await expect(migrate(async () => ({}) as SqliteClient)).rejects.toThrow(
        new TypeError("migrate: expected the connect function to return a SqliteClient, a better-sqlite3 Database or a node:sqlite DatabaseSync."),
      );
    });

    it("migrate(connect) and SqliteAdapter(connect) on one connection share its client: concurrent use waits for the migration's transactions", async () => {
      const path = newFile();
      const connection = opened(path);
      const connect = () => connection;
      const adapter = SqliteAdapter(connect);
      const [{ applied }, user] = await Promise.all([
        migrate(connect),
        // Queued behind the migration's transaction on the shared client, so the table exists when it runs.
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 0));
          return adapter.createUser({ id: "v", email: "grace@example.com", emailVerified: null });
        })(),
      ]);
      expect(applied).toEqual(ALL);
      expect(user.id).toBe("v");
    });
  });

  describe("the lazy SqliteClient", () => {
    it("a transaction as the first call opens the database; it commits, rolls back on throw, and nests as a savepoint", async () => {
      const connect = vi.fn(() => main);
      const lazy = toSqliteClient(connect, "test");
      expect(connect).not.toHaveBeenCalled();
      await lazy.transaction(async (tx) => {
        await tx.exec("CREATE TABLE lazy_tx (x INTEGER)");
        await tx.query("INSERT INTO lazy_tx VALUES (?)", [1]);
        await tx
          .transaction(async (inner) => {
            await inner.query("INSERT INTO lazy_tx VALUES (?)", [2]);
            throw new Error("undo the inner step");
          })
          .catch(() => {});
      });
      expect(connect).toHaveBeenCalledTimes(1);
      await expect(
        lazy.transaction(async (tx) => {
          await tx.query("INSERT INTO lazy_tx VALUES (?)", [3]);
          throw new Error("undo everything");
        }),
      ).rejects.toThrow("undo everything");
      expect((await lazy.query("SELECT x FROM lazy_tx ORDER BY x")).rows).toEqual([{ x: 1 }]);
      await lazy.exec("DROP TABLE lazy_tx");
      expect(connect).toHaveBeenCalledTimes(1);
    });

    it("concurrent first calls, queries, scripts and transactions mixed, share one connect", async () => {
      const connect = slowConnect(() => db);
      const lazy = toSqliteClient(connect, "test");
      const results = await Promise.all([
        lazy.query<{ n: number }>("SELECT 1 AS n"),
        lazy.transaction((tx) => tx.query<{ n: number }>("SELECT 2 AS n")),
        lazy.exec("SELECT 3").then(() => ({ rows: [{ n: 3 }] })),
        lazy.query<{ n: number }>("SELECT ? AS n", [4]),
      ]);
      expect(results.map((r) => r.rows[0]?.n)).toEqual([1, 2, 3, 4]);
      expect(connect).toHaveBeenCalledTimes(1);
    });
  });
});
