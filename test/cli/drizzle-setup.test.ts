/**
 * `auth-init` in an app that keeps its database with Drizzle, in memory: which
 * Drizzle setups are recognized (sv's `drizzle` add-on on PostgreSQL and SQLite,
 * as fixtures) and which are refused with why, and the plan for `--adapter
 * drizzle`: the runtime's Drizzle schema beside the app's, re-exported from it,
 * the adapter on the app's own connection, and the commands that migrate.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listSourceFiles, readProject, SOURCE_EXTENSIONS, type ProjectSnapshot } from "../../src/engine/project.js";
import { DETECT_PATHS } from "../../src/generators/detect.js";
import { detectDrizzle, drizzleCommands, schemaCollisions, type DrizzleApp } from "../../src/generators/drizzle.js";
import { checkAnswers, UsageError, type InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths } from "../../src/generators/init/plan.js";
import type { Plan } from "../../src/plan/plan.js";
import { root } from "./support/cli.js";
import { foundApp, planned, planOrmInit, problemOf } from "./support/orm-lookup.js";

const ANSWERS: InitAnswers = { framework: "sveltekit", providers: ["password"], strategy: "database", adapter: "drizzle", databaseUrl: "" };
const ORM = (dialect: string) => readFileSync(join(root, `runtime/orm/drizzle/${dialect}.ts`), "utf8");

/** The fixture's source files as the overrides leave them. */
function listSourceFilesOf(dir: string, overrides: Record<string, string | null>): string[] {
  const listed = new Set(listSourceFiles(dir));
  for (const [path, text] of Object.entries(overrides)) {
    if (text === null) listed.delete(path);
    else if (SOURCE_EXTENSIONS.some((extension) => path.endsWith(extension))) listed.add(path);
  }
  return [...listed].sort();
}

/** A fixture app with every source file read, and `overrides` on top (null removes a file). */
function app(fixture: string, overrides: Record<string, string | null> = {}): { project: ProjectSnapshot; sources: string[] } {
  const dir = join(root, "test/cli/fixtures", fixture);
  const sources = listSourceFilesOf(dir, overrides);
  const read = readProject(dir, [...DETECT_PATHS, ...initPaths("sveltekit"), ...sources, "drizzle/meta/_journal.json"]);
  const files = { ...read.files, ...overrides };
  return { project: { ...read, files }, sources };
}

function plan(fixture: string, overrides: Record<string, string | null> = {}): { plan: Plan; drizzle: DrizzleApp; project: ProjectSnapshot } {
  const { project, sources } = app(fixture, overrides);
  const drizzle = foundApp(detectDrizzle(project, sources));
  return { plan: planOrmInit(ANSWERS, project, { drizzle: { app: drizzle, authSchemaText: ORM(drizzle.dialect) } }), drizzle, project };
}


describe("detectDrizzle: the apps `sv add drizzle` makes", () => {
  it.each([
    ["sveltekit-drizzle-postgres", "postgres", "postgres-js", "postgres.js"],
    ["sveltekit-drizzle-sqlite", "sqlite", "better-sqlite3", "better-sqlite3"],
  ])("%s: the dialect, the driver, the db module, where the auth tables go", (fixture, dialect, driver, driverName) => {
    const { project, sources } = app(fixture);
    expect(foundApp(detectDrizzle(project, sources))).toEqual({
      config: "drizzle.config.ts",
      dialect,
      driver,
      driverName,
      dbModule: "src/lib/server/db/index.ts",
      authSchema: "src/lib/server/db/auth-schema.ts",
      schemaModule: "src/lib/server/db/schema.ts",
      schemaFiles: ["src/lib/server/db/schema.ts"],
      out: "drizzle",
    });
  });

  it("no drizzle-orm in package.json, or no config: not a Drizzle app", () => {
    const { project, sources } = app("sveltekit-minimal");
    expect(detectDrizzle(project, sources)).toEqual({ found: false });
    const noConfig = app("sveltekit-drizzle-postgres", { "drizzle.config.ts": null });
    expect(detectDrizzle(noConfig.project, noConfig.sources)).toEqual({ found: false });
  });

  it("a schema folder or glob takes the new module as it is: nothing to re-export; migrations in `out` are seen", () => {
    const config = (schema: string) => `import { defineConfig } from 'drizzle-kit';\nexport default defineConfig({ schema: ${schema}, out: './migrations', dialect: 'postgresql' });\n`;
    for (const schema of ["'./src/lib/server/db'", "'./src/lib/server/db/*.ts'", "['./src/lib/server/db/**/*']"]) {
      const { project, sources } = app("sveltekit-drizzle-postgres", { "drizzle.config.ts": config(schema), "migrations/meta/_journal.json": "{}" });
      const drizzle = foundApp(detectDrizzle(project, sources));
      expect(drizzle.authSchema, schema).toBe("src/lib/server/db/auth-schema.ts");
      expect(drizzle.schemaModule, schema).toBeUndefined();
      expect(drizzle.schemaFiles, schema).toEqual(["src/lib/server/db/index.ts", "src/lib/server/db/schema.ts"]);
      expect(drizzle).toMatchObject({ out: "migrations" });
    }
  });

  it("setups it cannot take are refused with why: libsql, Turso, MySQL, a computed schema, two db modules, no db module", () => {
    const libsql = app("sveltekit-drizzle-sqlite", {
      "src/lib/server/db/index.ts": "import { drizzle } from 'drizzle-orm/libsql';\nimport { createClient } from '@libsql/client';\nexport const db = drizzle(createClient({ url: 'file:local.db' }));\n",
    });
    expect(problemOf(detectDrizzle(libsql.project, libsql.sources))).toMatch(/drizzle-orm\/libsql, which gatehouse's Drizzle setup does not support yet \(it takes drizzle-orm\/better-sqlite3\)/);
    const cases: [Record<string, string | null>, RegExp][] = [
      [{ "src/lib/server/db/index.ts": "import { drizzle } from 'drizzle-orm/neon-http';\nexport const db = drizzle(process.env.DATABASE_URL!);\n" }, /drizzle-orm\/neon-http, which gatehouse's Drizzle setup does not support yet \(it takes drizzle-orm\/postgres-js, drizzle-orm\/node-postgres, drizzle-orm\/pglite\)/],
      [{ "drizzle.config.ts": "export default { schema: './src/lib/server/db/schema.ts', dialect: 'turso' };\n" }, /dialect "turso": gatehouse's Drizzle setup takes "postgresql" or "sqlite" \(libsql and Turso are not supported yet\)/],
      [{ "drizzle.config.ts": "export default { schema: './src/lib/server/db/schema.ts', dialect: 'mysql' };\n" }, /dialect "mysql"/],
      [{ "drizzle.config.ts": "const schema = process.env.SCHEMA;\nexport default { schema, dialect: 'postgresql' };\n" }, /has no `schema` gatehouse can read/],
      [{ "drizzle.config.ts": "export default { schema: './src/lib/server/db/schema.ts', dialect: 'postgresql', driver: 'aws-data-api' };\n" }, /driver "aws-data-api"/],
      [{ "src/lib/server/other-db.ts": "import { drizzle } from 'drizzle-orm/postgres-js';\nexport const db = drizzle(process.env.OTHER!);\n" }, /more than one module exports a Drizzle `db` \(src\/lib\/server\/db\/index\.ts, src\/lib\/server\/other-db\.ts\)/],
      [{ "src/lib/server/db/index.ts": "export const nothing = 1;\n" }, /no module of the app exports `db` made with a drizzle-orm driver/],
      [{ "drizzle.config.ts": "export default defineConfig({ dialect: 'postgresql', schema: " }, /drizzle\.config\.ts: it does not parse/],
    ];
    for (const [overrides, message] of cases) {
      const { project, sources } = app("sveltekit-drizzle-postgres", overrides);
      expect(problemOf(detectDrizzle(project, sources))).toMatch(message);
    }
  });
});

describe("planInit --adapter drizzle", () => {
  it.each(["postgres", "sqlite"])("%s: the runtime's Drizzle schema, re-exported from the app's; the adapter on db.$client; no db module, schema list or driver of our own", (dialect) => {
    const { plan: p, project } = plan(`sveltekit-drizzle-${dialect}`);
    expect(planned(p, "src/lib/server/db/auth-schema.ts")).toBe(ORM(dialect));
    const schema = project.files["src/lib/server/db/schema.ts"]!;
    expect(planned(p, "src/lib/server/db/schema.ts")).toBe(`${schema.trimEnd()}\n\nexport * from './auth-schema';\n`);
    const authDb = planned(p, "src/lib/server/auth-db.ts")!;
    expect(authDb).toContain("import { db } from './db';");
    expect(authDb).toContain(`from '@gatehouse/runtime/adapters/${dialect}'`);
    expect(authDb).toContain("await requireSchema(client, { ledger: false, fix: '`npm run db:generate` then `npm run db:migrate`' });");
    expect(authDb).toContain(dialect === "postgres" ? "await client.end({ timeout: 5 });" : "await client.close();");
    // SQLite's file is the app's: tightened to owner-only at first use, before a session is written.
    expect(authDb.includes("chmodSync(path, 0o600)")).toBe(dialect === "sqlite");
    // The rate limit counts on Drizzle's connection too, in the schema's rate_limits table.
    expect(planned(p, "src/auth.ts")).toContain("import { adapter, closeDatabase, rateLimitStore } from '$lib/server/auth-db';");
    expect(planned(p, "src/auth.ts")).toContain("rateLimit: { ip: 100, store: rateLimitStore },");
    expect(authDb).toContain(`export const rateLimitStore = ${dialect === "postgres" ? "PostgresRateLimitStore" : "SqliteRateLimitStore"}(check);`);
    for (const ours of ["src/lib/server/db.ts", "src/lib/server/schema.ts"]) expect(p.changes.map((c) => c.path)).not.toContain(ours);
    // The app's db module has its driver: none is added.
    for (const driver of ["pg", "@electric-sql/pglite", "better-sqlite3", "postgres"]) expect(Object.keys(p.dependencies)).not.toContain(driver);
    // The app's DATABASE_URL is its own: auth-init neither writes nor asks for one.
    expect(p.env.map((e) => e.key)).not.toContain("DATABASE_URL");
    expect(planned(p, ".env")).toContain(project.files[".env"]!.trim());
    expect(p.nextSteps.join("\n")).toContain(
      "The auth tables are in your Drizzle schema, src/lib/server/db/auth-schema.ts (exported from src/lib/server/db/schema.ts): create them the Drizzle way, `npm run db:generate` (writes the migration) then `npm run db:migrate` (applies it).",
    );
  });

  it("run again on the result: nothing changes", () => {
    const first = plan("sveltekit-drizzle-postgres");
    const files = Object.fromEntries(first.plan.changes.map((c) => [c.path, c.after]));
    const second = plan("sveltekit-drizzle-postgres", files);
    expect(second.plan.changes.filter((c) => c.after !== c.before).map((c) => c.path)).toEqual([]);
  });

  it("a schema module written with double quotes and no semicolons gets the re-export the same way; one that does not parse stops the plan", () => {
    const schema = 'import { pgTable, text } from "drizzle-orm/pg-core"\n\nexport const task = pgTable("task", { id: text("id") })\n';
    const { plan: p } = plan("sveltekit-drizzle-postgres", { "src/lib/server/db/schema.ts": schema });
    expect(planned(p, "src/lib/server/db/schema.ts")).toBe(`${schema}\nexport * from "./auth-schema"\n`);
    const broken = plan("sveltekit-drizzle-postgres", { "src/lib/server/db/schema.ts": "export const task = pgTable('task', {\n" });
    expect(broken.plan.unparsable.map((u) => u.path)).toEqual(["src/lib/server/db/schema.ts"]);
  });

  it("commands: the app's db:generate / db:migrate scripts when it has them, else npx drizzle-kit; pnpm runs scripts its way", () => {
    const { project } = app("sveltekit-drizzle-postgres");
    expect(drizzleCommands(project, (s) => `pnpm ${s}`)).toEqual({ generate: "pnpm db:generate", migrate: "pnpm db:migrate" });
    const bare = { ...project, files: { ...project.files, "package.json": JSON.stringify({ dependencies: { "drizzle-orm": "^0.45.2" } }) } };
    expect(drizzleCommands(bare, (s) => `npm run ${s}`)).toEqual({ generate: "npx drizzle-kit generate", migrate: "npx drizzle-kit migrate" });
  });

  it("names the app's schema already uses: a table called users, or an export called sessions, are collisions", () => {
    const schema = "import { pgTable, text } from 'drizzle-orm/pg-core';\nexport const people = pgTable('users', { id: text('id') });\nexport const sessions = 1;\n";
    const { project, sources } = app("sveltekit-drizzle-postgres", { "src/lib/server/db/schema.ts": schema });
    const drizzle = foundApp(detectDrizzle(project, sources));
    expect(schemaCollisions(project, drizzle, ORM("postgres"))).toEqual([
      'src/lib/server/db/schema.ts defines a table "users"',
      "src/lib/server/db/schema.ts exports `sessions`",
    ]);
    // sv's own schema (a task table) collides with nothing.
    const sv = app("sveltekit-drizzle-postgres");
    expect(schemaCollisions(sv.project, foundApp(detectDrizzle(sv.project, sv.sources)), ORM("postgres"))).toEqual([]);
  });

  it("--database-url is refused with drizzle: the URL is the app's own", () => {
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://u@127.0.0.1/x" })).toThrow(UsageError);
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://u@127.0.0.1/x" })).toThrow(/--database-url is not used with --adapter drizzle/);
  });
});
