/**
 * The ORM schemas rendered from the one schema definition make the tables our
 * migrations make. Drizzle: the shipped module is imported as an app would,
 * drizzle-kit (its programmatic API, what `drizzle-kit generate` runs) turns it
 * into the SQL of a first migration, and on a real database that SQL makes the
 * same tables, columns, types, defaults, keys, indexes and foreign keys as the
 * adapter's own migrations (PostgreSQL on PGlite, SQLite on better-sqlite3);
 * then the adapter runs on that database. Kysely: the shipped table types
 * (type-checked with this file) read and write the rows the adapter stores,
 * through Kysely's own dialects on the same databases.
 */
import Database from "better-sqlite3";
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { checkSchema as checkPostgresSchema, migrate as migratePostgres, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { checkSchema as checkSqliteSchema, migrate as migrateSqlite, SqliteAdapter } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { authSchema } from "../../runtime/src/schema/auth-schema.js";
import type { Catalog } from "../../runtime/src/schema/catalog.js";
import { inspectPostgres } from "../../runtime/src/schema/inspect/postgres.js";
import { inspectSqlite } from "../../runtime/src/schema/inspect/sqlite.js";
import type { AuthDatabase as PostgresAuthDatabase } from "../../runtime/orm/kysely/postgres.js";
import type { AuthDatabase as SqliteAuthDatabase } from "../../runtime/orm/kysely/sqlite.js";
import { inSchema, usePGlite } from "./support/pglite.js";
import { droppablePool } from "./support/postgres-server.js";

const AUTH_TABLES = authSchema.tables.map((table) => table.name);

/** The module the runtime ships (runtime/orm/drizzle/<dialect>.ts, the rendered text: schema-migrations.test.ts), imported as an app would. */
async function importShipped(dialect: "postgres" | "sqlite"): Promise<Record<string, unknown>> {
  return dialect === "postgres" ? import("../../runtime/orm/drizzle/postgres.js") : import("../../runtime/orm/drizzle/sqlite.js");
}

/** Only the auth tables: the migrations' ledger is not part of what an ORM manages. */
function authTablesOf(catalog: Catalog): Catalog {
  return { tables: catalog.tables.filter((table) => AUTH_TABLES.includes(table.name)) };
}

describe("Drizzle, PostgreSQL (PGlite)", () => {
  const { db } = usePGlite();

  it("drizzle-kit's first migration of the rendered schema makes the tables our migrations make; the adapter runs on it", async () => {
    const schema = await importShipped("postgres");
    const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(schema));
    expect(statements.join("\n")).toContain('CREATE TABLE "users"');
    await db.query("CREATE SCHEMA by_drizzle; CREATE SCHEMA by_migrate");
    const byDrizzle = await inSchema(db, "by_drizzle", async (tx) => {
      for (const statement of statements) await tx.query(statement.replaceAll('"public".', ""));
      return inspectPostgres(tx, { schema: "by_drizzle" });
    });
    const byMigrate = await inSchema(db, "by_migrate", async (tx) => {
      await migratePostgres(tx);
      return inspectPostgres(tx, { schema: "by_migrate" });
    });
    expect(byDrizzle.tables.map((table) => table.name)).toEqual(AUTH_TABLES.slice().sort());
    expect(authTablesOf(byDrizzle)).toEqual(authTablesOf(byMigrate));
    const user = await inSchema(db, "by_drizzle", async (tx) => PostgresAdapter(tx).createUser({ id: "", email: "ada@example.test", emailVerified: null }));
    expect(user.email).toBe("ada@example.test");
    // drizzle-kit keeps no ledger of ours: checkSchema without one expects every table, and finds them all.
    expect(await inSchema(db, "by_drizzle", (tx) => checkPostgresSchema(tx, { ledger: false }))).toEqual({ pending: [], unknown: [], missing: [] });
    await inSchema(db, "by_drizzle", (tx) => tx.query('ALTER TABLE sessions DROP COLUMN "userAgent"'));
    expect((await inSchema(db, "by_drizzle", (tx) => checkPostgresSchema(tx, { ledger: false }))).missing).toEqual([
      { table: "sessions", column: "userAgent", migration: "0004_account_management" },
    ]);
  });
});

describe("Drizzle, SQLite (better-sqlite3)", () => {
  it("drizzle-kit's first migration of the rendered schema makes the tables our migrations make; the adapter runs on it", async () => {
    const schema = await importShipped("sqlite");
    const statements = await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson(schema));
    const byDrizzle = fromBetterSqlite3(new Database(":memory:"));
    for (const statement of statements) await byDrizzle.exec(statement);
    const byMigrate = fromBetterSqlite3(new Database(":memory:"));
    await migrateSqlite(byMigrate);
    expect(authTablesOf(await inspectSqlite(byDrizzle))).toEqual(authTablesOf(await inspectSqlite(byMigrate)));
    const user = await SqliteAdapter(byDrizzle).createUser({ id: "", email: "ada@example.test", emailVerified: null });
    expect(user.email).toBe("ada@example.test");
    expect(await checkSqliteSchema(byDrizzle, { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
    // With the ledger (the default) the same database looks unmigrated: every migration pending.
    expect((await checkSqliteSchema(byDrizzle)).pending).toHaveLength(4);
  });
});

describe("Kysely, SQLite (better-sqlite3)", () => {
  it("the shipped types read what the adapter stored, and a row Kysely inserts is one the adapter reads", async () => {
    const connection = new Database(":memory:");
    const db = fromBetterSqlite3(connection);
    await migrateSqlite(db);
    const adapter = SqliteAdapter(db);
    const ada = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: new Date(1_700_000_000_000) });
    const kysely = new Kysely<SqliteAuthDatabase>({ dialect: new SqliteDialect({ database: connection }) });
    const row = await kysely.selectFrom("users").select(["id", "email", "emailVerified", "sessionVersion"]).where("email", "=", "ada@example.test").executeTakeFirstOrThrow();
    expect(row).toEqual({ id: ada.id, email: "ada@example.test", emailVerified: 1_700_000_000_000, sessionVersion: 0 });
    // id, sessionVersion: filled by the database (Generated); the other columns of users are nullable.
    await kysely.insertInto("users").values({ email: "grace@example.test" }).execute();
    const grace = await adapter.getUserByEmail("grace@example.test");
    expect(grace?.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("Kysely, PostgreSQL server (node-postgres)", () => {
  it("the shipped types read what the adapter stored, a BIGINT as node-postgres returns it", async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `gatehouse_kysely_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    // Dropped WITH (FORCE) below: a connection still closing must not fail the run.
    const pool = droppablePool({ connectionString: url.href });
    const kysely = new Kysely<PostgresAuthDatabase>({ dialect: new PostgresDialect({ pool }) });
    try {
      await migratePostgres(pool);
      const adapter = PostgresAdapter(pool);
      const ada = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: null });
      await adapter.linkAccount({ userId: ada.id, type: "oidc", provider: "idp", providerAccountId: "ada", expires_at: 1_800_000_000 });
      const account = await kysely
        .selectFrom("accounts")
        .innerJoin("users", "users.id", "accounts.userId")
        .select(["users.email", "accounts.provider", "accounts.expires_at"])
        .executeTakeFirstOrThrow();
      expect(account).toEqual({ email: "ada@example.test", provider: "idp", expires_at: "1800000000" });
    } finally {
      await kysely.destroy();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
