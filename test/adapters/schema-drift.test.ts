/**
 * `checkSchema()` and `migrate()` against databases this runtime did not make
 * as they are: one made by an older schema (the released migrations without the
 * last), one a newer runtime migrated further (a ledger row and a table this
 * runtime does not know), and one changed by hand after it was migrated (a
 * column and an index gone). `checkSchema` reports each without changing
 * anything; `migrate()` brings the older one up to date and refuses the other
 * two with a message that names what differs and what to do, so an app stops
 * at its first use of the database rather than at its first sign-up. On real
 * databases: PostgreSQL on PGlite, SQLite on better-sqlite3, a hosted-store
 * branch on PGlite.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import * as hostedStore from "@gatehouse/runtime/adapters/hosted-store";
import * as postgres from "@gatehouse/runtime/adapters/postgres";
import * as sqlite from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { inSchema, usePGlite } from "./support/pglite.js";

type Migration = postgres.Migration;
type Report = postgres.SchemaReport;

/** One dialect: a fresh database, and its migrate / checkSchema / SQL run on it. */
interface Dialect {
  name: string;
  migrations: readonly Migration[];
  fresh(): Promise<Database_>;
}
interface Database_ {
  migrate(options?: { migrations?: readonly Migration[]; allowNewerSchema?: boolean }): Promise<{ applied: string[] }>;
  check(options?: { migrations?: readonly Migration[] }): Promise<Report>;
  exec(sql: string): Promise<void>;
  /** The sessions table as this dialect's schema names it. */
  sessions: string;
}

const { db } = usePGlite();
let schemas = 0;

/** PostgreSQL on PGlite: each database is a schema of its own, reached through the search path. */
const postgresDialect: Dialect = {
  name: "PostgreSQL (PGlite)",
  migrations: postgres.migrations,
  async fresh() {
    const schema = `drift_${++schemas}`;
    await db.query(`CREATE SCHEMA ${schema}`);
    return {
      migrate: (options) => inSchema(db, schema, (tx) => postgres.migrate(tx, options)),
      check: (options) => inSchema(db, schema, (tx) => postgres.checkSchema(tx, options)),
      exec: (sql) => inSchema(db, schema, async (tx) => void (await tx.query(sql))),
      sessions: "sessions",
    };
  },
};

const sqliteDialect: Dialect = {
  name: "SQLite (better-sqlite3)",
  migrations: sqlite.migrations,
  async fresh() {
    const db = fromBetterSqlite3(new Database(":memory:"));
    return {
      migrate: (options) => sqlite.migrate(db, options),
      check: (options) => sqlite.checkSchema(db, options),
      exec: (sql) => db.exec(sql),
      sessions: "sessions",
    };
  },
};

const hostedStoreDialect: Dialect = {
  name: "hosted store (a PGlite branch)",
  migrations: hostedStore.migrations,
  async fresh() {
    const branch = `drift_branch_${++schemas}`;
    const store = new hostedStore.HostedStoreClient({ client: db, branch });
    return {
      migrate: (options) => hostedStore.migrate(store, options),
      check: (options) => hostedStore.checkSchema(store, options),
      exec: (sql) => inSchema(db, branch, async (tx) => void (await tx.query(sql))),
      sessions: "svc_sessions",
    };
  },
};

const FUTURE: Migration = { name: "9999_future", sql: "CREATE TABLE future_things (id text PRIMARY KEY)" };

describe.each([postgresDialect, sqliteDialect, hostedStoreDialect])("$name", (dialect) => {
  const all = () => dialect.migrations.map((migration) => migration.name);
  const last = () => all().at(-1)!;

  it("a fresh database: everything pending, nothing unknown or missing; after migrate(), nothing at all", async () => {
    const db = await dialect.fresh();
    expect(await db.check()).toEqual({ pending: all(), unknown: [], missing: [] });
    expect((await db.migrate()).applied).toEqual(all());
    expect(await db.check()).toEqual({ pending: [], unknown: [], missing: [] });
  });

  it("made by an older schema (all but the last migration): the last is pending, nothing missing; migrate() applies it", async () => {
    const db = await dialect.fresh();
    await db.migrate({ migrations: dialect.migrations.slice(0, -1) });
    expect(await db.check()).toEqual({ pending: [last()], unknown: [], missing: [] });
    expect((await db.migrate()).applied).toEqual([last()]);
    expect(await db.check()).toEqual({ pending: [], unknown: [], missing: [] });
  });

  it("migrated further by a newer runtime: the unknown migration is reported; migrate() refuses, naming it and both fixes, unless allowNewerSchema", async () => {
    const db = await dialect.fresh();
    await db.migrate({ migrations: [...dialect.migrations, FUTURE] });
    expect(await db.check()).toEqual({ pending: [], unknown: [FUTURE.name], missing: [] });
    const refusal = await db.migrate().then(
      () => null,
      (error: Error) => error,
    );
    expect(refusal?.name).toBe("SchemaMismatchError");
    expect(refusal?.message).toContain(`records migrations this list does not have: ${FUTURE.name}`);
    expect(refusal?.message).toMatch(/a newer @gatehouse\/runtime applied them \(install that version in this app\)/);
    expect(refusal?.message).toContain("[...migrations, ...yours]");
    expect((refusal as postgres.SchemaMismatchError).report.unknown).toEqual([FUTURE.name]);
    expect((await db.migrate({ allowNewerSchema: true })).applied).toEqual([]);
    // The app's whole list (its own migration after ours) is not newer: it is the list.
    expect((await db.migrate({ migrations: [...dialect.migrations, FUTURE] })).applied).toEqual([]);
  });

  it("changed by hand after migrate(): the lost column and index are missing, with their migration; migrate() refuses, naming them", async () => {
    const db = await dialect.fresh();
    await db.migrate();
    const index = dialect.name.startsWith("hosted") ? "svc_sessions_user_idx" : "sessions_user_id_idx";
    const userAgent = all().find((name) => name.endsWith("_account_management"))!;
    await db.exec(`ALTER TABLE ${db.sessions} DROP COLUMN "userAgent"`);
    await db.exec(`DROP INDEX ${index}`);
    const report = await db.check();
    expect(report.pending).toEqual([]);
    expect(report.missing).toEqual([
      { table: db.sessions, column: "userAgent", migration: userAgent },
      { table: db.sessions, index, migration: all()[0] },
    ]);
    await expect(db.migrate()).rejects.toThrow(
      new RegExp(`lacks column ${db.sessions}\\.userAgent \\(${userAgent}\\), index ${index} on ${db.sessions} \\(${all()[0]}\\), although its ledger records those migrations as applied`),
    );
  });

  it("a table dropped by hand is missing as a whole", async () => {
    const db = await dialect.fresh();
    await db.migrate();
    const table = dialect.name.startsWith("hosted") ? "svc_authenticators" : "authenticators";
    await db.exec(`DROP TABLE ${table}`);
    expect((await db.check()).missing).toEqual([{ table, migration: all()[0] }]);
  });
});

/**
 * `requireSchema()`, for apps whose tables another tool makes (drizzle-kit from
 * the shipped Drizzle schema): the report when everything is there, else a
 * SchemaMismatchError naming what is missing and the caller's command.
 */
describe.each([postgresDialect, sqliteDialect])("requireSchema on $name", (dialect) => {
  const name = dialect.name;
  /** The dialect's requireSchema on a fresh database, run where its check runs (PGlite: in the database's schema). */
  async function setUp() {
    if (name.startsWith("SQLite")) {
      const connection = new Database(":memory:");
      const db = fromBetterSqlite3(connection);
      return { require: (options: sqlite.RequireSchemaOptions) => sqlite.requireSchema(connection, options), migrate: () => sqlite.migrate(db), exec: (sql: string) => db.exec(sql) };
    }
    const schema = `require_${++schemas}`;
    await db.query(`CREATE SCHEMA ${schema}`);
    return {
      require: (options: postgres.RequireSchemaOptions) => inSchema(db, schema, (tx) => postgres.requireSchema(tx, options)),
      migrate: () => inSchema(db, schema, (tx) => postgres.migrate(tx)),
      exec: (sql: string) => inSchema(db, schema, async (tx) => void (await tx.query(sql))),
    };
  }
  const fix = "`npm run db:generate` then `npm run db:migrate`";

  it("no tables: refused, naming every table missing and the command given; with a ledger, the pending migrations and migrate()", async () => {
    const database = await setUp();
    const refusal = await database.require({ ledger: false, fix }).then(() => null, (error: Error) => error);
    expect(refusal?.name).toBe("SchemaMismatchError");
    expect(refusal?.message).toMatch(/^the auth database lacks table users \(0001_init\), table accounts \(0001_init\), .*: the tables of this @gatehouse\/runtime are not all there\. Run `npm run db:generate` then `npm run db:migrate`; `npx @gatehouse\/cli doctor` lists what differs\.$/);
    expect((refusal as postgres.SchemaMismatchError).report.pending).toEqual([]);
    await expect(database.require({})).rejects.toThrow(new RegExp(`has not run ${dialect.migrations.map((m) => m.name).join(", ")}: .* Run migrate\\(\\) of @gatehouse/runtime, or \`npx @gatehouse/cli migrate\``));
  });

  it("every table there: the report, empty; a column dropped afterwards: refused naming it", async () => {
    const database = await setUp();
    await database.migrate();
    expect(await database.require({ ledger: false, fix })).toEqual({ pending: [], unknown: [], missing: [] });
    expect(await database.require({})).toEqual({ pending: [], unknown: [], missing: [] });
    await database.exec(`ALTER TABLE sessions DROP COLUMN "userAgent"`);
    await expect(database.require({ ledger: false, fix })).rejects.toThrow(/^the auth database lacks column sessions\.userAgent \(\d{4}_\w+\): /);
  });
});
