/**
 * The migrations rendered from the one schema definition
 * (runtime/src/schema/auth-schema.ts) against those released before it, kept
 * as they shipped in test/adapters/fixtures/released-migrations/<dialect>/:
 * the same names (a database's ledger records them by name, so nothing is
 * applied twice or skipped), and on real databases the same tables, columns,
 * types, defaults, keys, indexes and foreign keys (the hosted store's triggers
 * too). A database made by the released ones is up to date for `migrate()`.
 * And the .sql files and ORM schemas the runtime ships are the rendered ones.
 */
import Database from "better-sqlite3";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HostedStoreClient, migrate as migrateHostedStore, migrations as hostedStoreMigrations } from "@gatehouse/runtime/adapters/hosted-store";
import { migrate as migratePostgres, migrations as postgresMigrations, type Migration } from "@gatehouse/runtime/adapters/postgres";
import { migrate as migrateSqlite, migrations as sqliteMigrations } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { inspectPostgres } from "../../runtime/src/schema/inspect/postgres.js";
import { inspectSqlite } from "../../runtime/src/schema/inspect/sqlite.js";
import { DIALECTS, migrationsFor, ormFiles } from "../../runtime/src/schema/migrations.js";
import { inSchema, usePGlite } from "./support/pglite.js";

/** The .sql files of a folder, in the order they apply. */
function sqlFiles(dir: URL): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".sql".length), sql: readFileSync(new URL(file, dir), "utf8") }));
}

const released = (dialect: string) => sqlFiles(new URL(`./fixtures/released-migrations/${dialect}/`, import.meta.url));
const shipped = (dialect: string) => sqlFiles(new URL(`../../runtime/migrations/${dialect}/`, import.meta.url));

describe("names", () => {
  it.each(DIALECTS)("%s: the rendered migrations keep the released names, in order, and the adapter applies them", (dialect) => {
    const names = migrationsFor(dialect).map((migration) => migration.name);
    expect(names.slice(0, released(dialect).length)).toEqual(released(dialect).map((migration) => migration.name));
    const bundled = { postgres: postgresMigrations, sqlite: sqliteMigrations, "hosted-store": hostedStoreMigrations }[dialect];
    expect(bundled).toEqual(migrationsFor(dialect));
  });

  it.each(DIALECTS)("%s: runtime/migrations holds exactly the rendered SQL (else: npm run build --workspace runtime)", (dialect) => {
    expect(shipped(dialect)).toEqual(migrationsFor(dialect));
  });

  it("runtime/orm holds exactly the rendered Drizzle, Kysely and Prisma schemas and Kysely migrations, one per SQL migration (else: npm run build --workspace runtime)", () => {
    const files = ormFiles();
    const kyselyMigrations = (dialect: string) => shipped(dialect).map(({ name }) => `orm/kysely/migrations/${dialect}/${name}.ts`);
    expect(files.map((file) => file.path)).toEqual([
      "orm/drizzle/postgres.ts",
      "orm/kysely/postgres.ts",
      "orm/prisma/postgres.prisma",
      ...kyselyMigrations("postgres"),
      "orm/drizzle/sqlite.ts",
      "orm/kysely/sqlite.ts",
      "orm/prisma/sqlite.prisma",
      ...kyselyMigrations("sqlite"),
    ]);
    for (const { path, text } of files) expect(readFileSync(new URL(`../../runtime/${path}`, import.meta.url), "utf8"), path).toBe(text);
  });
});

describe("PostgreSQL (PGlite)", () => {
  const { db } = usePGlite();

  /** The catalog of schema `name`, read with it as the search path (defaults then name its sequences unqualified). */
  const catalogOf = (name: string) => inSchema(db, name, (tx) => inspectPostgres(tx, { schema: name }));

  /** A fresh schema, migrated by `migrations`; its catalog. */
  async function catalogAfter(name: string, migrations: readonly Migration[]) {
    await db.query(`CREATE SCHEMA ${name}`);
    await inSchema(db, name, (tx) => migratePostgres(tx, { migrations }));
    return catalogOf(name);
  }

  it("the rendered migrations make the tables the released ones made", async () => {
    const before = await catalogAfter("released", released("postgres"));
    const after = await catalogAfter("rendered", postgresMigrations);
    expect(before.tables.length).toBeGreaterThan(7);
    expect(after).toEqual(before);
  });

  it("a database the released migrations made is up to date: migrate() applies nothing and changes nothing", async () => {
    const before = await catalogAfter("upgraded", released("postgres"));
    expect((await inSchema(db, "upgraded", (tx) => migratePostgres(tx))).applied).toEqual([]);
    expect(await catalogOf("upgraded")).toEqual(before);
  });

  it("each rendered migration run a second time changes nothing", async () => {
    const once = await catalogAfter("twice", postgresMigrations);
    await inSchema(db, "twice", async (tx) => {
      for (const migration of postgresMigrations) await tx.query(migration.sql);
    });
    expect(await catalogOf("twice")).toEqual(once);
  });

  it("hosted store: the same svc_ tables and the same triggers as the released migrations", async () => {
    const branchCatalog = async (branch: string, migrations: readonly Migration[]) => {
      await migrateHostedStore(new HostedStoreClient({ client: db, branch }), { migrations });
      const { rows } = await db.query<{ name: string; table: string }>(
        `SELECT t.tgname AS name, c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY 1`,
        [branch],
      );
      return { catalog: await catalogOf(branch), triggers: rows };
    };
    const before = await branchCatalog("released_store", released("hosted-store"));
    const after = await branchCatalog("rendered_store", hostedStoreMigrations);
    expect(before.triggers.length).toBe(9);
    expect(after).toEqual(before);
  });
});

describe("SQLite (better-sqlite3)", () => {
  async function catalogAfter(migrations: readonly Migration[]) {
    const db = fromBetterSqlite3(new Database(":memory:"));
    await migrateSqlite(db, { migrations });
    return { db, catalog: await inspectSqlite(db) };
  }

  it("the rendered migrations make the tables the released ones made, the CHECK on booleans included", async () => {
    const before = await catalogAfter(released("sqlite"));
    const after = await catalogAfter(sqliteMigrations);
    expect(before.catalog.tables.length).toBeGreaterThan(7);
    expect(after.catalog).toEqual(before.catalog);
    const checks = async (db: typeof before.db) =>
      (await db.query<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE name = 'authenticators'")).rows[0]!.sql.match(/CHECK \([^)]*\)/g);
    expect(await checks(after.db)).toEqual(await checks(before.db));
  });

  it("a database the released migrations made is up to date: migrate() applies nothing", async () => {
    const { db } = await catalogAfter(released("sqlite"));
    expect((await migrateSqlite(db)).applied).toEqual([]);
  });
});
