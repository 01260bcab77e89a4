/**
 * The SQLite driver wrappers (`fromBetterSqlite3`, `fromNodeSqlite`: statements,
 * transactions that other calls wait for, savepoints, foreign keys on every
 * connection) and what `SqliteAdapter` decides beyond the shared suite (what
 * it returns, its errors, how it stores dates, booleans and big counters).
 * Each runs on every driver this Node can load; the others are skipped with the reason.
 */
import { describe, expect, it } from "vitest";
import { SqliteAdapter, SqliteAdapterError, migrate, type SqliteClient } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3, type BetterSqlite3Like } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { fromNodeSqlite, type DatabaseSyncLike } from "@gatehouse/runtime/adapters/sqlite/node-sqlite";

type Connection<Db> = Db & { close(): void };

interface Driver<Db extends BetterSqlite3Like | DatabaseSyncLike = BetterSqlite3Like | DatabaseSyncLike> {
  name: string;
  skip?: string;
  open(options?: { timeout?: number; readBigInts?: boolean }): Connection<Db>;
  wrap(db: Db): SqliteClient;
}

function fail(reason: string): never {
  throw new Error(reason);
}

async function betterSqlite3(): Promise<Driver> {
  try {
    const { default: Database } = await import("better-sqlite3");
    new Database(":memory:").close();
    return {
      name: "better-sqlite3",
      open: (options) => {
        const db = new Database(":memory:", options?.timeout === undefined ? {} : { timeout: options.timeout });
        if (options?.readBigInts) db.defaultSafeIntegers(true);
        return db;
      },
      wrap: (db) => fromBetterSqlite3(db as BetterSqlite3Like),
    };
  } catch (error) {
    const reason = `better-sqlite3 does not load on Node ${process.version}: ${(error as Error).message.replace(/\s+/g, " ")}`;
    return { name: "better-sqlite3", skip: reason, open: () => fail(reason), wrap: () => fail(reason) };
  }
}

async function nodeSqlite(): Promise<Driver> {
  type DatabaseSync = new (path: string, options?: { timeout?: number; readBigInts?: boolean }) => Connection<DatabaseSyncLike>;
  try {
    const specifier = "node:sqlite";
    const { DatabaseSync } = (process.getBuiltinModule?.(specifier) ?? (await import(/* @vite-ignore */ specifier))) as {
      DatabaseSync: DatabaseSync;
    };
    new DatabaseSync(":memory:").close();
    return {
      name: "node:sqlite",
      // DatabaseSync refuses an `undefined` options argument.
      open: (options) => (options ? new DatabaseSync(":memory:", options) : new DatabaseSync(":memory:")),
      wrap: (db) => fromNodeSqlite(db),
    };
  } catch (error) {
    const reason = `node:sqlite is not in Node ${process.version} (it is from Node 22.5): ${(error as Error).message.replace(/\s+/g, " ")}`;
    return { name: "node:sqlite", skip: reason, open: () => fail(reason), wrap: () => fail(reason) };
  }
}

const drivers = [await betterSqlite3(), await nodeSqlite()];

const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

function wrapperTests(driver: Driver): void {
  describe(`SqliteClient on ${driver.name}`, () => {
    it("turns foreign keys on, and wrapping the same connection twice gives the same client", async () => {
      const db = driver.open();
      db.exec("PRAGMA foreign_keys = OFF");
      const client = driver.wrap(db);
      expect(driver.wrap(db)).toBe(client);
      expect((await client.query("PRAGMA foreign_keys")).rows).toEqual([{ foreign_keys: 1 }]);
      db.close();
    });

    it("a connection opened with the driver's defaults waits 5000 ms for the write lock; one with its own timeout keeps it", async () => {
      // node:sqlite's default is 0 (fail at once), which the wrapper raises to better-sqlite3's 5000.
      const defaults = driver.open();
      expect((await driver.wrap(defaults).query("PRAGMA busy_timeout")).rows).toEqual([{ timeout: 5000 }]);
      const own = driver.open({ timeout: 1234 });
      expect((await driver.wrap(own).query("PRAGMA busy_timeout")).rows).toEqual([{ timeout: 1234 }]);
      defaults.close();
      own.close();
    });

    it("refuses a connection inside a transaction, where foreign keys cannot be turned on", () => {
      const db = driver.open();
      db.exec("PRAGMA foreign_keys = OFF; BEGIN");
      expect(() => driver.wrap(db)).toThrow(/foreign_keys.*transaction/);
      db.close();
    });

    it("query binds ? in order, returns a SELECT's or RETURNING's rows as plain objects, [] for other writes", async () => {
      const db = driver.open();
      const client = driver.wrap(db);
      await client.exec("CREATE TABLE t (a INTEGER, b TEXT); CREATE TABLE u (x INTEGER)");
      expect((await client.query("INSERT INTO t VALUES (?, ?)", [1, "one"])).rows).toEqual([]);
      expect((await client.query("INSERT INTO t VALUES (?, ?) RETURNING b, a", [2, "two"])).rows).toEqual([{ b: "two", a: 2 }]);
      const { rows } = await client.query("SELECT a, b FROM t WHERE a >= ? ORDER BY a", [1]);
      expect(rows).toEqual([
        { a: 1, b: "one" },
        { a: 2, b: "two" },
      ]);
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
      await expect(client.query("SELECT * FROM no_such_table")).rejects.toThrow(/no such table/);
      db.close();
    });

    it("transaction commits, rolls back on throw, and nests as a savepoint", async () => {
      const db = driver.open();
      const client = driver.wrap(db);
      await client.exec("CREATE TABLE tx_test (x INTEGER)");
      await client.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_test VALUES (?)", [1]);
        await tx
          .transaction(async (inner) => {
            await inner.query("INSERT INTO tx_test VALUES (?)", [2]);
            throw new Error("undo the inner step");
          })
          .catch(() => {});
        await tx.transaction(async (inner) => inner.query("INSERT INTO tx_test VALUES (?)", [3]));
      });
      await expect(
        client.transaction(async (tx) => {
          await tx.query("INSERT INTO tx_test VALUES (?)", [4]);
          throw new Error("undo everything");
        }),
      ).rejects.toThrow("undo everything");
      expect((await client.query("SELECT x FROM tx_test ORDER BY x")).rows).toEqual([{ x: 1 }, { x: 3 }]);
      db.close();
    });

    it("while a transaction is open, other calls wait for it instead of joining it", async () => {
      const db = driver.open();
      const client = driver.wrap(db);
      await client.exec("CREATE TABLE tx_test (x INTEGER)");
      const order: string[] = [];
      let inside!: () => void;
      const started = new Promise<void>((resolve) => (inside = resolve));
      const rolledBack = client
        .transaction(async (tx) => {
          await tx.query("INSERT INTO tx_test VALUES (?)", [1]);
          inside();
          await new Promise((resolve) => setTimeout(resolve, 20)); // e.g. a fetch between two statements
          order.push("transaction");
          throw new Error("roll back");
        })
        .catch(() => {});
      await started;
      const outside = client.query("INSERT INTO tx_test VALUES (?)", [2]).then(() => order.push("outside"));
      await Promise.all([rolledBack, outside]);
      expect(order).toEqual(["transaction", "outside"]);
      // The outside insert was not part of the rolled-back transaction.
      expect((await client.query("SELECT x FROM tx_test")).rows).toEqual([{ x: 2 }]);
      db.close();
    });

    it("a transaction's tx cannot be used after it ended", async () => {
      const db = driver.open();
      const client = driver.wrap(db);
      const kept = await client.transaction(async (tx) => tx);
      await expect(kept.query("SELECT 1")).rejects.toThrow(/transaction has ended/);
      db.close();
    });
  });
}

function adapterTests(driver: Driver): void {
  describe(`SqliteAdapter on ${driver.name}, beyond the suite`, () => {
    async function fresh(options?: Parameters<Driver["open"]>[0]) {
      const db = driver.open(options);
      await migrate(db);
      return { db, adapter: SqliteAdapter(db) };
    }

    it("takes the raw driver connection as well as a SqliteClient, and migrate() shares its client", async () => {
      const db = driver.open();
      await migrate(db);
      const user = await SqliteAdapter(db).createUser({ id: "user-1", email: "ada@example.com", emailVerified: null });
      expect(user.id).toBe("user-1");
      expect((await SqliteAdapter(driver.wrap(db)).getUser("user-1"))?.email).toBe("ada@example.com");
      db.close();
    });

    it("returns what it changed or removed; not_found errors name the row", async () => {
      const { db, adapter } = await fresh();
      const user = await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada" });
      expect(user).toEqual({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada", image: null });
      const session = await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
      expect(await adapter.deleteSession("t")).toEqual(session);
      expect(await adapter.deleteSession("t")).toBeNull();
      const account = { userId: "u", type: "oauth" as const, provider: "github", providerAccountId: "1", token_type: "Bearer" };
      expect(await adapter.linkAccount(account)).toEqual({ ...account, token_type: "bearer" });
      expect(await adapter.unlinkAccount(account)).toEqual({ ...account, token_type: "bearer" });
      expect(await adapter.unlinkAccount(account)).toBeUndefined();
      expect(await adapter.deleteUser("u")).toEqual(user);
      expect(await adapter.deleteUser("u")).toBeNull();

      const updateError = await Promise.resolve(adapter.updateUser({ id: "nobody", name: "x" })).catch((e: unknown) => e);
      expect(updateError).toBeInstanceOf(SqliteAdapterError);
      expect(updateError).toMatchObject({ code: "not_found", message: expect.stringMatching(/nobody/) });
      await expect(Promise.resolve(adapter.updateAuthenticatorCounter("no-such-credential", 1))).rejects.toThrow(
        /no-such-credential.*does not exist/,
      );
      db.close();
    });

    it("createUser without an id assigns a UUID", async () => {
      const { db, adapter } = await fresh();
      const user = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
      expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      db.close();
    });

    it("a row inserted by another tool without an id gets a UUID from the schema", async () => {
      const { db } = await fresh();
      db.exec("INSERT INTO users (email) VALUES ('grace@example.com')");
      const [row] = db.prepare("SELECT id FROM users").all() as { id: string }[];
      expect(row?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      db.close();
    });

    it("stores dates as INTEGER milliseconds and booleans as 0/1, and maps them back", async () => {
      const { db, adapter } = await fresh();
      const verified = new Date("2024-02-03T04:05:06.789Z");
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: verified });
      await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
      await adapter.createVerificationToken({ identifier: "ada@example.com", token: "h", expires: EXPIRES });
      await adapter.createAuthenticator({
        userId: "u",
        credentialID: "c",
        providerAccountId: "c",
        credentialPublicKey: "k",
        counter: 1,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
      });
      const raw = (sql: string) => ({ ...(db.prepare(sql).all()[0] as object) });
      expect(raw(`SELECT "emailVerified", typeof("emailVerified") AS type FROM users`)).toEqual({
        emailVerified: verified.getTime(),
        type: "integer",
      });
      expect(raw("SELECT expires FROM sessions")).toEqual({ expires: EXPIRES.getTime() });
      expect(raw("SELECT expires FROM verification_token")).toEqual({ expires: EXPIRES.getTime() });
      expect(raw(`SELECT "credentialBackedUp" FROM authenticators`)).toEqual({ credentialBackedUp: 1 });
      expect((await adapter.getAuthenticator("c"))?.credentialBackedUp).toBe(true);
      expect((await adapter.getUser("u"))?.emailVerified).toEqual(verified);
      db.close();
    });

    it("the schema refuses values of the wrong type (STRICT tables)", async () => {
      const { db } = await fresh();
      expect(() => db.exec(`INSERT INTO users (id, email, "emailVerified") VALUES ('x', 'x@example.com', '2024-01-01')`)).toThrow(
        /cannot store TEXT value in INTEGER column/,
      );
      db.close();
    });

    it("stores WebAuthn counters beyond 32-bit signed range and returns them as numbers", async () => {
      const { db, adapter } = await fresh();
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
      const authenticator = {
        userId: "u",
        credentialID: "c",
        providerAccountId: "c",
        credentialPublicKey: "k",
        counter: 2 ** 32 - 1,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      };
      expect(await adapter.createAuthenticator(authenticator)).toEqual({ ...authenticator, transports: null });
      expect((await adapter.getAuthenticator("c"))?.counter).toBe(2 ** 32 - 1);
      db.close();
    });

    it("on a connection that reads integers as BigInt, numbers and dates still come back as numbers and Dates", async () => {
      const { db, adapter } = await fresh({ readBigInts: true });
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: EXPIRES });
      const session = await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
      expect(session.expires).toEqual(EXPIRES);
      await adapter.linkAccount({ userId: "u", type: "oauth", provider: "github", providerAccountId: "1", expires_at: 1_900_000_000 });
      expect((await adapter.getAccount("1", "github"))?.expires_at).toBe(1_900_000_000);
      const found = await adapter.getSessionAndUser("t");
      expect(found?.user.emailVerified).toEqual(EXPIRES);
      // The whole row: its INTEGER id a number too, so a session callback's result goes through JSON.
      expect(typeof (found?.session as { id?: unknown } | undefined)?.id).toBe("number");
      db.close();
    });

    it("updateUser with no field to change returns the user unchanged", async () => {
      const { db, adapter } = await fresh();
      const user = await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada" });
      expect(await adapter.updateUser({ id: "u", name: undefined })).toEqual(user);
      db.close();
    });

    it("updateAccount returns exactly the account's fields; stores token_type lowercased, expires_at as INTEGER, NULL to clear", async () => {
      const { db, adapter } = await fresh();
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
      await adapter.linkAccount({ userId: "u", type: "oauth", provider: "github", providerAccountId: "1", scope: "read", refresh_token: "r0" });
      const key = { provider: "github", providerAccountId: "1" };
      const updated = await adapter.updateAccount({ ...key, token_type: "Bearer", expires_at: 4_102_444_800, scope: null });
      expect(updated).toEqual({ userId: "u", type: "oauth", ...key, refresh_token: "r0", token_type: "bearer", expires_at: 4_102_444_800 });
      const rows = db.prepare("SELECT token_type, typeof(expires_at) AS expires_type, scope FROM accounts").all();
      expect(rows.map((row) => ({ ...(row as object) }))).toEqual([{ token_type: "bearer", expires_type: "integer", scope: null }]);
      // `IS ?`: a NULL condition compares equal to a NULL column, and only to one.
      expect(await adapter.updateAccount({ ...key, access_token: "a" }, { refresh_token: null })).toBeNull();
      db.close();
    });

    it("an invalid date is refused before it reaches the database", async () => {
      const { db, adapter } = await fresh();
      await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
      await expect(adapter.createSession({ sessionToken: "t", userId: "u", expires: new Date(Number.NaN) })).rejects.toThrow(
        /expires is not a valid date/,
      );
      db.close();
    });

    it("a session or account of an unknown user is refused (foreign keys are on)", async () => {
      const { db, adapter } = await fresh();
      await expect(adapter.createSession({ sessionToken: "t", userId: "ghost", expires: EXPIRES })).rejects.toThrow(/FOREIGN KEY/);
      await expect(
        Promise.resolve(adapter.linkAccount({ userId: "ghost", type: "oauth", provider: "github", providerAccountId: "1" })),
      ).rejects.toThrow(/FOREIGN KEY/);
      db.close();
    });
  });
}

for (const driver of drivers) {
  if (driver.skip) {
    describe.skip(`SqliteClient and SqliteAdapter on ${driver.name} (skipped: ${driver.skip})`, () => {
      it.todo(`runs where ${driver.name} loads`);
    });
    continue;
  }
  wrapperTests(driver);
  adapterTests(driver);
}

describe("SqliteAdapter input", () => {
  it("rejects what is not a client, a better-sqlite3 Database or a DatabaseSync", () => {
    expect(() => SqliteAdapter({} as SqliteClient)).toThrow(TypeError);
    expect(() => SqliteAdapter(null as unknown as SqliteClient)).toThrow(/SqliteAdapter: expected a SqliteClient/);
  });

  it("passes a SqliteClient through unchanged (e.g. one written for an asynchronous driver)", async () => {
    const seen: string[] = [];
    const client: SqliteClient = {
      query: async (sql) => {
        seen.push(sql);
        return { rows: [] };
      },
      exec: async () => {},
      transaction: (fn) => fn(client),
    };
    expect(await SqliteAdapter(client).getUser("u")).toBeNull();
    expect(seen).toEqual([`SELECT * FROM users WHERE id = ?`]);
  });
});
