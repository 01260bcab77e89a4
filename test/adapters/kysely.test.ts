/**
 * The SQL adapters on an app's Kysely instance (`fromKysely`), for apps that keep
 * only `new Kysely<DB>({ dialect })`: the shared conformance suite and database
 * sessions through our handler on Kysely's PostgresDialect (a real server,
 * `DATABASE_URL`), its PGliteDialect and its SqliteDialect over better-sqlite3;
 * `checkSchema`/`requireSchema` through it; what the wrapper does beyond the
 * adapter's calls (the app's plugins left out, savepoints, a Kysely
 * Transaction wrapped, SQLite's foreign keys and BEGIN IMMEDIATE), and what it
 * refuses: several statements in one text where the dialect prepares every query.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import Database from "better-sqlite3";
import { CamelCasePlugin, Kysely, PGliteDialect, PostgresDialect, SqliteDialect } from "kysely";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as postgres from "@gatehouse/runtime/adapters/postgres";
import { fromKysely as fromPostgresKysely } from "@gatehouse/runtime/adapters/postgres/kysely";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import * as sqlite from "@gatehouse/runtime/adapters/sqlite";
import { fromKysely as fromSqliteKysely } from "@gatehouse/runtime/adapters/sqlite/kysely";
import type { AuthDatabase as PostgresAuthDatabase } from "../../runtime/orm/kysely/postgres.js";
import type { AuthDatabase as SqliteAuthDatabase } from "../../runtime/orm/kysely/sqlite.js";
import { runDatabaseSessionTests } from "../runtime/database-sessions.js";
import { runAdapterConformance } from "./conformance.js";
import { postgresAddedColumns, sqliteAddedColumns } from "./support/added-columns.js";
import { openPGlite } from "./support/pglite.js";
import { NO_EXTRA_FIELDS } from "./support/postgres-checks.js";
import { createTestDatabase, droppablePool, type TestDatabase } from "./support/postgres-server.js";
import { expectTransactionsNest } from "./support/transactions.js";

const serverUrl = process.env.DATABASE_URL;
const TRUNCATE = "TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE";
const WHOLE = { pending: [], unknown: [], missing: [] };
const ALL_POSTGRES = postgres.migrations.map((migration) => migration.name);

/** The checks of the SqlClient that hold on every PostgreSQL dialect. */
function describePostgresClient(kysely: () => Promise<Kysely<PostgresAuthDatabase>>): void {
  it("checkSchema and requireSchema read the schema through it, with the ledger or without", async () => {
    const db = fromPostgresKysely(await kysely());
    expect(await postgres.checkSchema(db)).toEqual(WHOLE);
    expect(await postgres.checkSchema(db, { ledger: false })).toEqual(WHOLE);
    expect(await postgres.requireSchema(db, { ledger: false })).toEqual(WHOLE);
  });

  it("parameters bind in order and the rows come back as the driver reads them", async () => {
    const db = fromPostgresKysely(await kysely());
    expect((await db.query<{ sum: number }>("SELECT $1::int + $2::int AS sum", [40, 2])).rows).toEqual([{ sum: 42 }]);
    const at = new Date("2031-05-06T07:08:09.123Z");
    expect((await db.query<{ at: Date }>("SELECT $1::timestamptz AS at", [at])).rows[0]?.at).toEqual(at);
  });

  it("the app's plugins are left out: a CamelCasePlugin does not rename our columns", async () => {
    const db = fromPostgresKysely((await kysely()).withPlugin(new CamelCasePlugin()));
    expect((await db.query("SELECT 1 AS user_id")).rows).toEqual([{ user_id: 1 }]);
  });

  it("a transaction commits, rolls back on throw, and a nested one is a savepoint", async () => {
    const db = fromPostgresKysely(await kysely());
    await db.query("CREATE TABLE IF NOT EXISTS tx_probe (x int)");
    await db.query("DELETE FROM tx_probe");
    await expectTransactionsNest(db, "INSERT INTO tx_probe VALUES ($1)", async () => (await db.query<{ x: number }>("SELECT x FROM tx_probe ORDER BY x")).rows.map((row) => row.x));
  });

  it("a Kysely Transaction wrapped: the adapter's transactions are savepoints of it, and the app's rollback undoes them", async () => {
    const app = await kysely();
    const db = fromPostgresKysely(app);
    await db.query("CREATE TABLE IF NOT EXISTS tx_probe (x int)");
    await db.query("DELETE FROM tx_probe");
    await expect(
      app.transaction().execute(async (trx) => {
        const inApp = fromPostgresKysely(trx);
        await inApp.query("INSERT INTO tx_probe VALUES ($1)", [5]);
        await expect(
          inApp.transaction(async (tx) => {
            await tx.query("INSERT INTO tx_probe VALUES ($1)", [6]);
            throw new Error("savepoint only");
          }),
        ).rejects.toThrow("savepoint only");
        await inApp.transaction(async (tx) => void (await tx.query("INSERT INTO tx_probe VALUES ($1)", [7])));
        expect((await inApp.query<{ x: number }>("SELECT x FROM tx_probe ORDER BY x")).rows.map((row) => row.x)).toEqual([5, 7]);
        throw new Error("the app rolls back");
      }),
    ).rejects.toThrow("the app rolls back");
    expect((await db.query("SELECT x FROM tx_probe")).rows).toEqual([]);
  });

  it("requireSchema refuses a database without the auth tables, naming them", async () => {
    const app = await kysely();
    // Dropped inside a transaction the test then rolls back: the rest of the file runs on these tables.
    const dropped = app.transaction().execute(async (trx) => {
      const db = fromPostgresKysely(trx);
      await db.query("DROP TABLE authenticators");
      await expect(postgres.requireSchema(db, { ledger: false })).rejects.toThrow(postgres.SchemaMismatchError);
      await expect(postgres.requireSchema(db, { ledger: false })).rejects.toThrow(/authenticators/);
      throw new Error("undo the drop");
    });
    await expect(dropped).rejects.toThrow("undo the drop");
    expect(await postgres.checkSchema(fromPostgresKysely(app), { ledger: false })).toEqual(WHOLE);
  });
}

describe.skipIf(!serverUrl)("Kysely's PostgresDialect on a PostgreSQL server", () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let kysely: Kysely<PostgresAuthDatabase>;
  let created: Promise<void> | undefined;
  const ready = () =>
    (created ??= (async () => {
      database = await createTestDatabase(serverUrl!, "kysely");
      pool = droppablePool({ connectionString: database.url, max: 5 });
      kysely = new Kysely<PostgresAuthDatabase>({ dialect: new PostgresDialect({ pool }) });
      // Several statements per migration: node-postgres sends a text without parameters unprepared.
      expect(await postgres.migrate(fromPostgresKysely(kysely))).toEqual({ applied: ALL_POSTGRES });
    })());
  beforeAll(ready, 60_000);
  afterAll(async () => {
    await kysely?.destroy();
    await database?.drop();
  });
  const reset = async () => void (await fromPostgresKysely(kysely).query(TRUNCATE));

  runAdapterConformance({
    name: "postgres (server, Kysely's PostgresDialect through fromKysely)",
    setup: async () => {
      await ready();
      return postgres.PostgresAdapter(fromPostgresKysely(kysely));
    },
    reset,
    addedColumns: { ...postgresAddedColumns(() => fromPostgresKysely(kysely)), sessionIds: true },
    limits: { noExtraFields: NO_EXTRA_FIELDS },
  });

  runDatabaseSessionTests({
    name: "Kysely's PostgresDialect",
    setup: async () => {
      await ready();
      return postgres.PostgresAdapter(fromPostgresKysely(kysely));
    },
    reset,
  });

  describe("the SqlClient", () => {
    describePostgresClient(async () => (await ready(), kysely));

    it("migrate() runs through it: a second run applies nothing", async () => {
      await ready();
      expect(await postgres.migrate(fromPostgresKysely(kysely))).toEqual({ applied: [] });
    });

    it("a text of several statements runs, and answers no rows (Kysely's driver keeps none of them)", async () => {
      await ready();
      expect((await fromPostgresKysely(kysely).query("SELECT 1 AS a; SELECT 2 AS b")).rows).toEqual([]);
    });
  });
});

describe("Kysely's PGliteDialect", () => {
  let pglite: PGlite;
  let kysely: Kysely<PostgresAuthDatabase>;
  let opened: Promise<void> | undefined;
  const ready = () =>
    (opened ??= (async () => {
      pglite = await openPGlite();
      // Kysely's PGlite dialect prepares every query: the migrations' texts run on PGlite itself.
      await postgres.migrate(pglite);
      kysely = new Kysely<PostgresAuthDatabase>({ dialect: new PGliteDialect({ pglite }) });
    })());
  beforeAll(ready, 60_000);
  afterAll(async () => {
    await kysely?.destroy(); // closes the PGlite instance
  });
  const reset = async () => void (await pglite.exec(TRUNCATE));

  runAdapterConformance({
    name: "postgres (PGlite, Kysely's PGliteDialect through fromKysely)",
    setup: async () => {
      await ready();
      return postgres.PostgresAdapter(fromPostgresKysely(kysely));
    },
    reset,
    addedColumns: { ...postgresAddedColumns(() => fromPGlite(pglite)), sessionIds: true },
    limits: { noExtraFields: NO_EXTRA_FIELDS },
  });

  runDatabaseSessionTests({
    name: "Kysely's PGliteDialect",
    setup: async () => {
      await ready();
      return postgres.PostgresAdapter(fromPostgresKysely(kysely));
    },
    reset,
  });

  describe("the SqlClient", () => {
    describePostgresClient(async () => (await ready(), kysely));

    it("refuses a text of several statements, saying where to run migrate() instead; migrate() through it fails alike", async () => {
      await ready();
      const db = fromPostgresKysely(kysely);
      await expect(db.query("SELECT 1; SELECT 2")).rejects.toThrow(/one statement per query.*migrate\(\) on the driver's own connection/s);
      const fresh = new Kysely<PostgresAuthDatabase>({ dialect: new PGliteDialect({ pglite: await openPGlite() }) });
      try {
        await expect(postgres.migrate(fromPostgresKysely(fresh))).rejects.toThrow(/migration 0001_init failed.*one statement per query/s);
        // Rolled back whole: nothing recorded, no table made.
        expect(await postgres.checkSchema(fromPostgresKysely(fresh))).toMatchObject({ pending: ALL_POSTGRES });
      } finally {
        await fresh.destroy();
      }
    });
  });
});

describe("Kysely's SqliteDialect over better-sqlite3", () => {
  const directory = mkdtempSync(join(tmpdir(), "gatehouse-kysely-"));
  const database = new Database(join(directory, "app.db"));
  const kysely = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database }) });
  const ALL_SQLITE = sqlite.migrations.map((migration) => migration.name);
  beforeAll(async () => {
    // Kysely's SQLite dialect prepares every query: the migrations' scripts run on the Database itself.
    expect(await sqlite.migrate(database)).toEqual({ applied: ALL_SQLITE });
  });
  afterAll(async () => {
    await kysely.destroy(); // closes the Database
    rmSync(directory, { recursive: true, force: true });
  });
  const reset = () => void database.exec("DELETE FROM authenticators; DELETE FROM sessions; DELETE FROM accounts; DELETE FROM verification_token; DELETE FROM users;");

  runAdapterConformance({
    name: "sqlite (better-sqlite3, Kysely's SqliteDialect through fromKysely)",
    setup: () => sqlite.SqliteAdapter(fromSqliteKysely(kysely)),
    reset,
    addedColumns: { ...sqliteAddedColumns(() => database), sessionIds: true },
    limits: { noExtraFields: "the schema is the Auth.js tables in SQLite: fixed columns, none for fields beyond the contract's" },
  });

  runDatabaseSessionTests({
    name: "Kysely's SqliteDialect",
    setup: () => sqlite.SqliteAdapter(fromSqliteKysely(kysely)),
    reset,
  });

  describe("the SqliteClient", () => {
    const db = fromSqliteKysely(kysely);

    it("checkSchema and requireSchema read the schema through it, with the ledger or without", async () => {
      expect(await sqlite.checkSchema(db)).toEqual(WHOLE);
      expect(await sqlite.checkSchema(db, { ledger: false })).toEqual(WHOLE);
      expect(await sqlite.requireSchema(db, { ledger: false })).toEqual(WHOLE);
    });

    it("requireSchema refuses a database without the auth tables, naming them", async () => {
      const empty = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
      try {
        await expect(sqlite.requireSchema(fromSqliteKysely(empty), { ledger: false })).rejects.toThrow(sqlite.SchemaMismatchError);
        await expect(sqlite.requireSchema(fromSqliteKysely(empty), { ledger: false })).rejects.toThrow(/users/);
      } finally {
        await empty.destroy();
      }
    });

    it("parameters bind in order; a write without RETURNING answers no rows", async () => {
      expect((await db.query<{ sum: number }>("SELECT ? + ? AS sum", [40, 2])).rows).toEqual([{ sum: 42 }]);
      await db.exec("CREATE TABLE IF NOT EXISTS probe (x INTEGER)");
      expect((await db.query("INSERT INTO probe VALUES (?)", [1])).rows).toEqual([]);
      expect((await db.query("DELETE FROM probe RETURNING x")).rows).toEqual([{ x: 1 }]);
    });

    it("the app's plugins are left out: a CamelCasePlugin does not rename our columns", async () => {
      const camel = fromSqliteKysely(kysely.withPlugin(new CamelCasePlugin()));
      expect((await camel.query("SELECT 1 AS user_id")).rows).toEqual([{ user_id: 1 }]);
    });

    it("turns the foreign keys on before its first statement, where the connection had them off", async () => {
      const connection = new Database(":memory:");
      connection.pragma("foreign_keys = OFF");
      const off = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database: connection }) });
      try {
        expect((await fromSqliteKysely(off).query("PRAGMA foreign_keys")).rows).toEqual([{ foreign_keys: 1 }]);
      } finally {
        await off.destroy();
      }
    });

    it("refuses to run where the foreign keys cannot be turned on (a Transaction of a connection that has them off)", async () => {
      const connection = new Database(":memory:");
      connection.pragma("foreign_keys = OFF");
      const off = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database: connection }) });
      try {
        await off.transaction().execute(async (trx) => {
          await expect(fromSqliteKysely(trx).query("SELECT 1")).rejects.toThrow(/foreign_keys = ON` did not take effect/);
        });
      } finally {
        await off.destroy();
      }
    });

    it("a transaction commits, rolls back on throw, and a nested one is a savepoint", async () => {
      await db.exec("CREATE TABLE IF NOT EXISTS tx_probe (x INTEGER)");
      await db.exec("DELETE FROM tx_probe");
      await expectTransactionsNest(db, "INSERT INTO tx_probe VALUES (?)", async () => (await db.query<{ x: number }>("SELECT x FROM tx_probe ORDER BY x")).rows.map((row) => row.x));
    });

    it("a transaction takes the write lock at BEGIN (IMMEDIATE), before its first write; other calls wait for it", async () => {
      const other = new Database(join(directory, "app.db"), { timeout: 0 });
      try {
        const order: string[] = [];
        let outside: Promise<unknown> | undefined;
        await db.transaction(async (tx) => {
          await tx.query("SELECT 1");
          // Another connection cannot start writing: the lock is held although nothing was written yet.
          expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(/locked|busy/i);
          outside = db.query("SELECT 1").then(() => order.push("outside"));
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push("transaction ends");
        });
        await outside;
        expect(order).toEqual(["transaction ends", "outside"]);
      } finally {
        other.close();
      }
    });

    it("a Kysely Transaction wrapped: the adapter's transactions are savepoints of it, and the app's rollback undoes them", async () => {
      await db.exec("CREATE TABLE IF NOT EXISTS tx_probe (x INTEGER)");
      await db.exec("DELETE FROM tx_probe");
      await expect(
        kysely.transaction().execute(async (trx) => {
          const inApp = fromSqliteKysely(trx);
          await inApp.query("INSERT INTO tx_probe VALUES (?)", [5]);
          await expect(
            inApp.transaction(async (tx) => {
              await tx.query("INSERT INTO tx_probe VALUES (?)", [6]);
              throw new Error("savepoint only");
            }),
          ).rejects.toThrow("savepoint only");
          expect((await inApp.query<{ x: number }>("SELECT x FROM tx_probe")).rows).toEqual([{ x: 5 }]);
          throw new Error("the app rolls back");
        }),
      ).rejects.toThrow("the app rolls back");
      expect((await db.query("SELECT x FROM tx_probe")).rows).toEqual([]);
    });

    it("exec refuses a script of several statements, saying where to run migrate() instead; migrate() through it fails alike", async () => {
      await expect(db.exec("SELECT 1; SELECT 2;")).rejects.toThrow(/one statement per query.*migrate\(\) on the driver's own connection/s);
      const fresh = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
      try {
        await expect(sqlite.migrate(fromSqliteKysely(fresh))).rejects.toThrow(/migration 0001_init failed.*one statement per query/s);
        expect(await sqlite.checkSchema(fromSqliteKysely(fresh))).toMatchObject({ pending: ALL_SQLITE });
      } finally {
        await fresh.destroy();
      }
    });
  });
});
