/**
 * The commands on apps whose auth tables live in their Drizzle schema, through
 * the real bins: `auth-init` refusing what cannot work (no Drizzle, names the
 * app already uses) with nothing written; `auth migrate` pointing at
 * drizzle-kit; `auth doctor` reading the app's database with the app's Drizzle
 * driver (better-sqlite3, postgres.js) and the schema module against the
 * installed runtime's. The apps are sv's `drizzle` add-on output (fixtures) set
 * up by `auth-init --no-install`, their node_modules linking what an install
 * brings; the tables are made by drizzle-kit through the app's own scripts, as
 * the next steps say.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { testDatabases } from "../adapters/support/postgres-server.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { authBin, authInitBin, childEnv, cli, hasScript, onTerminal, removeAll, root, snapshotDir, tempCopy } from "./support/cli.js";
import { spawnSync } from "node:child_process";

const dirs: string[] = [];
const serverUrl = process.env.DATABASE_URL;
const databases = testDatabases(serverUrl, "drizzle");
afterAll(async () => {
  removeAll(dirs);
  await databases.dropAll();
});

// The process env wins over .env: keep the test run's own DATABASE_URL out of the apps.
const NO_ENV = { DATABASE_URL: undefined, AUTH_SECRET: undefined, AUTH_URL: undefined, ORIGIN: undefined };
vi.setConfig({ testTimeout: 120_000 });

const auth = (args: string[], cwd: string) => cli(authBin, args, cwd, NO_ENV, 60_000);

/** What `npm install` would bring, linked from this checkout; drizzle-kit with its bin, so the app's db:* scripts run. */
function linkModules(dir: string): void {
  const link = (name: string, target: string) => {
    const path = join(dir, "node_modules", name);
    mkdirSync(join(path, ".."), { recursive: true });
    symlinkSync(target, path);
  };
  for (const name of ["@gatehouse/runtime", "better-sqlite3", "postgres", "drizzle-orm", "drizzle-kit"]) link(name, name === "@gatehouse/runtime" ? join(root, "runtime") : join(root, "node_modules", name));
  link(".bin/drizzle-kit", join(root, "node_modules/drizzle-kit/bin.cjs"));
}

function setEnv(dir: string, key: string, value: string): void {
  const env = readFileSync(join(dir, ".env"), "utf8");
  const line = `${key}="${value}"`;
  writeFileSync(join(dir, ".env"), new RegExp(`^${key}=.*$`, "m").test(env) ? env.replace(new RegExp(`^${key}=.*$`, "m"), line) : `${env}${line}\n`);
}

/** sv's Drizzle app, set up by auth-init (which takes drizzle on its own), its modules linked. */
function setUpApp(dialect: "postgres" | "sqlite"): { dir: string; output: string } {
  const dir = tempCopy(`sveltekit-drizzle-${dialect}`, `drizzle-${dialect}`, dirs);
  const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
  expect(init.code, init.stderr).toBe(0);
  linkModules(dir);
  return { dir, output: init.stdout };
}

/** Runs one of the commands the next steps print, as a shell would. */
function runPrinted(command: string, dir: string): void {
  const result = spawnSync(command, { cwd: dir, shell: true, encoding: "utf8", env: childEnv({ ...NO_ENV, CI: "1" }), timeout: 60_000 });
  expect(result.status, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0);
}

/** The backticked commands of the next step about the Drizzle schema. */
function drizzleSteps(output: string): string[] {
  const step = output.split("\n").find((line) => line.includes("create them the Drizzle way"));
  expect(step, output).toBeDefined();
  return [...step!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

describe("auth-init in a Drizzle app", () => {
  it.skipIf(!hasScript)("on a terminal: the database question offers this app's Drizzle database first, with its driver and where the tables go; Enter takes it", async () => {
    const dir = tempCopy("sveltekit-drizzle-postgres", "drizzle-terminal", dirs);
    const run = await onTerminal(authInitBin, ["--no-install", "--runtime", "^0.1.0"], dir, [
      { when: "Sign in with", keys: "\r" },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      { when: "Add an account page", keys: "\r" },
    ], NO_ENV, 30_000);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("This app's Drizzle database");
    expect(run.output).toContain("postgres.js; the auth tables go into src/lib/server/db/auth-schema.ts, created by drizzle-kit");
    expect(existsSync(join(dir, "src/lib/server/auth-db.ts"))).toBe(true);
    expect(existsSync(join(dir, "src/lib/server/db.ts"))).toBe(false);
  });
});

describe("auth-init --adapter drizzle: refusals", () => {
  it("an app without Drizzle: exit 2 saying what is missing; nothing written", () => {
    const dir = tempCopy("sveltekit-minimal", "no-drizzle", dirs);
    const before = snapshotDir(dir);
    const result = cli(authInitBin, ["--yes", "--no-install", "--adapter", "drizzle"], dir, NO_ENV);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--adapter drizzle: this app has no Drizzle setup (drizzle-orm in package.json and a drizzle.config.ts)");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("an app whose Drizzle schema already has a users table: exit 2 naming it and the way out; nothing written", () => {
    const dir = tempCopy("sveltekit-drizzle-postgres", "drizzle-taken", dirs);
    writeFileSync(join(dir, "src/lib/server/db/schema.ts"), "import { pgTable, text } from 'drizzle-orm/pg-core';\n\nexport const users = pgTable('users', { id: text('id').primaryKey() });\n");
    const before = snapshotDir(dir);
    const result = cli(authInitBin, ["--yes", "--no-install"], dir, NO_ENV);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--adapter drizzle: the app's Drizzle schema already has names the auth tables use: src/lib/server/db/schema.ts defines a table \"users\"; src/lib/server/db/schema.ts exports `users`. Rename yours, or keep the auth tables apart with --adapter pglite (or sqlite, postgres). Nothing was changed",
    );
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("a Drizzle setup it cannot use (libsql) with --yes: says why and takes PGlite instead", () => {
    const dir = tempCopy("sveltekit-drizzle-sqlite", "drizzle-libsql", dirs);
    writeFileSync(join(dir, "src/lib/server/db/index.ts"), "import { drizzle } from 'drizzle-orm/libsql';\nexport const db = drizzle({ connection: { url: 'file:local.db' } });\n");
    const result = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, NO_ENV, 60_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("This app uses Drizzle, but its auth tables cannot go there: src/lib/server/db/index.ts opens the database with drizzle-orm/libsql, which gatehouse's Drizzle setup does not support yet");
    expect(existsSync(join(dir, "src/lib/server/db.ts"))).toBe(true);
    expect(existsSync(join(dir, "src/lib/server/db/auth-schema.ts"))).toBe(false);
  });
});

describe("a Drizzle app on SQLite (better-sqlite3)", () => {
  it("migrate points at drizzle-kit; doctor: the missing tables with the commands; after them, clean; an edited schema module and a readable file are named", () => {
    const { dir, output } = setUpApp("sqlite");
    expect(output).toContain("created src/lib/server/db/auth-schema.ts");
    const [generate, migrate] = drizzleSteps(output);
    expect([generate, migrate]).toEqual(["npm run db:generate", "npm run db:migrate"]);

    const migrated = auth(["migrate"], dir);
    expect(migrated.code).toBe(2);
    expect(migrated.stderr.trim()).toBe(
      "error: this app's auth tables are in its Drizzle schema (src/lib/server/db/auth-schema.ts): drizzle-kit creates them, with the app's own tables: run `npm run db:generate` then `npm run db:migrate`. Nothing was changed.",
    );
    expect(existsSync(join(dir, "local.db"))).toBe(false);

    // No file yet: doctor does not create one, and says how it comes.
    const noFile = auth(["doctor"], dir);
    expect(noFile.code).toBe(1);
    expect(noFile.stdout).toContain("fail the app's Drizzle database, SQLite in local.db does not exist yet, nor its auth tables (the app refuses to sign anyone in without them)");
    expect(noFile.stdout).toContain("fix: create them with drizzle-kit: `npm run db:generate` then `npm run db:migrate`");
    expect(existsSync(join(dir, "local.db"))).toBe(false);

    // The file made by another of the app's tables only: what the auth tables lack, and the commands.
    spawnSync(process.execPath, ["-e", "new (require('better-sqlite3'))('local.db').exec('CREATE TABLE task (id text)')"], { cwd: dir });
    const empty = auth(["doctor"], dir);
    expect(empty.code).toBe(1);
    expect(empty.stdout).toMatch(/fail the app's Drizzle database, SQLite in local\.db lacks table users \(0001_init\), table accounts \(0001_init\), .* \(the app refuses to sign anyone in on it\)/);
    expect(empty.stdout).toContain("fix: create them with drizzle-kit: `npm run db:generate` then `npm run db:migrate`");

    rmTask(dir);
    runPrinted(generate!, dir);
    runPrinted(migrate!, dir);
    chmodSync(join(dir, "local.db"), 0o644);
    const clean = auth(["doctor"], dir);
    expect(clean.stdout).toContain("ok   the app's Drizzle database, SQLite in local.db has every auth table, column and index of the app's @gatehouse/runtime");
    expect(clean.stdout).toContain("\n0 problems,");

    // drizzle-kit made the file with the umask's mode; it holds password hashes: a warning with its chmod (the app's auth-db tightens it at first use).
    chmodSync(join(dir, "local.db"), 0o644);
    expect(clean.stdout).toContain("warn the SQLite database local.db (mode 0644) can be read by other users of this machine\n       fix: run `chmod 600 local.db`");
    chmodSync(join(dir, "local.db"), 0o600);

    // The schema module auth-init wrote, changed by hand (a column gone): not the runtime's, with the copy that mends it.
    const schemaPath = join(dir, "src/lib/server/db/auth-schema.ts");
    writeFileSync(schemaPath, readFileSync(schemaPath, "utf8").replace(/^\s*userAgent: text\("userAgent"\),\n/m, ""));
    const edited = auth(["doctor"], dir);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain(
      "fail src/lib/server/db/auth-schema.ts is not the Drizzle schema of the app's @gatehouse/runtime (node_modules/@gatehouse/runtime/orm/drizzle/sqlite.ts): the tables drizzle-kit makes from it are not the ones the runtime uses",
    );
    expect(edited.stdout).toContain("fix: copy node_modules/@gatehouse/runtime/orm/drizzle/sqlite.ts over src/lib/server/db/auth-schema.ts, then run `npm run db:generate` then `npm run db:migrate`");
  });
});

describe.skipIf(!serverUrl)("a Drizzle app on PostgreSQL (postgres.js)", () => {
  it("doctor: an empty database lacks the auth tables, with the commands; after them, clean; a dropped column is named", async () => {
    const { dir, output } = setUpApp("postgres");
    const url = await databases.create();
    setEnv(dir, "DATABASE_URL", url);
    const empty = auth(["doctor"], dir);
    expect(empty.code).toBe(1);
    expect(empty.stdout).toMatch(/fail the app's Drizzle database, PostgreSQL at postgres:\/\/.* lacks table users \(0001_init\)/);
    for (const command of drizzleSteps(output)) runPrinted(command, dir);
    const clean = auth(["doctor"], dir);
    expect(clean.stdout).toContain("has every auth table, column and index of the app's @gatehouse/runtime");
    expect(clean.stdout).toContain("\n0 problems,");

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query('ALTER TABLE sessions DROP COLUMN "userAgent"');
    await db.end();
    const dropped = auth(["doctor"], dir);
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toMatch(/lacks column sessions\.userAgent \(\d{4}_\w+\) \(the app refuses to sign anyone in on it\)/);
  });
});

/** The stand-in table of the app's own, dropped again so drizzle-kit makes sv's `task` its way. */
function rmTask(dir: string): void {
  spawnSync(process.execPath, ["-e", "new (require('better-sqlite3'))('local.db').exec('DROP TABLE task')"], { cwd: dir });
}
