/**
 * The SQLite adapter: the shared conformance suite on better-sqlite3 (in memory
 * and in a file) and on node:sqlite where this Node has it, `migrate()` on both
 * drivers, and the inlined migrations. Wrappers, transactions and what the
 * adapter decides beyond the contract are in sqlite-client.test.ts.
 *
 * Each driver is loaded here, not imported: a driver this Node cannot load
 * (better-sqlite3 built for another Node, node:sqlite before Node 22.5) skips
 * its tests with the reason instead of failing the file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteAdapter, migrate, migrations } from "@gatehouse/runtime/adapters/sqlite";
import type { BetterSqlite3Like } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import type { DatabaseSyncLike } from "@gatehouse/runtime/adapters/sqlite/node-sqlite";
import { runAdapterConformance } from "./conformance.js";
import { sqliteAddedColumns } from "./support/added-columns.js";

/** A connection of either driver, as the tests open and close it. */
type Connection = (BetterSqlite3Like | DatabaseSyncLike) & { close(): void };

interface Driver {
  name: string;
  /** Why this driver's tests are skipped; undefined when it loads. */
  skip?: string;
  /** Opens a connection; `timeout` is the busy timeout in ms. */
  open(path: string, options?: { timeout?: number }): Connection;
}

function fail(reason: string): never {
  throw new Error(reason);
}

async function betterSqlite3(): Promise<Driver> {
  try {
    const { default: Database } = await import("better-sqlite3");
    new Database(":memory:").close(); // the native module loads only now
    return { name: "better-sqlite3", open: (path, options) => new Database(path, options) };
  } catch (error) {
    const reason = `better-sqlite3 does not load on Node ${process.version} (npm i -D better-sqlite3@12): ${(error as Error).message.replace(/\s+/g, " ")}`;
    return { name: "better-sqlite3", skip: reason, open: () => fail(reason) };
  }
}

async function nodeSqlite(): Promise<Driver> {
  type DatabaseSync = new (path: string, options?: { timeout?: number }) => Connection;
  try {
    const specifier = "node:sqlite";
    const mod = (process.getBuiltinModule?.(specifier) ?? (await import(/* @vite-ignore */ specifier))) as { DatabaseSync: DatabaseSync };
    const { DatabaseSync } = mod;
    new DatabaseSync(":memory:").close();
    // DatabaseSync refuses an `undefined` options argument.
    return { name: "node:sqlite", open: (path, options) => (options ? new DatabaseSync(path, options) : new DatabaseSync(path)) };
  } catch (error) {
    const reason = `node:sqlite is not in Node ${process.version} (it is from Node 22.5): ${(error as Error).message.replace(/\s+/g, " ")}`;
    return { name: "node:sqlite", skip: reason, open: () => fail(reason) };
  }
}

const drivers = [await betterSqlite3(), await nodeSqlite()];

const directory = mkdtempSync(join(tmpdir(), "gatehouse-sqlite-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
/** A new database file's path in this file's temp directory. */
const newFile = () => join(directory, `auth-${++files}.db`);

// Children before parents; the cascades would do it too, but this does not depend on them.
const EMPTY_TABLES = `DELETE FROM authenticators; DELETE FROM sessions; DELETE FROM accounts;
  DELETE FROM verification_token; DELETE FROM users;`;

/** The conformance suite on one database (in memory, or in a file). */
function conformance(driver: Driver, where: "memory" | "file"): void {
  let db: Connection;
  runAdapterConformance({
    name: `sqlite (${driver.name}, ${where === "memory" ? ":memory:" : "file"})`,
    async setup() {
      db = driver.open(where === "memory" ? ":memory:" : newFile());
      await migrate(db);
      return SqliteAdapter(db);
    },
    reset() {
      db.exec(EMPTY_TABLES);
    },
    teardown: () => db?.close(),
    addedColumns: { ...sqliteAddedColumns(() => db), sessionIds: true },
    limits: {
      noExtraFields: "the schema is the Auth.js tables in SQLite: fixed columns, none for fields beyond the contract's",
    },
  });
}

const ALL = migrations.map((m) => m.name);

function ledger(db: Connection): string[] {
  return (db.prepare("SELECT name FROM gatehouse_migrations ORDER BY name").all() as { name: string }[]).map((r) => r.name);
}

function tables(db: Connection): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  return rows.map((r) => r.name);
}

/** `migrate()` on one driver: each test opens its own database. */
function migrateTests(driver: Driver): void {
  describe(`migrate() on ${driver.name}`, () => {
    it("applies and records every migration once; a second run applies nothing; the SQL re-runs harmlessly", async () => {
      const db = driver.open(":memory:");
      const before = Date.now();
      expect(await migrate(db)).toEqual({ applied: ALL });
      expect(ledger(db)).toEqual(ALL);
      expect(tables(db)).toEqual(["accounts", "authenticators", "gatehouse_migrations", "rate_limits", "sessions", "user_passwords", "users", "verification_token"]);
      const [row] = db.prepare("SELECT applied_at FROM gatehouse_migrations").all() as { applied_at: number }[];
      expect(row!.applied_at).toBeGreaterThanOrEqual(before);
      expect(row!.applied_at).toBeLessThanOrEqual(Date.now());

      expect(await migrate(db)).toEqual({ applied: [] });
      expect(ledger(db)).toEqual(ALL);
      // For people who apply the .sql files with their own tool, maybe twice: all but 0004, whose
      // ADD COLUMNs SQLite cannot make conditional (its header says to apply it once), re-run harmlessly.
      for (const migration of migrations) {
        if (migration.name === "0004_account_management") expect(() => db.exec(migration.sql)).toThrow(/duplicate column name/);
        else db.exec(migration.sql);
      }
      expect(tables(db)).toHaveLength(8);
      db.close();
    });

    it("files applied by hand, then migrate(): 0004 recorded with the README's statement is not applied again", async () => {
      const db = driver.open(":memory:");
      for (const migration of migrations) db.exec(migration.sql);
      const readme = readFileSync(new URL("../../runtime/migrations/sqlite/README.md", import.meta.url), "utf8");
      const record = /```sql\n(CREATE TABLE IF NOT EXISTS gatehouse_migrations[^`]+)```/.exec(readme)?.[1];
      expect(record).toContain("INSERT INTO gatehouse_migrations");
      db.exec(record!);
      expect(await migrate(db)).toEqual({ applied: ALL.filter((name) => name !== "0004_account_management") });
      expect(ledger(db)).toEqual(ALL);
      db.close();
    });

    it("applies a pending migration; a failing one is rolled back entirely and not recorded", async () => {
      const db = driver.open(":memory:");
      const extra = [...migrations, { name: "9001_extra", sql: "CREATE TABLE extra_a (x INTEGER); CREATE TABLE extra_b (x INTEGER);" }];
      expect(await migrate(db)).toEqual({ applied: ALL });
      expect(await migrate(db, { migrations: extra })).toEqual({ applied: ["9001_extra"] });

      const failing = [...extra, { name: "9002_broken", sql: "CREATE TABLE extra_c (x INTEGER); INSERT INTO no_such_table VALUES (1);" }];
      await expect(migrate(db, { migrations: failing })).rejects.toThrow(/9002_broken.*no such table/);
      expect(ledger(db)).toEqual([...ALL, "9001_extra"]);
      expect(tables(db)).not.toContain("extra_c");

      await expect(migrate(db, { migrations: [extra[0]!, extra[0]!] })).rejects.toThrow(/same name/);
      db.close();
    });

    it("concurrent runs on one connection apply each migration exactly once", async () => {
      const db = driver.open(":memory:");
      const results = await Promise.all([migrate(db), migrate(db), migrate(db)]);
      // Each once, among the runs in whatever turns they took; the ledger keeps their order.
      expect(results.flatMap((r) => r.applied).sort()).toEqual(ALL);
      expect(ledger(db)).toEqual(ALL);
      db.close();
    });

    it("concurrent runs on several connections to one file take turns (BEGIN IMMEDIATE)", async () => {
      const path = newFile();
      const connections = [driver.open(path), driver.open(path), driver.open(path)];
      const results = await Promise.all(connections.map((db) => migrate(db)));
      expect(results.flatMap((r) => r.applied)).toEqual(ALL);
      expect(ledger(connections[0]!)).toEqual(ALL);
      for (const db of connections) db.close();
    });

    it("waits for another connection's write lock without blocking the event loop", async () => {
      const path = newFile();
      const holder = driver.open(path);
      const db = driver.open(path, { timeout: 5000 });
      holder.exec("BEGIN IMMEDIATE");
      let released = false;
      // Runs only if the event loop is free while migrate() waits for the lock.
      setTimeout(() => {
        holder.exec("COMMIT");
        released = true;
      }, 100);
      expect(await migrate(db)).toEqual({ applied: ALL });
      expect(released).toBe(true);
      expect(db.prepare("PRAGMA busy_timeout").all()).toEqual([expect.objectContaining({ timeout: 5000 })]);
      holder.close();
      db.close();
    });

    it("gives up after the connection's busy timeout with SQLite's busy error, and restores the timeout", async () => {
      const path = newFile();
      const holder = driver.open(path);
      const db = driver.open(path, { timeout: 50 });
      holder.exec("BEGIN IMMEDIATE");
      await expect(migrate(db)).rejects.toThrow(/database is locked/);
      expect(db.prepare("PRAGMA busy_timeout").all()).toEqual([expect.objectContaining({ timeout: 50 })]);
      holder.exec("COMMIT");
      expect(await migrate(db)).toEqual({ applied: ALL });
      holder.close();
      db.close();
    });
  });
}

/** `adoptUnprovenUser` and `user_passwords`, on rows written by SQL (the conformance suite sees the password only through the adapter). */
function adoptionTests(driver: Driver): void {
  describe(`adoptUnprovenUser and passwords on ${driver.name}`, () => {
    it("deletes the user's password row, no other, in its one transaction", async () => {
      const db = driver.open(":memory:");
      await migrate(db);
      const adapter = SqliteAdapter(db);
      await adapter.createUser({ id: "claimed", email: "claimed@example.com", emailVerified: null });
      await adapter.createUser({ id: "proven", email: "proven@example.com", emailVerified: new Date("2024-02-03T04:05:06.789Z") });
      await adapter.createUser({ id: "bystander", email: "bystander@example.com", emailVerified: null });
      db.exec(`INSERT INTO user_passwords ("userId", hash) VALUES ('claimed', 'h1'), ('proven', 'h2'), ('bystander', 'h3')`);
      const passwords = () =>
        (db.prepare(`SELECT "userId" FROM user_passwords ORDER BY "userId"`).all() as { userId: string }[]).map((row) => row.userId);

      const now = new Date("2025-06-07T08:09:10.123Z");
      expect(await adapter.adoptUnprovenUser("claimed", { email: "claimed@example.com", emailVerified: now })).toMatchObject({ revoked: true });
      expect(await adapter.adoptUnprovenUser("proven", { email: "proven@example.com", emailVerified: now })).toMatchObject({ revoked: false });
      expect(await adapter.adoptUnprovenUser("bystander", { email: "someone@example.com", emailVerified: now })).toBeNull();
      expect(passwords()).toEqual(["bystander", "proven"]);

      // The password's delete fails (it comes last): the user stays unproven with its account and password.
      await adapter.linkAccount({ userId: "bystander", type: "oauth", provider: "github", providerAccountId: "1" });
      db.exec(`CREATE TRIGGER refuse_delete BEFORE DELETE ON user_passwords BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      await expect(adapter.adoptUnprovenUser("bystander", { email: "bystander@example.com", emailVerified: now })).rejects.toThrow(/refused/);
      expect((await adapter.getUser("bystander"))?.emailVerified).toBeNull();
      expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "1" }))?.id).toBe("bystander");
      expect(passwords()).toEqual(["bystander", "proven"]);
      db.close();
    });
  });
}

/** The password methods on `user_passwords`, beyond what the conformance suite sees through the adapter. */
function passwordTests(driver: Driver): void {
  describe(`password methods on ${driver.name}`, () => {
    it("updatedAt moves to now on each write only; a failing step rolls back the whole call", async () => {
      const db = driver.open(":memory:");
      await migrate(db);
      const adapter = SqliteAdapter(db);
      const age = () => db.exec(`UPDATE user_passwords SET "updatedAt" = 0`);
      const updatedAt = () => Number((db.prepare(`SELECT "updatedAt" FROM user_passwords WHERE "userId" = 'ada'`).all() as { updatedAt: number }[])[0]?.updatedAt);
      const expectNow = () => expect(Math.abs(updatedAt() - Date.now())).toBeLessThan(60_000);

      await adapter.createUserWithPassword({ id: "ada", email: "ada@example.com", emailVerified: null }, "h1");
      expectNow();
      age();
      expect(await adapter.setUserPassword("ada", "h2")).toBe(true);
      expectNow();
      age();
      expect(await adapter.setUserPassword("ada", "h3", { previous: "h2" })).toBe(true);
      expectNow();
      age();
      expect(await adapter.setUserPassword("ada", "h4", { previous: "stale" })).toBe(false);
      expect(await adapter.setUserPassword("ada", "h4", { previous: null })).toBe(false);
      expect(updatedAt()).toBe(0);

      // The password insert fails (it comes second): the user is not created either.
      db.exec(`CREATE TRIGGER refuse_insert BEFORE INSERT ON user_passwords BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      await expect(adapter.createUserWithPassword({ email: "grace@example.com", emailVerified: null }, "g1")).rejects.toThrow(/refused/);
      expect(await adapter.getUserByEmail("grace@example.com")).toBeNull();
      // The sessions' delete fails (it comes after the write): the password stays as it was.
      db.exec(`CREATE TRIGGER refuse_delete BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      await adapter.createSession({ sessionToken: "ada-session", userId: "ada", expires: new Date("2031-05-06T07:08:09.123Z") });
      await expect(adapter.setUserPassword("ada", "h5", { previous: "h3", revokeSessions: true })).rejects.toThrow(/refused/);
      expect(await adapter.getUserPassword("ada")).toBe("h3");
      expect(await adapter.getSessionAndUser("ada-session")).not.toBeNull();
      db.close();
    });

    it("two connections to one file: one sign-up per email, one compare-and-set per hash", async () => {
      const file = newFile();
      const connections = [driver.open(file, { timeout: 5_000 }), driver.open(file, { timeout: 5_000 })];
      await migrate(connections[0]!);
      const [first, second] = connections.map((connection) => SqliteAdapter(connection)) as [ReturnType<typeof SqliteAdapter>, ReturnType<typeof SqliteAdapter>];
      const signUp = (adapter: typeof first, name: string) =>
        adapter.createUserWithPassword({ email: "race@example.com", name, emailVerified: null }, `hash-of-${name}`);
      const users = await Promise.all([signUp(first, "a"), signUp(second, "b"), signUp(first, "c"), signUp(second, "d")]);
      const winners = users.filter((user) => user !== null);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(await second.getUserPassword(winner.id)).toBe(`hash-of-${winner.name}`);

      const stored = `hash-of-${winner.name}`;
      const written = await Promise.all([first, second, first, second].map((adapter, i) => adapter.setUserPassword(winner.id, `new-${i}`, { previous: stored })));
      expect(written.filter(Boolean)).toHaveLength(1);
      expect(await first.getUserPassword(winner.id)).toBe(`new-${written.indexOf(true)}`);
      for (const connection of connections) connection.close();
    });
  });
}

for (const driver of drivers) {
  if (driver.skip) {
    describe.skip(`sqlite adapter on ${driver.name} (skipped: ${driver.skip})`, () => {
      it.todo(`runs where ${driver.name} loads`);
    });
    continue;
  }
  conformance(driver, "memory");
  conformance(driver, "file");
  migrateTests(driver);
  adoptionTests(driver);
  passwordTests(driver);
}

describe.skipIf(Boolean(drivers[0]!.skip))("database round trips (better-sqlite3)", () => {
  it("getSessionAndUser is two reads by key (both rows whole: SQLite cannot carry one inside the other), no write", async () => {
    const { fromBetterSqlite3 } = await import("@gatehouse/runtime/adapters/sqlite/better-sqlite3");
    const connection = drivers[0]!.open(":memory:") as BetterSqlite3Like & { close(): void };
    const client = fromBetterSqlite3(connection);
    await migrate(client);
    const statements: string[] = [];
    const counting = {
      query: ((sql: string, params?: readonly (string | number | bigint | Uint8Array | null)[]) => {
        statements.push(sql);
        return client.query(sql, params);
      }) as typeof client.query,
      exec: (sql: string) => client.exec(sql),
      transaction: <T>(fn: (tx: typeof client) => Promise<T>) => client.transaction(fn),
    };
    const adapter = SqliteAdapter(counting);
    const user = await adapter.createUser({ id: "", email: "rt@example.com", emailVerified: null });
    await adapter.createSession({ sessionToken: "rt-token", userId: user.id, expires: new Date(Date.now() + 60_000) });
    statements.length = 0;
    expect((await adapter.getSessionAndUser("rt-token"))?.user.id).toBe(user.id);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^SELECT \* FROM sessions WHERE "sessionToken" = \?$/);
    expect(statements[1]).toMatch(/^SELECT \* FROM users WHERE id = \?$/);
    connection.close();
  });
});
