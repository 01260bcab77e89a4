/**
 * The Prisma models the runtime ships (runtime/orm/prisma/<dialect>.prisma, the
 * rendered text: schema-migrations.test.ts) make the tables our migrations make.
 * The real Prisma CLI (the pinned devDependency) reads the shipped file under a
 * datasource block, as an app's schema would hold it, and writes the SQL of a
 * first migration (`prisma migrate diff --from-empty --script`, what `prisma
 * migrate dev` writes); on a real database that SQL makes the same tables,
 * columns, types, defaults, keys, indexes and foreign keys as the adapter's
 * own migrations (PostgreSQL on PGlite, SQLite on better-sqlite3); then the
 * adapter runs on that database and checkSchema without a ledger finds it
 * complete.
 *
 * The CLI runs its JavaScript schema engine (support/prisma.config.ts), which
 * needs a live connection even to diff from empty: SQLite's is in memory,
 * PostgreSQL's a throwaway database on the server of DATABASE_URL.
 */
import Database from "better-sqlite3";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkSchema as checkPostgresSchema, migrate as migratePostgres, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { checkSchema as checkSqliteSchema, migrate as migrateSqlite, SqliteAdapter } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { authSchema } from "../../runtime/src/schema/auth-schema.js";
import type { Catalog } from "../../runtime/src/schema/catalog.js";
import { inspectPostgres } from "../../runtime/src/schema/inspect/postgres.js";
import { inspectSqlite } from "../../runtime/src/schema/inspect/sqlite.js";
import { prefixedModels } from "../../src/generators/prisma-schema.js";
import { inSchema, usePGlite } from "./support/pglite.js";
import { createTestDatabase } from "./support/postgres-server.js";

const AUTH_TABLES = authSchema.tables.map((table) => table.name);
const serverUrl = process.env.DATABASE_URL;
/** Each test starts Prisma's CLI: a few seconds alone, more beside other suites. */
const CLI_TIMEOUT = { timeout: 120_000 };
const PRISMA_CLI = fileURLToPath(new URL("../../node_modules/prisma/build/index.js", import.meta.url));
const CONFIG = fileURLToPath(new URL("./support/prisma.config.ts", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "gatehouse-prisma-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Only the auth tables: the migrations' ledger is not part of what an ORM manages. */
function authTablesOf(catalog: Catalog): Catalog {
  return { tables: catalog.tables.filter((table) => AUTH_TABLES.includes(table.name)) };
}

const shipped = (dialect: "postgres" | "sqlite") => readFileSync(new URL(`../../runtime/orm/prisma/${dialect}.prisma`, import.meta.url), "utf8");

/** The models (by default the shipped ones) under a datasource block, as an app's schema.prisma holds them. */
function appSchema(dialect: "postgres" | "sqlite", models = shipped(dialect)): string {
  const datasource = dialect === "postgres" ? 'provider = "postgresql"\n  url      = env("PRISMA_TEST_DATABASE_URL")' : 'provider = "sqlite"\n  url      = "file:./unused.db"';
  return `datasource db {\n  ${datasource}\n}\n\n${models}`;
}

/** What `prisma migrate diff --from-empty --script` writes for the shipped models. */
async function prismaFirstMigration(dialect: "postgres" | "sqlite", databaseUrl = "", models?: string): Promise<string> {
  // Where Prisma looks for it by default: the CLI reads the schema's generator before any command, and
  // only with the schema found does PRISMA_CLIENT_ENGINE_TYPE below spare it the native query engine.
  const app = mkdtempSync(join(scratch, `${dialect}-`));
  const schemaPath = join(app, "schema.prisma");
  writeFileSync(schemaPath, appSchema(dialect, models));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [PRISMA_CLI, "migrate", "diff", "--config", CONFIG, "--from-empty", "--to-schema-datamodel", schemaPath, "--script"],
    {
      cwd: app,
      env: {
        ...process.env,
        PRISMA_TEST_PROVIDER: dialect,
        PRISMA_TEST_DATABASE_URL: databaseUrl,
        // No native query engine to download: Prisma Client's is the JavaScript one (the query compiler).
        PRISMA_CLIENT_ENGINE_TYPE: "client",
        // No version check and no telemetry: only loopback network.
        CHECKPOINT_DISABLE: "1",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    },
  );
  return stdout;
}

describe("Prisma, SQLite (better-sqlite3)", () => {
  it("Prisma's first migration of the shipped models makes the tables our migrations make; the adapter runs on it", CLI_TIMEOUT, async () => {
    const script = await prismaFirstMigration("sqlite");
    expect(script).toContain('CREATE TABLE "users"');
    const byPrisma = fromBetterSqlite3(new Database(":memory:"));
    await byPrisma.exec(script);
    const byMigrate = fromBetterSqlite3(new Database(":memory:"));
    await migrateSqlite(byMigrate);
    expect(authTablesOf(await inspectSqlite(byPrisma)).tables.map((table) => table.name)).toEqual(AUTH_TABLES.slice().sort());
    expect(authTablesOf(await inspectSqlite(byPrisma))).toEqual(authTablesOf(await inspectSqlite(byMigrate)));
    const adapter = SqliteAdapter(byPrisma);
    const user = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: new Date(1_700_000_000_000) });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await adapter.getUserByEmail("ada@example.test"))?.emailVerified).toEqual(new Date(1_700_000_000_000));
    // The foreign keys Prisma wrote cascade as ours do: a deleted user takes its password along.
    await byPrisma.exec(`INSERT INTO user_passwords ("userId", hash) VALUES ('${user.id}', 'h')`);
    await adapter.deleteUser!(user.id);
    expect((await byPrisma.query("SELECT count(*) AS n FROM user_passwords")).rows).toEqual([{ n: 0 }]);
    expect(await checkSqliteSchema(byPrisma, { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
    await byPrisma.exec("DROP INDEX rate_limits_expires_idx");
    expect((await checkSqliteSchema(byPrisma, { ledger: false })).missing).toEqual([{ table: "rate_limits", index: "rate_limits_expires_idx", migration: "0002_rate_limits" }]);
  });
});

describe("Prisma, the models as auth-init writes them beside an app's own User (AuthUser, ...)", () => {
  it("Prisma reads them, and its first migration makes the app's table and, on their own tables, what our migrations make", CLI_TIMEOUT, async () => {
    const appUser = 'model User {\n  id    Int    @id @default(autoincrement())\n  email String @unique\n}\n\n';
    const script = await prismaFirstMigration("sqlite", "", `${appUser}${prefixedModels(shipped("sqlite"))}`);
    expect(script).toContain('CREATE TABLE "User"');
    const byPrisma = fromBetterSqlite3(new Database(":memory:"));
    await byPrisma.exec(script);
    const byMigrate = fromBetterSqlite3(new Database(":memory:"));
    await migrateSqlite(byMigrate);
    expect(authTablesOf(await inspectSqlite(byPrisma))).toEqual(authTablesOf(await inspectSqlite(byMigrate)));
    expect(await checkSqliteSchema(byPrisma, { ledger: false })).toEqual({ pending: [], unknown: [], missing: [] });
  });
});

describe.skipIf(!serverUrl)(
  serverUrl
    ? "Prisma, PostgreSQL (PGlite; Prisma's CLI on the server of DATABASE_URL)"
    : "Prisma, PostgreSQL (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    const { db } = usePGlite();

    it("Prisma's first migration of the shipped models makes the tables our migrations make; the adapter runs on it", CLI_TIMEOUT, async () => {
      const database = await createTestDatabase(serverUrl!, "prisma");
      const script = await prismaFirstMigration("postgres", database.url).finally(() => database.drop());
      expect(script).toContain('CREATE TABLE "users"');
      await db.query("CREATE SCHEMA by_prisma; CREATE SCHEMA by_migrate");
      const byPrisma = await inSchema(db, "by_prisma", async (tx) => {
        // As Prisma wrote it: CREATE SCHEMA IF NOT EXISTS "public" (there already), then unqualified
        // tables, which go to the search path.
        await tx.query(script);
        return inspectPostgres(tx, { schema: "by_prisma" });
      });
      const byMigrate = await inSchema(db, "by_migrate", async (tx) => {
        await migratePostgres(tx);
        return inspectPostgres(tx, { schema: "by_migrate" });
      });
      expect(byPrisma.tables.map((table) => table.name)).toEqual(AUTH_TABLES.slice().sort());
      expect(authTablesOf(byPrisma)).toEqual(authTablesOf(byMigrate));
      const user = await inSchema(db, "by_prisma", async (tx) => PostgresAdapter(tx).createUser({ id: "", email: "ada@example.test", emailVerified: null }));
      expect(user.email).toBe("ada@example.test");
      expect(await inSchema(db, "by_prisma", (tx) => checkPostgresSchema(tx, { ledger: false }))).toEqual({ pending: [], unknown: [], missing: [] });
      await inSchema(db, "by_prisma", (tx) => tx.query('ALTER TABLE sessions DROP COLUMN "userAgent"'));
      expect((await inSchema(db, "by_prisma", (tx) => checkPostgresSchema(tx, { ledger: false }))).missing).toEqual([
        { table: "sessions", column: "userAgent", migration: "0004_account_management" },
      ]);
    });
  },
);
