/**
 * `auth-init` in an app that keeps its database with Kysely and migrates it
 * with kysely-ctl, in memory: which setups are recognized (the fixture: a
 * SvelteKit app with `.config/kysely.config.ts`, a migration of its own and a
 * db module exporting `new Kysely(...)` on PostgresDialect) and which are
 * refused with why; how the runtime's migrations are named to run after the
 * app's; and the plan for `--adapter kysely`: the migrations in the app's
 * folder, the adapter on the app's own Kysely, and the command that applies
 * them. The real bins on a copy of the fixture: what auth-init writes, a
 * second run that writes nothing, what it refuses, and `auth migrate` and
 * `auth doctor` on the result.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listSourceFiles, readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { DETECT_PATHS } from "../../src/generators/detect.js";
import { checkAnswers, UsageError, type InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths } from "../../src/generators/init/plan.js";
import { detectKysely, KYSELY_CONFIGS, kyselyMigrationFolder, placeKyselyMigrations, type KyselyApp, type KyselyLookup } from "../../src/generators/kysely.js";
import type { Plan } from "../../src/plan/plan.js";
import { authBin, authInitBin, cli, removeAll, root, tempCopy } from "./support/cli.js";
import { foundApp, planned, planOrmInit, problemOf } from "./support/orm-lookup.js";

const ANSWERS: InitAnswers = { framework: "sveltekit", providers: ["password"], strategy: "database", adapter: "kysely", databaseUrl: "" };
const FIXTURE = join(root, "test/cli/fixtures/sveltekit-kysely");
const DB_MODULE = readFileSync(join(FIXTURE, "src/lib/server/db.ts"), "utf8");
const APP_MIGRATION = "1764201600000_posts.ts";
/** Kysely's documented migrate-to-latest script, run by the app's `db:migrate` once kysely-ctl is gone. */
const MIGRATE_SCRIPT = `import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FileMigrationProvider, Migrator } from 'kysely';
import { db } from '../src/lib/server/db';

const migrator = new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(__dirname, '../migrations') }) });
const { error } = await migrator.migrateToLatest();
await db.destroy();
if (error) throw error;
`;
const PKG = JSON.parse(readFileSync(join(FIXTURE, "package.json"), "utf8")) as { scripts: Record<string, string> };
const PKG_WITHOUT_MIGRATE = JSON.stringify({ ...PKG, scripts: Object.fromEntries(Object.entries(PKG.scripts).filter(([name]) => name !== "db:migrate")) });
const PKG_WITH_SCRIPT = JSON.stringify({ ...PKG, scripts: { ...PKG.scripts, "db:migrate": "tsx scripts/migrate.ts" } });
/** The fixture on SQLite with its Migrator run by a script of its own (as Kysely's docs write it; Kysely 0.29 keeps the Migrator in kysely/migration), no kysely-ctl. */
const SQLITE_DB_MODULE = "import { env } from '$env/dynamic/private';\nimport SQLite from 'better-sqlite3';\nimport { Kysely, SqliteDialect } from 'kysely';\n\nexport const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(env.DATABASE_PATH) }) });\n";
const SQLITE_MIGRATE_SCRIPT = MIGRATE_SCRIPT.replace("import { FileMigrationProvider, Migrator } from 'kysely';\nimport { db } from '../src/lib/server/db';", "import SQLite from 'better-sqlite3';\nimport { Kysely, SqliteDialect } from 'kysely';\nimport { FileMigrationProvider, Migrator } from 'kysely/migration';\n\nconst db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_PATH) }) });").replace("path.join(__dirname, '../migrations')", "path.join(import.meta.dirname, '../migrations')");
const SQLITE_APP_MIGRATION = "import type { Kysely } from 'kysely';\n\nexport async function up(db: Kysely<any>): Promise<void> {\n\tawait db.schema.createTable('posts').addColumn('id', 'integer', (col) => col.primaryKey()).addColumn('title', 'text').execute();\n}\n";

/** Links this checkout's runtime and the named packages into the app's node_modules (and their bins), as an install would bring them. */
function linkPackages(dir: string, names: string[]): void {
  mkdirSync(join(dir, "node_modules/@gatehouse"), { recursive: true });
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(join(root, "runtime"), join(dir, "node_modules/@gatehouse/runtime"), "dir");
  for (const name of names) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name), "dir");
  symlinkSync(join(root, "node_modules/tsx/dist/cli.mjs"), join(dir, "node_modules/.bin/tsx"));
}

/** The fixture without kysely-ctl: its Migrator run by a script. */
const WITH_MIGRATOR = { ".config/kysely.config.ts": null, "scripts/migrate.ts": MIGRATE_SCRIPT, "package.json": PKG_WITH_SCRIPT };
/** 2026-11-27 00:00:00 UTC: after the fixture's migration (2025-11-27). */
const NOW = new Date(Date.UTC(2026, 10, 27));
const shipped = (dialect: string) =>
  readdirSync(join(root, `runtime/orm/kysely/migrations/${dialect}`))
    .sort()
    .map((file) => ({ name: file.slice(0, -3), text: readFileSync(join(root, `runtime/orm/kysely/migrations/${dialect}`, file), "utf8") }));
const STEPS = shipped("postgres").map((migration) => migration.name);

/** The fixture with every file read, `overrides` on top (null removes a file); `folder` lists the migrations folder. */
function app(overrides: Record<string, string | null> = {}, folder: string[] = [APP_MIGRATION]) {
  const sources = new Set(listSourceFiles(FIXTURE));
  for (const [path, text] of Object.entries(overrides)) {
    if (!/\.(?:ts|js)$/.test(path) || KYSELY_CONFIGS.includes(path)) continue;
    if (text === null) sources.delete(path);
    else sources.add(path);
  }
  const read = readProject(FIXTURE, [...DETECT_PATHS, ...initPaths("sveltekit"), ...KYSELY_CONFIGS, ...sources]);
  const project: ProjectSnapshot = { ...read, files: { ...read.files, ...overrides } };
  return { project, sources: [...sources].sort(), listFolder: () => folder };
}

function lookup(overrides: Record<string, string | null> = {}, folder?: string[]): KyselyLookup {
  const { project, sources, listFolder } = app(overrides, folder);
  return detectKysely(project, sources, listFolder);
}

function plan(overrides: Record<string, string | null> = {}, folder?: string[]): { plan: Plan; kysely: KyselyApp } {
  const { project, sources, listFolder } = app(overrides, folder);
  const kysely = foundApp(detectKysely(project, sources, listFolder));
  const placed = placeKyselyMigrations(kysely, shipped(kysely.dialect), NOW);
  if (!placed.ok) throw new Error(placed.problem);
  return { plan: planOrmInit(ANSWERS, project, { kysely: { app: kysely, present: placed.present, missing: placed.missing } }), kysely };
}


describe("detectKysely", () => {
  it("the fixture: kysely-ctl's config in .config/, the migrations folder it names, the db module by what it constructs, the env key it reads", () => {
    expect(foundApp(lookup())).toEqual({
      runner: { kind: "kysely-ctl", config: ".config/kysely.config.ts" },
      dialect: "postgres",
      dialectClass: "PostgresDialect",
      driver: "pg",
      driverName: "node-postgres (pg)",
      dbModule: "src/lib/server/db.ts",
      dbExport: "db",
      urlEnv: "DATABASE_URL",
      migrationFolder: "migrations",
      migrations: [APP_MIGRATION],
      extension: ".ts",
    });
  });

  it("SQLite and PGlite dialects; a default export; kysely-ctl's default folders", () => {
    const sqlite = DB_MODULE.replace("Kysely, PostgresDialect,", "Kysely, SqliteDialect,").replace(
      "new PostgresDialect({ pool: new pg.Pool({ connectionString: env.DATABASE_URL }) })",
      "new SqliteDialect({ database: new SQLite(env.DATABASE_PATH) })",
    );
    expect(foundApp(lookup({ "src/lib/server/db.ts": sqlite }))).toMatchObject({ dialect: "sqlite", dialectClass: "SqliteDialect", driver: "better-sqlite3", urlEnv: "DATABASE_PATH" });
    const pglite = DB_MODULE.replace("Kysely, PostgresDialect,", "Kysely, PGliteDialect,").replace("new PostgresDialect({ pool: new pg.Pool({ connectionString: env.DATABASE_URL }) })", "new PGliteDialect({ pglite: new PGlite(env.PGLITE_DIR) })");
    expect(foundApp(lookup({ "src/lib/server/db.ts": pglite }))).toMatchObject({ dialect: "postgres", driver: "@electric-sql/pglite", driverName: "PGlite" });
    const byDefault = DB_MODULE.replace("export const db = new Kysely", "const db = new Kysely") + "export default db;\n";
    expect(foundApp(lookup({ "src/lib/server/db.ts": byDefault })).dbExport).toBe("default");
    // As kysely-ctl resolves them: relative to the config's folder; by default `migrations` beside the .config folder, or beside the config.
    const bare = readFileSync(join(FIXTURE, ".config/kysely.config.ts"), "utf8");
    const named = (folder: string) => bare.replace(") })\n});", `) }),\n\tmigrations: { migrationFolder: '${folder}' }\n});`);
    expect(named("x")).toContain("migrationFolder: 'x'");
    expect(kyselyMigrationFolder(".config/kysely.config.ts", bare)).toEqual({ folder: "migrations" });
    expect(kyselyMigrationFolder("kysely.config.ts", bare)).toEqual({ folder: "migrations" });
    expect(kyselyMigrationFolder("kysely.config.ts", named("./src/db/migrations/"))).toEqual({ folder: "src/db/migrations" });
    expect(kyselyMigrationFolder(".config/kysely.config.ts", named("../db/migrations"))).toEqual({ folder: "db/migrations" });
    expect(kyselyMigrationFolder(".config/kysely.config.ts", named("migrations"))).toEqual({ folder: ".config/migrations" });
  });

  it("no kysely in package.json: not found, whatever files there are", () => {
    const pkg = JSON.parse(readFileSync(join(FIXTURE, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    delete pkg.dependencies.kysely;
    expect(lookup({ "package.json": JSON.stringify(pkg) })).toEqual({ found: false });
  });

  it.each([
    [
      "no kysely-ctl config, no Migrator",
      { ".config/kysely.config.ts": null },
      "it has neither a kysely-ctl config (kysely.config.ts) nor a module that runs Kysely's Migrator with a FileMigrationProvider: gatehouse adds the auth tables as Kysely migrations, and must know where they go and what applies them",
    ],
    [
      "a Migrator no script runs",
      { ".config/kysely.config.ts": null, "scripts/migrate.ts": MIGRATE_SCRIPT, "package.json": PKG_WITHOUT_MIGRATE },
      'scripts/migrate.ts runs Kysely\'s Migrator, but no package.json script runs it (as "migrate": "tsx scripts/migrate.ts"): gatehouse cannot name the command that applies the migrations',
    ],
    [
      "a Migrator whose folder is computed",
      { ".config/kysely.config.ts": null, "scripts/migrate.ts": MIGRATE_SCRIPT.replace("path.join(__dirname, '../migrations')", "process.env.MIGRATIONS!") },
      "scripts/migrate.ts: the `migrationFolder` of its FileMigrationProvider is not a path gatehouse can read (a string, or path.join(__dirname, 'migrations'))",
    ],
    [
      "a migrator of its own",
      { ".config/kysely.config.ts": "import { defineConfig } from 'kysely-ctl';\nexport default defineConfig({ dialect: 'pg', migrations: { migrator: (db) => makeMigrator(db) } });\n" },
      ".config/kysely.config.ts sets its own migrations `migrator`: gatehouse cannot tell where its migrations are",
    ],
    [
      "a computed folder",
      { ".config/kysely.config.ts": "import { defineConfig } from 'kysely-ctl';\nexport default defineConfig({ dialect: 'pg', migrations: { migrationFolder: process.env.MIGRATIONS } });\n" },
      ".config/kysely.config.ts: its `migrationFolder` is not a string gatehouse can read",
    ],
    ["no db module", { "src/lib/server/db.ts": null }, "no module of the app exports a Kysely instance (as `export const db = new Kysely<Database>({ dialect })`)"],
    [
      "two db modules",
      { "src/lib/server/other.ts": DB_MODULE },
      "more than one module exports a Kysely instance (src/lib/server/db.ts, src/lib/server/other.ts): gatehouse cannot tell which one is the app's",
    ],
    [
      "a MySQL dialect",
      { "src/lib/server/db.ts": "import { Kysely, MysqlDialect } from 'kysely';\nimport { createPool } from 'mysql2';\nexport const db = new Kysely({ dialect: new MysqlDialect({ pool: createPool({}) }) });\n" },
      "src/lib/server/db.ts constructs none of Kysely's dialects gatehouse's Kysely setup takes (it takes one of PostgresDialect, PGliteDialect, SqliteDialect, imported from \"kysely\")",
    ],
  ])("refused with why: %s", (_name, overrides, reason) => {
    expect(problemOf(lookup(overrides))).toBe(reason);
  });
});

describe("an app that runs Kysely's Migrator from a script of its own", () => {
  it("the folder its FileMigrationProvider reads, and the package.json script that runs it", () => {
    expect(foundApp(lookup(WITH_MIGRATOR))).toMatchObject({ runner: { kind: "script", module: "scripts/migrate.ts", script: "db:migrate" }, migrationFolder: "migrations", extension: ".ts" });
  });

  it.each([
    ["a string (the folder the script runs in: the app's)", "'./db/migrations'", "db/migrations"],
    ["import.meta.dirname", "path.join(import.meta.dirname, 'migrations')", "scripts/migrations"],
    ["fileURLToPath(new URL(...))", "fileURLToPath(new URL('../db/migrations/', import.meta.url))", "db/migrations"],
    ["a const of the script's folder", "path.resolve(here, '..', 'migrations')", "migrations"],
  ])("migrationFolder as %s", (_name, expression, folder) => {
    const script = `const here = path.dirname(fileURLToPath(import.meta.url));\n${MIGRATE_SCRIPT.replace("path.join(__dirname, '../migrations')", expression)}`;
    expect(foundApp(lookup({ ...WITH_MIGRATOR, "scripts/migrate.ts": script })).migrationFolder).toBe(folder);
  });

  it("a folder of JavaScript migrations: ours are JavaScript too, with the types gone", () => {
    const placed = placeKyselyMigrations(foundApp(lookup(WITH_MIGRATOR, ["001_users.js"])), shipped("postgres"), NOW);
    if (!placed.ok) throw new Error(placed.problem);
    expect(placed.missing.map((migration) => migration.path)).toEqual(STEPS.map((step, index) => `migrations/${String(2 + index).padStart(3, "0")}_gatehouse_${step}.js`));
    const text = placed.missing[0]!.text;
    expect(text).toContain('import { sql } from "kysely";');
    expect(text).toContain("export async function up(db) {");
    expect(text).not.toMatch(/Kysely<any>|: Promise<void>/);
  });

  it("the plan: the script is the command auth-db names and the next step gives", () => {
    const { plan: p } = plan(WITH_MIGRATOR);
    expect(planned(p, "src/lib/server/auth-db.ts")).toContain("fix: '`npm run db:migrate`'");
    expect(p.nextSteps.join("\n")).toContain("apply them with yours, `npm run db:migrate`.");
  });
});

describe("placeKyselyMigrations", () => {
  const kysely = (migrations: string[]) => foundApp(lookup({}, migrations));
  const names = (migrations: string[]) => {
    const placed = placeKyselyMigrations(kysely(migrations), shipped("postgres"), NOW);
    if (!placed.ok) throw new Error(placed.problem);
    return placed.missing.map((migration) => migration.path);
  };

  it("after kysely-ctl's millisecond names (and in an empty folder): now in milliseconds, the steps in order", () => {
    const millis = String(NOW.getTime());
    expect(names([APP_MIGRATION])).toEqual(STEPS.map((step) => `migrations/${millis}_gatehouse_${step}.ts`));
    expect(names([])).toEqual(STEPS.map((step) => `migrations/${millis}_gatehouse_${step}.ts`));
  });

  it("after Knex-style timestamps, seconds and counters: the same shape, sorting after them", () => {
    expect(names(["20250101120000_users.ts"])[0]).toBe(`migrations/20261127000000_gatehouse_${STEPS[0]}.ts`);
    expect(names(["1735689600_users.ts"])[0]).toBe(`migrations/${NOW.getTime() / 1000}_gatehouse_${STEPS[0]}.ts`);
    expect(names(["001_users.ts", "002_posts.ts"])).toEqual(STEPS.map((step, index) => `migrations/${String(3 + index).padStart(3, "0")}_gatehouse_${step}.ts`));
  });

  it("ours from an earlier run are found by name, whatever their prefix; only the steps the folder lacks are new", () => {
    const earlier = `1764300000000_gatehouse_${STEPS[0]}.ts`;
    const placed = placeKyselyMigrations(kysely([APP_MIGRATION, earlier]), shipped("postgres"), NOW);
    expect(placed).toMatchObject({ ok: true, present: [{ path: `migrations/${earlier}`, step: STEPS[0] }] });
    if (placed.ok) expect(placed.missing.map((migration) => migration.step)).toEqual(STEPS.slice(1));
  });

  it("refused: names gatehouse cannot continue, and a folder whose latest sorts after now", () => {
    expect(placeKyselyMigrations(kysely(["add_users.ts"]), shipped("postgres"), NOW)).toEqual({
      ok: false,
      problem: "migrations/: gatehouse cannot tell how its migrations are named (the latest is add_users): it names them by a number before the first `_` (a time in milliseconds, as kysely-ctl does, or a counter)",
    });
    const future = "9999999999999_later.ts";
    expect(placeKyselyMigrations(kysely([future]), shipped("postgres"), NOW)).toEqual({
      ok: false,
      problem: `migrations/: the new migration ${NOW.getTime()}_gatehouse_${STEPS[0]}.ts would sort before 9999999999999_later, and Kysely runs migrations in name order`,
    });
  });
});

describe("planInit --adapter kysely", () => {
  it("the runtime's migrations in the app's folder, byte for byte; the app's own migration and db module untouched", () => {
    const { plan: p } = plan();
    const written = p.changes.filter((change) => change.path.startsWith("migrations/"));
    expect(written.map((change) => change.path)).toEqual(STEPS.map((step) => `migrations/${NOW.getTime()}_gatehouse_${step}.ts`));
    expect(written.map((change) => change.after)).toEqual(shipped("postgres").map((migration) => migration.text));
    for (const path of [`migrations/${APP_MIGRATION}`, "src/lib/server/db.ts"]) expect(p.changes.map((c) => c.path)).not.toContain(path);
  });

  it("planned again with the folder it wrote: nothing new; one of ours edited since is kept and named", () => {
    const first = plan().plan.changes.filter((change) => change.path.startsWith("migrations/"));
    const files = Object.fromEntries(first.map((change) => [change.path, change.after!]));
    const folder = [APP_MIGRATION, ...first.map((change) => change.path.slice("migrations/".length))];
    expect(plan(files, folder).plan.changes.filter((change) => change.path.startsWith("migrations/"))).toEqual([]);
    const edited = { ...files, [first[0]!.path]: `${first[0]!.after}// mine\n` };
    expect(plan(edited, folder).plan.kept).toContainEqual({ path: first[0]!.path, reason: "it exists and differs from the Kysely migration of this @gatehouse/runtime" });
  });

  it("auth-db.ts puts the adapter on the app's Kysely, checks the tables with the migrate command, destroys it at shutdown; no driver of ours, no DATABASE_URL", () => {
    const { plan: p } = plan();
    const db = planned(p, "src/lib/server/auth-db.ts")!;
    expect(db).toContain("import { fromKysely } from '@gatehouse/runtime/adapters/postgres/kysely';");
    expect(db).toContain("import { db } from './db';");
    expect(db).toContain("const client = fromKysely(db);");
    expect(db).toContain("await requireSchema(client, { ledger: false, fix: '`npm run db:migrate`' });");
    expect(db).toContain("export const adapter = PostgresAdapter(check);");
    expect(db).toContain("await db.destroy();");
    expect(p.dependencies).not.toHaveProperty("pg");
    expect(planned(p, ".env")).not.toContain("DATABASE_URL");
    expect(planned(p, "src/auth.ts")).toContain("from '$lib/server/auth-db'");
    expect(p.nextSteps.join("\n")).toContain(
      "The auth tables are Kysely migrations in your migrations folder, migrations/ (the files named *_gatehouse_*): apply them with yours, `npm run db:migrate`.",
    );
  });

  it("without the app's script, kysely-ctl's own command; SQLite: the SQLite adapter and the file made owner-only; another export name under ours", () => {
    const pkg = JSON.parse(readFileSync(join(FIXTURE, "package.json"), "utf8")) as { scripts: Record<string, string> };
    delete pkg.scripts["db:migrate"];
    const sqlite = "import SQLite from 'better-sqlite3';\nimport { Kysely, SqliteDialect } from 'kysely';\nexport const kysely = new Kysely({ dialect: new SqliteDialect({ database: new SQLite('app.db') }) });\n";
    const { plan: p } = plan({ "package.json": JSON.stringify(pkg), "src/lib/server/db.ts": sqlite });
    const db = planned(p, "src/lib/server/auth-db.ts")!;
    expect(db).toContain("import { fromKysely } from '@gatehouse/runtime/adapters/sqlite/kysely';");
    expect(db).toContain("import { kysely as db } from './db';");
    expect(db).toContain("fix: '`npx kysely migrate:latest`'");
    expect(db).toContain("chmodSync(path, 0o600)");
    expect(db).toContain("export const adapter = SqliteAdapter(check);");
    expect(planned(p, `migrations/${NOW.getTime()}_gatehouse_${STEPS[0]}.ts`)).toBe(shipped("sqlite")[0]!.text);
  });

  it("--database-url is refused with --adapter kysely", () => {
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://localhost/app" })).toThrow(UsageError);
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://localhost/app" })).toThrow(/--database-url is not used with --adapter kysely/);
  });
});

describe("the bins on a copy of the fixture", () => {
  const dirs: string[] = [];
  afterAll(() => removeAll(dirs));
  const NO_ENV = { DATABASE_URL: undefined, AUTH_SECRET: undefined, AUTH_URL: undefined, ORIGIN: undefined };
  const ours = (dir: string) => readdirSync(join(dir, "migrations")).filter((file) => file.includes("_gatehouse_"));

  it("auth-init --yes takes kysely and writes the migrations; run again, it writes none; auth migrate refuses (exit 2) naming kysely-ctl's command; auth doctor compares the migrations with the installed runtime's", () => {
    const dir = tempCopy("sveltekit-kysely", "kysely", dirs);
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("created src/lib/server/auth-db.ts");
    expect(ours(dir).map((file) => file.replace(/^\d+_/, ""))).toEqual(STEPS.map((step) => `gatehouse_${step}.ts`));
    expect(init.stdout).toContain("apply them with yours, `npm run db:migrate`");
    const again = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(ours(dir)).toHaveLength(STEPS.length);

    const migrate = cli(authBin, ["migrate"], dir, NO_ENV, 60_000);
    expect(migrate.code).toBe(2);
    expect(migrate.stderr.trim()).toBe(
      "error: this app's auth tables are Kysely migrations in its migrations folder (migrations/): kysely-ctl creates them, with the app's own tables: run `npm run db:migrate`. Nothing was changed.",
    );

    // The runtime an install would bring: this checkout's.
    mkdirSync(join(dir, "node_modules/@gatehouse"), { recursive: true });
    symlinkSync(join(root, "runtime"), join(dir, "node_modules/@gatehouse/runtime"), "dir");
    const clean = cli(authBin, ["doctor"], dir, NO_ENV, 60_000);
    expect(clean.stdout).toContain("ok   the gatehouse migrations in migrations/ are the Kysely migrations of the app's @gatehouse/runtime; kysely-ctl creates their tables (`npm run db:migrate`)");
    // The database the db module reads: its env key, not set.
    expect(clean.stdout).toContain("fail database: DATABASE_URL is not set\n       fix: set DATABASE_URL in .env to the database src/lib/server/db.ts opens");

    const [first, second] = ours(dir);
    writeFileSync(join(dir, "migrations", first!), `${readFileSync(join(dir, "migrations", first!), "utf8")}// mine\n`);
    rmSync(join(dir, "migrations", second!));
    const drifted = cli(authBin, ["doctor"], dir, NO_ENV, 60_000);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain(`fail migrations/${first} is not the Kysely migration ${STEPS[0]} of the app's @gatehouse/runtime (node_modules/@gatehouse/runtime/orm/kysely/migrations/postgres/${STEPS[0]}.ts)`);
    expect(drifted.stdout).toContain(`fail migrations/ lacks the Kysely migration ${STEPS[1]} of the app's @gatehouse/runtime: the runtime needs the tables it makes`);
    expect(drifted.stdout).toMatch(new RegExp(`fix: copy node_modules/@gatehouse/runtime/orm/kysely/migrations/postgres/${STEPS[1]}\\.ts to migrations/\\d+_gatehouse_${STEPS[1]}\\.ts, then run \`npm run db:migrate\``));
  });

  it("SQLite, migrated by the app's own Migrator script: auth-init writes the migrations, the printed command applies them with the app's, doctor finds every table", () => {
    const dir = tempCopy("sveltekit-kysely", "kysely", dirs);
    rmSync(join(dir, ".config"), { recursive: true });
    writeFileSync(join(dir, "src/lib/server/db.ts"), SQLITE_DB_MODULE);
    mkdirSync(join(dir, "scripts"));
    writeFileSync(join(dir, "scripts/migrate.ts"), SQLITE_MIGRATE_SCRIPT);
    writeFileSync(join(dir, "migrations", APP_MIGRATION), SQLITE_APP_MIGRATION);
    writeFileSync(join(dir, "package.json"), PKG_WITH_SCRIPT);
    writeFileSync(join(dir, ".env"), "DATABASE_PATH=app.db\n", { mode: 0o600 });
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(dir, "src/lib/server/auth-db.ts"), "utf8")).toContain("import { fromKysely } from '@gatehouse/runtime/adapters/sqlite/kysely';");
    const [command] = [...(init.stdout.split("\n").find((line) => line.includes("Kysely migrations in your migrations folder")) ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(command).toBe("npm run db:migrate");

    // What an install would bring: this checkout's runtime, and the packages the app lists.
    linkPackages(dir, ["kysely", "better-sqlite3", "tsx"]);
    const run = spawnSync("npm", ["run", "db:migrate"], { cwd: dir, encoding: "utf8", env: { ...process.env, DATABASE_PATH: "app.db" } });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const applied = new Database(join(dir, "app.db"), { readonly: true }).prepare("SELECT name FROM kysely_migration ORDER BY name").all() as { name: string }[];
    expect(applied.map((row) => row.name.replace(/^\d{13}_/, ""))).toEqual(["posts", ...STEPS.map((step) => `gatehouse_${step}`)]);
    const doctor = cli(authBin, ["doctor"], dir, NO_ENV, 60_000);
    expect(doctor.stdout).toContain("ok   the gatehouse migrations in migrations/ are the Kysely migrations of the app's @gatehouse/runtime; Kysely's Migrator (scripts/migrate.ts) creates their tables (`npm run db:migrate`)");
    expect(doctor.stdout).toContain("ok   the app's Kysely database, SQLite in app.db has every auth table, column and index of the app's @gatehouse/runtime");
  });

  it("a folder whose latest migration sorts after now: refused (exit 2) with why, nothing written", () => {
    const dir = tempCopy("sveltekit-kysely", "kysely", dirs);
    writeFileSync(join(dir, "migrations/9999999999999_later.ts"), "export async function up() {}\n");
    const before = readFileSync(join(dir, "package.json"), "utf8");
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0", "--adapter", "kysely"], dir, NO_ENV, 60_000);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("--adapter kysely: migrations/: the new migration ");
    expect(init.stderr).toContain("would sort before 9999999999999_later, and Kysely runs migrations in name order. Nothing was changed");
    expect(ours(dir)).toEqual([]);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
  });
});
