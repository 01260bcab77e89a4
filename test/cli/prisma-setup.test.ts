/**
 * `auth-init` in an app that keeps its database with Prisma, in memory: which
 * Prisma setups are recognized (the app `prisma init` makes, as a fixture, on
 * PostgreSQL and SQLite, with one schema file or a folder) and which are
 * refused with why, and the plan for `--adapter prisma`: the runtime's models
 * in the app's schema, the adapter on the app's own client, and the command
 * that migrates. The real bins on a copy of the fixture: what auth-init
 * writes, what it refuses without writing, and `auth migrate` and `auth doctor`
 * on the result.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listSourceFiles, readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { DETECT_PATHS } from "../../src/generators/detect.js";
import { checkAnswers, UsageError, type InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths } from "../../src/generators/init/plan.js";
import { detectPrisma, PRISMA_CONFIGS, prismaAuthModels, prismaCollisions, type PrismaApp, type PrismaLookup } from "../../src/generators/prisma.js";
import { AUTH_MODELS_BEGIN, AUTH_MODELS_END, authModelsBlock, prefixedModels, readPrismaSchema } from "../../src/generators/prisma-schema.js";
import type { Plan } from "../../src/plan/plan.js";
import { authBin, authInitBin, cli, removeAll, root, tempCopy } from "./support/cli.js";
import { foundApp, planned, planOrmInit, problemOf } from "./support/orm-lookup.js";

const ANSWERS: InitAnswers = { framework: "sveltekit", providers: ["password"], strategy: "database", adapter: "prisma", databaseUrl: "" };
const MODELS = (dialect: string) => readFileSync(join(root, `runtime/orm/prisma/${dialect}.prisma`), "utf8");
const FIXTURE = join(root, "test/cli/fixtures/sveltekit-prisma");
/** The fixture's schema: prisma init's, with Prisma's quickstart models (User, Post). */
const SCHEMA = readFileSync(join(FIXTURE, "prisma/schema.prisma"), "utf8");
/** prisma init's schema with a model of no name of ours. */
const PLAIN = `${SCHEMA.slice(0, SCHEMA.indexOf("model User {"))}model Tag {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n`;
const SQLITE_SCHEMA = PLAIN.replace('provider = "postgresql"', 'provider = "sqlite"');

/** The fixture with every file read, `overrides` on top (null removes a file). */
function app(overrides: Record<string, string | null> = {}): { project: ProjectSnapshot; prismaFiles: string[]; sources: string[] } {
  const listed = (extensions?: string[]) => new Set(listSourceFiles(FIXTURE, extensions));
  const sources = listed();
  const prismaFiles = listed([".prisma"]);
  for (const [path, text] of Object.entries(overrides)) {
    const set = path.endsWith(".prisma") ? prismaFiles : /\.(?:ts|js)$/.test(path) && !PRISMA_CONFIGS.includes(path) ? sources : undefined;
    if (text === null) set?.delete(path);
    else set?.add(path);
  }
  const read = readProject(FIXTURE, [...DETECT_PATHS, ...initPaths("sveltekit"), ...PRISMA_CONFIGS, ...prismaFiles, ...sources]);
  return { project: { ...read, files: { ...read.files, ...overrides } }, prismaFiles: [...prismaFiles].sort(), sources: [...sources].sort() };
}

function lookup(overrides: Record<string, string | null> = {}): PrismaLookup {
  const { project, prismaFiles, sources } = app(overrides);
  return detectPrisma(project, prismaFiles, sources);
}

function plan(overrides: Record<string, string | null> = {}): { plan: Plan; prisma: PrismaApp } {
  const { project, prismaFiles, sources } = app(overrides);
  const prisma = foundApp(detectPrisma(project, prismaFiles, sources));
  const chosen = prismaAuthModels(project, prisma, MODELS(prisma.dialect));
  if (!chosen.ok) throw new Error(`expected auth models, got ${chosen.problems.join("; ")}`);
  return { plan: planOrmInit(ANSWERS, project, { prisma: { app: prisma, authModels: chosen.models, prefixed: chosen.prefixed } }), prisma };
}


describe("detectPrisma", () => {
  it("the app prisma init makes (Prisma 6.19: prisma.config.ts naming the schema and env(\"DATABASE_URL\")), with a client module", () => {
    expect(foundApp(lookup())).toEqual({
      dialect: "postgres",
      schema: "prisma/schema.prisma",
      folder: false,
      schemaFiles: ["prisma/schema.prisma"],
      authSchema: "prisma/schema.prisma",
      clientModule: "src/lib/server/prisma.ts",
      clientExport: "prisma",
      urlEnv: "DATABASE_URL",
    });
  });

  it("SQLite; the schema where Prisma looks without a config; package.json's prisma.schema; a schema folder", () => {
    expect(foundApp(lookup({ "prisma/schema.prisma": SQLITE_SCHEMA })).dialect).toBe("sqlite");
    const withoutConfig = foundApp(lookup({ "prisma.config.ts": null }));
    expect(withoutConfig).toMatchObject({ schema: "prisma/schema.prisma", urlEnv: "DATABASE_URL" });
    const pkg = JSON.stringify({ ...JSON.parse(readFileSync(join(FIXTURE, "package.json"), "utf8")), prisma: { schema: "db/app.prisma" } });
    expect(foundApp(lookup({ "prisma.config.ts": null, "package.json": pkg, "prisma/schema.prisma": null, "db/app.prisma": SCHEMA }))).toMatchObject({ schema: "db/app.prisma", authSchema: "db/app.prisma" });
    const folder = foundApp(lookup({ "prisma.config.ts": null, "prisma/schema.prisma": null, "prisma/schema/main.prisma": SCHEMA, "prisma/schema/post.prisma": "model Tag {\n  id Int @id\n}\n" }));
    expect(folder).toMatchObject({ schema: "prisma/schema", folder: true, authSchema: "prisma/schema/auth.prisma", schemaFiles: ["prisma/schema/main.prisma", "prisma/schema/post.prisma"] });
  });

  it("the client under another name, as a default export, through the globalThis pattern", () => {
    const as = (text: string) => foundApp(lookup({ "src/lib/server/prisma.ts": text })).clientExport;
    expect(as("import { PrismaClient } from '@prisma/client';\nexport const db = new PrismaClient();\n")).toBe("db");
    expect(as("import { PrismaClient } from '@prisma/client';\nconst client = new PrismaClient();\nexport default client;\n")).toBe("default");
    expect(
      as(
        "import { PrismaClient } from '@prisma/client';\nconst globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };\nexport const prisma = globalForPrisma.prisma ?? new PrismaClient();\nif (process.env.NODE_ENV !== 'production') globalForPrisma.prisma = prisma;\n",
      ),
    ).toBe("prisma");
  });

  it("no Prisma in package.json: not found, whatever files there are", () => {
    const pkg = JSON.parse(readFileSync(join(FIXTURE, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    delete pkg.dependencies["@prisma/client"];
    delete pkg.devDependencies.prisma;
    expect(lookup({ "package.json": JSON.stringify(pkg) })).toEqual({ found: false });
  });

  it.each([
    ["a MySQL datasource", { "prisma/schema.prisma": SCHEMA.replace('provider = "postgresql"', 'provider = "mysql"') }, 'prisma/schema.prisma has datasource provider "mysql": gatehouse\'s Prisma setup takes "postgresql" or "sqlite"'],
    ["no schema", { "prisma/schema.prisma": null }, "no Prisma schema at prisma/schema.prisma (named by prisma.config.ts)"],
    ["a schema computed in prisma.config.ts", { "prisma.config.ts": "import { defineConfig } from 'prisma/config';\nexport default defineConfig({ schema: process.env.SCHEMA });\n" }, "prisma.config.ts: its `schema` is not a string gatehouse can read"],
    ["no client module", { "src/lib/server/prisma.ts": null }, "no module of the app exports a Prisma Client (as `export const prisma = new PrismaClient()`)"],
    [
      "two client modules",
      { "src/lib/server/other.ts": "import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n" },
      "more than one module exports a Prisma Client (src/lib/server/other.ts, src/lib/server/prisma.ts): gatehouse cannot tell which one is the app's",
    ],
  ])("refused with why: %s", (_name, overrides, reason) => {
    expect(problemOf(lookup(overrides))).toBe(reason);
  });
});

describe("readPrismaSchema", () => {
  it("the datasource, models with their tables, and enums; comments and URLs in quotes read right", () => {
    const facts = readPrismaSchema(
      'datasource db {\n  provider = "postgresql" // the server\n  url = "postgres://u:p@localhost/db"\n}\n/// A user\nmodel Person {\n  id Int @id\n  @@map("people")\n}\nenum Role {\n  ADMIN\n}\n// model Ghost {\n// }\n',
    );
    expect(facts).toEqual({ datasource: { provider: "postgresql", url: "postgres://u:p@localhost/db" }, models: [{ name: "Person", table: "people" }], enums: ["Role"] });
  });
});

describe("planInit --adapter prisma", () => {
  it("appends the runtime's models to the one-file schema between the gatehouse lines, and nothing else of it changes", () => {
    const { plan: p } = plan({ "prisma/schema.prisma": PLAIN });
    const schema = planned(p, "prisma/schema.prisma")!;
    expect(schema.startsWith(`${PLAIN.trimEnd()}\n\n${AUTH_MODELS_BEGIN}\n`)).toBe(true);
    expect(schema.endsWith(`${AUTH_MODELS_END}\n`)).toBe(true);
    expect(authModelsBlock(schema)).toBe(MODELS("postgres"));
    expect(p.nextSteps.join("\n")).not.toContain("AuthUser");
  });

  it("a schema with a User model already (Prisma's quickstart): the auth models are AuthUser, AuthAccount, ... on the same tables, and the next step says so", () => {
    const { plan: p } = plan();
    const block = authModelsBlock(planned(p, "prisma/schema.prisma")!)!;
    expect(block).toBe(prefixedModels(MODELS("postgres")));
    const facts = readPrismaSchema(block);
    expect(facts.models.map((model) => model.name)).toEqual(["AuthUser", "AuthAccount", "AuthSession", "AuthVerificationToken", "AuthAuthenticator", "AuthRateLimit", "AuthUserPassword"]);
    expect(facts.models.map((model) => model.table)).toEqual(readPrismaSchema(MODELS("postgres")).models.map((model) => model.table));
    expect(block).toContain("  accounts       AuthAccount[]");
    expect(block).toContain("  user              AuthUser    @relation(fields: [userId]");
    expect(p.nextSteps.join("\n")).toContain("Your schema has models of the same names already, so these are AuthUser, AuthAccount, AuthSession, ... (their tables are still users, accounts, sessions, ...).");
  });

  it("planned again on its own output: the schema is unchanged (the block is replaced, not added twice)", () => {
    const first = planned(plan().plan, "prisma/schema.prisma")!;
    expect(planned(plan({ "prisma/schema.prisma": first }).plan, "prisma/schema.prisma")).toBeUndefined();
    // An older block (another runtime's models) is replaced in place.
    const older = first.replace(prefixedModels(MODELS("postgres")), "model AuthUser {\n  id String @id\n}\n");
    expect(planned(plan({ "prisma/schema.prisma": older }).plan, "prisma/schema.prisma")).toBe(first);
  });

  it("in a schema folder, the models are a file of their own and no schema file changes", () => {
    const { plan: p } = plan({ "prisma.config.ts": null, "prisma/schema.prisma": null, "prisma/schema/main.prisma": SQLITE_SCHEMA });
    expect(planned(p, "prisma/schema/auth.prisma")).toBe(MODELS("sqlite"));
    expect(p.changes.map((c) => c.path)).not.toContain("prisma/schema/main.prisma");
  });

  it("auth-db.ts puts the adapter on the app's client, checks the tables with the migrate command, disconnects at shutdown; no driver, no DATABASE_URL", () => {
    const { plan: p } = plan();
    const db = planned(p, "src/lib/server/auth-db.ts")!;
    expect(db).toContain("import { fromPrisma } from '@gatehouse/runtime/adapters/postgres/prisma';");
    expect(db).toContain("import { prisma } from './prisma';");
    expect(db).toContain("const client = fromPrisma(prisma);");
    expect(db).toContain("await requireSchema(client, { ledger: false, fix: '`npx prisma migrate dev --name gatehouse-auth`' });");
    expect(db).toContain("export const adapter = PostgresAdapter(check);");
    expect(db).toContain("await prisma.$disconnect();");
    expect(p.changes.map((c) => c.path)).not.toContain("src/lib/server/db.ts");
    expect(p.dependencies).not.toHaveProperty("pg");
    expect(planned(p, ".env")).not.toContain("DATABASE_URL");
    expect(planned(p, "src/auth.ts")).toContain("from '$lib/server/auth-db'");
    expect(p.nextSteps.join("\n")).toContain(
      "The auth tables are models in your Prisma schema, prisma/schema.prisma: create them the Prisma way, `npx prisma migrate dev --name gatehouse-auth` (writes and applies the migration, and generates the client).",
    );
  });

  it("SQLite: the SQLite adapter, and the file made owner-only where SQLite says it is; another export name imported under ours", () => {
    const { plan: p } = plan({ "prisma/schema.prisma": SQLITE_SCHEMA, "src/lib/server/prisma.ts": "import { PrismaClient } from '@prisma/client';\nexport const db = new PrismaClient();\n" });
    const db = planned(p, "src/lib/server/auth-db.ts")!;
    expect(db).toContain("import { fromPrisma } from '@gatehouse/runtime/adapters/sqlite/prisma';");
    expect(db).toContain("import { db as prisma } from './prisma';");
    expect(db).toContain("SELECT file FROM pragma_database_list WHERE name = 'main'");
    expect(db).toContain("chmodSync(path, 0o600)");
    expect(db).toContain("export const adapter = SqliteAdapter(check);");
  });

  it("--database-url is refused with --adapter prisma", () => {
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://localhost/app" })).toThrow(UsageError);
    expect(() => checkAnswers({ ...ANSWERS, databaseUrl: "postgres://localhost/app" })).toThrow(/--database-url is not used with --adapter prisma/);
  });
});

describe("prismaAuthModels and prismaCollisions", () => {
  const withSchema = (schema: string) => {
    const { project, prismaFiles, sources } = app({ "prisma/schema.prisma": schema });
    return { project, prisma: foundApp(detectPrisma(project, prismaFiles, sources)) };
  };
  const collisions = (schema: string, models = MODELS("postgres")) => {
    const { project, prisma } = withSchema(schema);
    return prismaCollisions(project, prisma, models);
  };
  const chosen = (schema: string) => {
    const { project, prisma } = withSchema(schema);
    return prismaAuthModels(project, prisma, MODELS("postgres"));
  };

  it("none in a schema of other names, nor in one that has the auth models already", () => {
    expect(collisions(PLAIN)).toEqual([]);
    expect(collisions(planned(plan({ "prisma/schema.prisma": PLAIN }).plan, "prisma/schema.prisma")!)).toEqual([]);
    expect(chosen(PLAIN)).toEqual({ ok: true, models: MODELS("postgres"), prefixed: false });
  });

  it("names of ours: the prefixed models, which collide with nothing", () => {
    expect(collisions(SCHEMA)).toEqual([{ kind: "name", problem: "prisma/schema.prisma has a model User" }]);
    expect(collisions(SCHEMA, prefixedModels(MODELS("postgres")))).toEqual([]);
    expect(chosen(SCHEMA)).toEqual({ ok: true, models: prefixedModels(MODELS("postgres")), prefixed: true });
  });

  it("a model on one of our tables (an Auth.js schema's User on users): refused, whatever the names", () => {
    const authjs = `${PLAIN}\nmodel User {\n  id String @id\n  @@map("users")\n}\nenum Session {\n  A\n}\n`;
    expect(collisions(authjs)).toEqual([
      { kind: "table", problem: 'prisma/schema.prisma maps model User to the table "users"' },
      { kind: "name", problem: "prisma/schema.prisma has an enum Session" },
    ]);
    expect(chosen(authjs)).toEqual({ ok: false, problems: ['prisma/schema.prisma maps model User to the table "users"'] });
  });

  it("the plain and the prefixed names both taken: refused with both", () => {
    const both = `${SCHEMA}\nmodel AuthUser {\n  id Int @id\n}\n`;
    expect(chosen(both)).toEqual({ ok: false, problems: ["prisma/schema.prisma has a model User", "prisma/schema.prisma has a model AuthUser"] });
  });
});

describe("the bins on a copy of the fixture", () => {
  const dirs: string[] = [];
  afterAll(() => removeAll(dirs));
  const NO_ENV = { DATABASE_URL: undefined, AUTH_SECRET: undefined, AUTH_URL: undefined, ORIGIN: undefined };

  it("auth-init --yes takes prisma (AuthUser, ... beside the app's User); auth migrate refuses (exit 2) naming Prisma's command; auth doctor compares the models with the installed runtime's", () => {
    const dir = tempCopy("sveltekit-prisma", "prisma", dirs);
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("created src/lib/server/auth-db.ts");
    expect(init.stdout).toContain("npx prisma migrate dev --name gatehouse-auth");
    expect(authModelsBlock(readFileSync(join(dir, "prisma/schema.prisma"), "utf8"))).toBe(prefixedModels(MODELS("postgres")));
    expect(init.stdout).toContain("so these are AuthUser, AuthAccount, AuthSession, ...");
    // Run again: auth-db.ts is read with the rest, so nothing is taken for a change made meanwhile.
    const again = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(again.code, again.stderr).toBe(0);

    const migrate = cli(authBin, ["migrate"], dir, NO_ENV, 60_000);
    expect(migrate.code).toBe(2);
    expect(migrate.stderr.trim()).toBe(
      "error: this app's auth tables are models of its Prisma schema (prisma/schema.prisma): Prisma creates them, with the app's own tables: run `npx prisma migrate dev --name gatehouse-auth`. Nothing was changed.",
    );

    // The runtime an install would bring: this checkout's.
    mkdirSync(join(dir, "node_modules/@gatehouse"), { recursive: true });
    symlinkSync(join(root, "runtime"), join(dir, "node_modules/@gatehouse/runtime"), "dir");
    const clean = cli(authBin, ["doctor"], dir, NO_ENV, 60_000);
    // The database is the Prisma Client's, which doctor does not open: not taken for none.
    expect(clean.stdout).not.toContain("needs a database");
    expect(clean.stdout).toContain("ok   the auth models in prisma/schema.prisma are the Prisma models of the app's @gatehouse/runtime; Prisma creates their tables (`npx prisma migrate dev --name gatehouse-auth`)");
    const schema = readFileSync(join(dir, "prisma/schema.prisma"), "utf8");
    writeFileSync(join(dir, "prisma/schema.prisma"), schema.replace("  image          String?\n", ""));
    const drifted = cli(authBin, ["doctor"], dir, NO_ENV, 60_000);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain(
      "fail the auth models in prisma/schema.prisma are not the Prisma models of the app's @gatehouse/runtime (node_modules/@gatehouse/runtime/orm/prisma/postgres.prisma)",
    );
  });

  it("a model of the app's on our users table (as Auth.js's Prisma schema maps it): refused (exit 2) with the names and the way out, nothing written", () => {
    const dir = tempCopy("sveltekit-prisma", "prisma", dirs);
    const schema = SCHEMA.replace("  posts Post[]\n}", '  posts Post[]\n\n  @@map("users")\n}');
    writeFileSync(join(dir, "prisma/schema.prisma"), schema);
    const before = readFileSync(join(dir, "package.json"), "utf8");
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0", "--adapter", "prisma"], dir, NO_ENV, 60_000);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(
      '--adapter prisma: the app\'s Prisma schema already has names the auth tables use: prisma/schema.prisma maps model User to the table "users". Rename yours, or keep the auth tables apart with --adapter pglite',
    );
    expect(readFileSync(join(dir, "prisma/schema.prisma"), "utf8")).toBe(schema);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(before);
  });
});
