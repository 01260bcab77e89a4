/**
 * The Kysely migrations the runtime ships (runtime/orm/kysely/migrations/, a
 * module per SQL migration), run by Kysely's own `Migrator` as kysely-ctl runs
 * them, on Kysely's own dialects: they make the tables our `migrate()` makes
 * (same columns, types, defaults, keys and indexes), the adapter runs on them
 * through `fromKysely`, `checkSchema` without a ledger finds nothing missing,
 * and a rollback is refused with the tables and rows kept.
 */
import Database from "better-sqlite3";
import { Kysely, PGliteDialect, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator, type Migration } from "kysely/migration";
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { checkSchema as checkPostgresSchema, migrate as migratePostgres, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromKysely as fromPostgresKysely } from "@gatehouse/runtime/adapters/postgres/kysely";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { checkSchema as checkSqliteSchema, migrate as migrateSqlite, SqliteAdapter } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { fromKysely as fromSqliteKysely } from "@gatehouse/runtime/adapters/sqlite/kysely";
import { authSchema } from "../../runtime/src/schema/auth-schema.js";
import type { Catalog } from "../../runtime/src/schema/catalog.js";
import { inspectPostgres } from "../../runtime/src/schema/inspect/postgres.js";
import { inspectSqlite } from "../../runtime/src/schema/inspect/sqlite.js";
import { KYSELY_NO_DOWN } from "../../runtime/src/schema/render/kysely-migrations.js";
import { openPGlite } from "./support/pglite.js";
import { droppablePool, testDatabases } from "./support/postgres-server.js";

const AUTH_TABLES = authSchema.tables.map((table) => table.name);

/** The shipped modules of a dialect, by name, imported as kysely-ctl imports an app's migrations folder. */
async function shippedMigrations(dialect: "postgres" | "sqlite"): Promise<Record<string, Migration>> {
  const dir = new URL(`../../runtime/orm/kysely/migrations/${dialect}/`, import.meta.url);
  const files = readdirSync(dir).filter((file) => file.endsWith(".ts"));
  expect(files.length).toBeGreaterThanOrEqual(4);
  const modules = await Promise.all(files.map(async (file) => [`1764000000000_gatehouse_${file.slice(0, -3)}`, (await import(new URL(file, dir).href)) as Migration] as const));
  return Object.fromEntries(modules);
}

/** Kysely's Migrator on the shipped migrations: every one applied, in name order. */
async function migrateWithKysely(db: Kysely<unknown>, dialect: "postgres" | "sqlite"): Promise<Migrator> {
  const migrations = await shippedMigrations(dialect);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(results?.map((result) => [result.migrationName, result.status])).toEqual(Object.keys(migrations).sort().map((name) => [name, "Success"]));
  return migrator;
}

/** A rollback stops at our migration: Kysely reports the error, and the tables and the user stay. */
async function expectRollbackRefused(migrator: Migrator, stillThere: () => unknown): Promise<void> {
  const { error, results } = await migrator.migrateDown();
  expect((error as Error).message).toBe(KYSELY_NO_DOWN);
  expect(results?.[0]?.status).toBe("Error");
  expect(await stillThere()).toMatchObject({ email: "ada@example.test" });
}

/**
 * The auth tables, each default's whitespace collapsed: SQLite keeps a
 * default's text as the CREATE TABLE wrote it, and the modules indent the SQL
 * of the .sql files.
 */
function authTablesOf(catalog: Catalog): Catalog {
  const collapsed = (value: string | null) => value?.replace(/\s+/g, " ") ?? null;
  return {
    tables: catalog.tables
      .filter((table) => AUTH_TABLES.includes(table.name))
      .map((table) => ({ ...table, columns: table.columns.map((column) => ({ ...column, default: collapsed(column.default) })) })),
  };
}

describe("SQLite (better-sqlite3, Kysely's SqliteDialect)", () => {
  it("Kysely's Migrator makes the tables migrate() makes; the adapter runs on them; nothing is missing; a rollback is refused", async () => {
    const connection = new Database(":memory:");
    const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
    const migrator = await migrateWithKysely(kysely, "sqlite");
    const byMigrate = fromBetterSqlite3(new Database(":memory:"));
    await migrateSqlite(byMigrate);
    expect(authTablesOf(await inspectSqlite(fromBetterSqlite3(connection)))).toEqual(authTablesOf(await inspectSqlite(byMigrate)));
    const client = fromSqliteKysely(kysely);
    expect(await checkSqliteSchema(client, { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
    const adapter = SqliteAdapter(client);
    const ada = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: null });
    await expectRollbackRefused(migrator, () => adapter.getUser(ada.id));
    await kysely.destroy();
  });
});

describe("PostgreSQL (PGlite, Kysely's PGliteDialect)", () => {
  it("Kysely's Migrator makes the tables migrate() makes; the adapter runs on them; nothing is missing; a rollback is refused", async () => {
    const [byKysely, byMigrate] = await Promise.all([openPGlite(), openPGlite()]);
    const kysely = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite: byKysely }) });
    try {
      const migrator = await migrateWithKysely(kysely, "postgres");
      await migratePostgres(fromPGlite(byMigrate));
      expect(authTablesOf(await inspectPostgres(fromPGlite(byKysely)))).toEqual(authTablesOf(await inspectPostgres(fromPGlite(byMigrate))));
      const client = fromPostgresKysely(kysely);
      expect(await checkPostgresSchema(client, { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
      const adapter = PostgresAdapter(client);
      const ada = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: null });
      await expectRollbackRefused(migrator, () => adapter.getUser(ada.id));
    } finally {
      await kysely.destroy();
      await byMigrate.close();
    }
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)("PostgreSQL server (node-postgres, Kysely's PostgresDialect)", () => {
  const databases = testDatabases(serverUrl, "kysely_migrations");
  afterAll(() => databases.dropAll());

  it("Kysely's Migrator makes the tables migrate() makes, and running it again applies nothing", async () => {
    const [kyselyUrl, migrateUrl] = await Promise.all([databases.create(), databases.create()]);
    // Dropped WITH (FORCE) at the end: a connection still closing must not fail the run.
    const pool = droppablePool({ connectionString: kyselyUrl });
    const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const byMigrate = droppablePool({ connectionString: migrateUrl });
    try {
      const migrator = await migrateWithKysely(kysely, "postgres");
      await migratePostgres(byMigrate);
      expect(authTablesOf(await inspectPostgres(fromPg(pool)))).toEqual(authTablesOf(await inspectPostgres(fromPg(byMigrate))));
      expect(await checkPostgresSchema(fromPostgresKysely(kysely), { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
      expect((await migrator.migrateToLatest()).results).toEqual([]);
    } finally {
      await kysely.destroy();
      await byMigrate.end();
    }
  });
});
