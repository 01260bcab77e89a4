/**
 * `auth migrate` and `auth doctor` through the real bins, on apps set up by
 * `auth-init --no-install` whose node_modules link this checkout's runtime and
 * drivers (what an install would give them, in a fraction of the time): a real
 * PGlite folder, a real SQLite file, and fresh databases on the PostgreSQL
 * server (PostgreSQL and hosted store) when DATABASE_URL is set. Also which
 * database an app uses (appDatabase), read from its files.
 */
import { spawnSync } from "node:child_process";
import { PGlite } from "@electric-sql/pglite";
import Database from "better-sqlite3";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { createPGliteFolder } from "../adapters/support/pglite.js";
import { testDatabases } from "../adapters/support/postgres-server.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { migrate as migratePostgres, migrations as postgresMigrations } from "@gatehouse/runtime/adapters/postgres";
import { migrate as migrateSqlite, migrations as sqliteMigrations } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { appDatabase } from "../../src/generators/app-database.js";
import { configuredProviders } from "../../src/generators/doctor.js";
import { authBin, authInitBin, cli, removeAll, root, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
const serverUrl = process.env.DATABASE_URL;
const databases = testDatabases(serverUrl, "doctor");
afterAll(async () => {
  removeAll(dirs);
  await databases.dropAll();
});

// The process env wins over .env (as dotenv): keep the runner's DATABASE_URL out of the apps.
const NO_ENV = {
  DATABASE_URL: undefined,
  HOSTED_STORE_DATABASE_URL: undefined,
  HOSTED_STORE_BRANCH: undefined,
  SQLITE_PATH: undefined,
  PGLITE_DIR: undefined,
  AUTH_SECRET: undefined,
  AUTH_URL: undefined,
  ORIGIN: undefined,
  AUTH_TRUST_HOST: undefined,
};
// Each test runs several CLI processes that open a fresh PGlite (about 6 s each when the
// machine is idle, several times that while the other suites run beside it, as in CI).
vi.setConfig({ testTimeout: 180_000 });

const auth = (args: string[], cwd: string) => cli(authBin, args, cwd, NO_ENV, 60_000);
const isWindows = process.platform === "win32";
const mode = (path: string) => statSync(path).mode & 0o777;

/** Runs `run` under umask 0, the loosest: what is not created with an explicit mode comes out 0666 / 0777. */
function withUmask0<T>(run: () => T): T {
  const saved = process.umask(0);
  try {
    return run();
  } finally {
    process.umask(saved);
  }
}

/**
 * auth-init's app for each set of flags, set up once for the file (auth-init is what these
 * tests stand on, not what they test: test/cli/init-command.test.ts does): each test gets a copy
 * of its own, with node_modules' links. Two runs differ only in their AUTH_SECRET.
 */
const initialized = new Map<string, string>();

/** An app set up by auth-init, with node_modules linking what `npm install` would bring. */
function setUpApp(initArgs: string[] = []): string {
  const key = JSON.stringify(initArgs);
  let template = initialized.get(key);
  if (template === undefined) {
    template = initApp(initArgs);
    initialized.set(key, template);
  }
  const dir = tempCopy(null, "db", dirs);
  cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

function initApp(initArgs: string[]): string {
  const dir = tempCopy("sveltekit-minimal", "db-app", dirs);
  const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0", ...initArgs], dir, NO_ENV, 60_000);
  expect(init.code, init.stderr).toBe(0);
  for (const [name, target] of [
    ["@gatehouse/runtime", join(root, "runtime")],
    ["@electric-sql/pglite", join(root, "node_modules/@electric-sql/pglite")],
    ["pg", join(root, "node_modules/pg")],
    ["better-sqlite3", join(root, "node_modules/better-sqlite3")],
  ] as const) {
    const link = join(dir, "node_modules", name);
    mkdirSync(join(link, ".."), { recursive: true });
    symlinkSync(target, link, "dir");
  }
  return dir;
}

/**
 * PGlite folders made once for the file, copied where a test needs a database that exists
 * (creating one, initdb, takes 4-7 s of CPU, many times that on a loaded machine; opening one
 * about one): `fresh` as PGlite creates it, no tables; `migrated` as `auth migrate` leaves a
 * fresh app's. The test of auth migrate creating the folder still creates it from nothing.
 */
let pgliteFolders: Promise<{ fresh: string; migrated: string }> | undefined;

function pgliteFolder(kind: "fresh" | "migrated"): Promise<string> {
  pgliteFolders ??= (async () => {
    const fresh = join(tempCopy(null, "db-pglite", dirs), "fresh");
    await createPGliteFolder(fresh);
    const app = setUpApp();
    cpSync(fresh, join(app, ".pglite"), { recursive: true });
    const migrate = auth(["migrate"], app);
    expect(migrate.stdout, migrate.stderr).toContain("PGlite in .pglite/: applied 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    return { fresh, migrated: join(app, ".pglite") };
  })();
  return pgliteFolders.then((folders) => folders[kind]);
}

/** Gives the app its PGlite folder: a copy of one made once (see pgliteFolder). */
async function copyPGlite(dir: string, kind: "fresh" | "migrated"): Promise<void> {
  cpSync(await pgliteFolder(kind), join(dir, ".pglite"), { recursive: true });
}

/** Sets `key` in the app's .env, replacing its line or adding one. */
function setEnv(dir: string, key: string, value: string): void {
  const env = readFileSync(join(dir, ".env"), "utf8");
  const line = `${key}="${value}"`;
  writeFileSync(join(dir, ".env"), new RegExp(`^${key}=.*$`, "m").test(env) ? env.replace(new RegExp(`^${key}=.*$`, "m"), line) : `${env}${line}\n`);
}

describe("auth migrate", () => {
  it("PGlite: --dry-run says the folder does not exist yet; migrate creates it with the whole schema; again: up to date", () => {
    const dir = setUpApp();
    expect(auth(["migrate", "--dry-run"], dir)).toMatchObject({ code: 0, stdout: expect.stringContaining("does not exist yet") });
    expect(existsSync(join(dir, ".pglite"))).toBe(false);
    const first = withUmask0(() => auth(["migrate"], dir));
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("PGlite in .pglite/: applied 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    // Owner-only from its creation, whatever the umask: PGlite's own files inside are 0666.
    if (!isWindows) expect(mode(join(dir, ".pglite"))).toBe(0o700);
    expect(auth(["migrate"], dir).stdout).toContain("is up to date");
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("is up to date");
  });

  it.runIf(serverUrl)("PostgreSQL (DATABASE_URL in .env): --dry-run lists and applies nothing; migrate applies; again: up to date", async () => {
    const url = await databases.create();
    const dir = setUpApp(["--adapter", "postgres", "--database-url", url]);
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("would apply 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("would apply 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    expect(auth(["migrate"], dir).stdout).toContain("applied 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    expect(auth(["migrate"], dir).stdout).toContain("is up to date");
  });

  it("SQLite: --dry-run creates no file; migrate creates .data/auth.sqlite with the whole schema; again: up to date; SQLITE_PATH moves it", () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    expect(auth(["migrate", "--dry-run"], dir)).toMatchObject({ code: 0, stdout: expect.stringContaining("SQLite in .data/auth.sqlite does not exist yet") });
    expect(existsSync(join(dir, ".data"))).toBe(false);
    const first = withUmask0(() => auth(["migrate"], dir));
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("SQLite in .data/auth.sqlite: applied 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    if (!isWindows) expect(mode(join(dir, ".data/auth.sqlite"))).toBe(0o600);
    expect(auth(["migrate"], dir).stdout).toContain("SQLite in .data/auth.sqlite is up to date.");
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("is up to date");
    const db = new Database(join(dir, ".data/auth.sqlite"), { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'user_passwords'").all()).toHaveLength(1);
    db.close();

    setEnv(dir, "SQLITE_PATH", "var/db/other.sqlite");
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("SQLite in var/db/other.sqlite does not exist yet");
    expect(auth(["migrate"], dir).stdout).toContain("SQLite in var/db/other.sqlite: applied 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    expect(existsSync(join(dir, "var/db/other.sqlite"))).toBe(true);

    // A file an older auth migrate (or db.ts) left readable by others is tightened by the next migrate.
    if (isWindows) return;
    chmodSync(join(dir, "var/db/other.sqlite"), 0o644);
    expect(auth(["migrate"], dir).stdout).toContain("is up to date");
    expect(mode(join(dir, "var/db/other.sqlite"))).toBe(0o600);
  });

  it("PGlite open in another process (the app's server): migrate and --dry-run refuse in one line naming it (exit 1), the database untouched; doctor warns without opening it; once closed, migrate applies", async () => {
    const dir = setUpApp();
    // As the app's db module opens it: this test's process plays the running app (which created it, no tables yet).
    await copyPGlite(dir, "fresh");
    const app = new PGlite(join(dir, ".pglite"));
    try {
      await app.query("SELECT 1");
      for (const args of [["migrate"], ["migrate", "--dry-run"]]) {
        const run = auth(args, dir);
        expect(run.code, args.join(" ")).toBe(1);
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(new RegExp(`^error: PGlite in \\.pglite/ is in use by process ${process.pid} \\(.+\\): stop the app first; it migrates itself when it starts\\. Nothing was changed\\.\\n$`));
      }
      const doctor = auth(["doctor"], dir);
      expect(doctor.stdout).toContain(`warn PGlite in .pglite/ is in use by process ${process.pid}`);
      expect(doctor.stdout).toContain("fix: stop the app and run doctor again");
      const { rows } = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await app.close();
    }
    // Closed: the folder is free (no stale marker blocks it).
    expect(auth(["migrate"], dir)).toMatchObject({ code: 0, stdout: expect.stringContaining("PGlite in .pglite/: applied 0001_init") });
  }, 120_000);

  it("PGlite: --database-url is refused (exit 2): the database is a folder, PGLITE_DIR moves it; no driver is blamed, nothing created", () => {
    const dir = setUpApp();
    const run = auth(["migrate", "--database-url", "postgres://app:pw@127.0.0.1:1/app"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: --database-url is for a database server; this app's database is PGlite, a folder \(\.pglite\/ by default; PGLITE_DIR in \.env moves it\), so it does not apply/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\bpg\b|driver|ECONNREFUSED/);
    expect(existsSync(join(dir, ".pglite"))).toBe(false);
  });

  it("SQLite: --database-url is refused (exit 2): the database is a file", () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    const run = auth(["migrate", "--database-url", "postgres://x/y"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("this app's database is a SQLite file (SQLITE_PATH in .env moves it)");
  });

  it.runIf(serverUrl)("hosted store (HOSTED_STORE_DATABASE_URL in .env): the svc_ schema and the password table in the branch's schema, its own ledger", async () => {
    const url = await databases.create();
    const dir = setUpApp(["--adapter", "hosted-store", "--database-url", url]);
    const where = `the hosted store's branch "main" at ${url}`;
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain(`${where}: would apply 0001_init, 0002_user_passwords, 0003_account_management, 0004_hosted_rate_limits\n`);
    const first = auth(["migrate"], dir);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain(`${where}: applied 0001_init, 0002_user_passwords, 0003_account_management, 0004_hosted_rate_limits\n`);
    expect(auth(["migrate"], dir).stdout).toContain(`${where} is up to date.`);
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain("is up to date");

    // Another branch is another schema: everything is pending there, and applied there alone.
    setEnv(dir, "HOSTED_STORE_BRANCH", "preview");
    expect(auth(["migrate", "--dry-run"], dir).stdout).toContain(`branch "preview" at ${url}: would apply 0001_init, 0002_user_passwords, 0003_account_management, 0004_hosted_rate_limits\n`);
    expect(auth(["migrate"], dir).stdout).toContain(`branch "preview" at ${url}: applied 0001_init, 0002_user_passwords, 0003_account_management, 0004_hosted_rate_limits\n`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ schema: string }>("SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'svc_user_passwords' ORDER BY 1");
    const ledger = await client.query<{ t: string | null }>("SELECT to_regclass('public.gatehouse_migrations')::text AS t");
    await client.end();
    expect(rows.map((r) => r.schema)).toEqual(["main", "preview"]);
    expect(ledger.rows).toEqual([{ t: null }]);
  });

  it("hosted store: a store that cannot be reached exits 1 naming it, password hidden; no HOSTED_STORE_DATABASE_URL exits 1 with the fix", () => {
    const dir = setUpApp(["--adapter", "hosted-store"]);
    expect(auth(["migrate"], dir)).toMatchObject({ code: 1, stderr: expect.stringContaining("set HOSTED_STORE_DATABASE_URL in .env") });
    const run = auth(["migrate", "--database-url", "postgres://app:secret-pw@127.0.0.1:1/app"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the hosted store's branch "main" at postgres://app:***@127.0.0.1:1/app`);
    expect(run.stderr).not.toContain("secret-pw");
    expect(run.stderr).toMatch(/ECONNREFUSED/);
  });

  it("a server that cannot be reached: exit 1 naming it, password hidden", () => {
    const dir = setUpApp(["--adapter", "postgres"]);
    const run = auth(["migrate", "--database-url", "postgres://app:secret-pw@127.0.0.1:1/app"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("PostgreSQL at postgres://app:***@127.0.0.1:1/app");
    expect(run.stderr).not.toContain("secret-pw");
    expect(run.stderr).toMatch(/ECONNREFUSED/);
  });

  it("bad input: an invalid --database-url or no package.json exit 2; postgres without DATABASE_URL exits 1 with the fix", () => {
    const dir = setUpApp(["--adapter", "postgres"]);
    expect(auth(["migrate", "--database-url", "mysql://x/y"], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("postgres://") });
    expect(auth(["migrate"], dir)).toMatchObject({ code: 1, stderr: expect.stringContaining("set DATABASE_URL in .env") });
    const empty = tempCopy(null, "db-empty", dirs);
    expect(auth(["migrate"], empty)).toMatchObject({ code: 2, stderr: expect.stringContaining("no package.json") });
  });
});

describe("auth doctor", () => {
  it("a fresh app made by auth-init: no problems; the PGlite folder is created on first start; the origin is a warning", async () => {
    const dir = setUpApp();
    const run = auth(["doctor"], dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("ok   AUTH_SECRET is set (43 characters)");
    expect(run.stdout).toContain("does not exist yet: the app creates and migrates it on first start");
    expect(run.stdout).toContain("warn no public origin configured");
    expect(run.stdout).toContain("ok   @gatehouse/runtime 0.1.0");
    // Its database as `auth migrate` leaves it (the first test of auth migrate makes one from nothing).
    await copyPGlite(dir, "migrated");
    expect(auth(["migrate"], dir).code).toBe(0);
    expect(auth(["doctor"], dir).stdout).toContain("ok   PGlite in .pglite/ is reachable and migrated");
  });

  it("no package.json: still every finding and the summary, which ends by saying there is no package.json and what to do; exit 1", () => {
    const dir = tempCopy(null, "doctor-no-app", dirs);
    writeFileSync(join(dir, ".env"), `AUTH_SECRET=${"s".repeat(40)}\n`);
    const run = auth(["doctor"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^fail no package\.json here: this is not an app's folder\n {7}fix: run doctor in the app's folder, or pass --cwd <app folder>\n/);
    expect(run.stdout).toContain("ok   AUTH_SECRET is set (40 characters)");
    expect(run.stdout).toContain("fail @gatehouse/runtime is not installed");
    // Which database an app uses comes from its package.json: no claim without one.
    expect(run.stdout).not.toContain("no database");
    expect(run.stdout).toMatch(/\n\n\d+ problems?, \d+ warnings?\. No package\.json in .+: run doctor in the app's folder, or pass --cwd <app folder>\.\n$/);
  });

  it("each problem with its fix, exit 1: short secret, .env not ignored, bad AUTH_URL, runtime missing", () => {
    const dir = tempCopy("sveltekit-minimal", "doctor-bad", dirs);
    writeFileSync(join(dir, ".env"), "AUTH_SECRET=short\nAUTH_SECRET_1=old\nAUTH_URL=not a url\n");
    writeFileSync(join(dir, ".gitignore"), "node_modules\n");
    const run = auth(["doctor"], dir);
    expect(run.code).toBe(1);
    // The runtime refuses a short secret anywhere in the list, so rotating (which keeps it) is not the fix.
    expect(run.stdout).toContain("fail AUTH_SECRET has 5 characters; the runtime needs at least 32 and refuses the config");
    expect(run.stdout).toContain("fail AUTH_SECRET_1 has 3 characters; the runtime needs at least 32 and refuses the config");
    expect(run.stdout).toContain("fix: run `npx @gatehouse/cli secret --yes`");
    expect(run.stdout).not.toContain("--rotate");
    expect(run.stdout).toContain("warn .env is not listed in .gitignore");
    expect(run.stdout).toContain("fail AUTH_URL is not a URL: not a url");
    expect(run.stdout).toContain("fail @gatehouse/runtime is not installed");
    expect(run.stdout).toContain("warn no auth config found (src/auth.ts)");
    expect(run.stdout).toMatch(/\d+ problems, \d+ warnings\./);
  });

  it("OAuth providers: their empty env keys are a problem with where to get them, until they are set", () => {
    const dir = setUpApp(["--providers", "password,github"]);
    const run = auth(["doctor"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("fail GitHub: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET not set");
    expect(run.stdout).toContain("fix: set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env (from https://github.com/settings/developers)");
    writeFileSync(join(dir, ".env"), readFileSync(join(dir, ".env"), "utf8").replace("AUTH_GITHUB_ID=", "AUTH_GITHUB_ID=Iv1.abc").replace("AUTH_GITHUB_SECRET=", "AUTH_GITHUB_SECRET=shh"));
    expect(auth(["doctor"], dir).stdout).toContain("ok   provider github: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET set");
  });

  it("no AUTH_SECRET and no .env: the fix is auth secret", () => {
    const dir = tempCopy("sveltekit-minimal", "doctor-nosecret", dirs);
    const run = auth(["doctor"], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("fail AUTH_SECRET is not set (there is no .env)");
    expect(run.stdout).toContain("fix: run `npx @gatehouse/cli secret`");
  });

  it("postgres: DATABASE_URL missing is a problem; unreachable is a problem; pending migrations a warning until auth migrate", async () => {
    const dir = setUpApp(["--adapter", "postgres"]);
    expect(auth(["doctor"], dir).stdout).toContain("fail database: DATABASE_URL is not set");
    writeFileSync(join(dir, ".env"), readFileSync(join(dir, ".env"), "utf8").replace(/DATABASE_URL=.*/, 'DATABASE_URL="postgres://app:pw@127.0.0.1:1/app"'));
    const down = auth(["doctor"], dir);
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/fail PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/app cannot be reached/);
    if (!serverUrl) return;
    const url = await databases.create();
    writeFileSync(join(dir, ".env"), readFileSync(join(dir, ".env"), "utf8").replace(/DATABASE_URL=.*/, `DATABASE_URL="${url}"`));
    const pending = auth(["doctor"], dir);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain("lacks migrations: 0001_init, 0002_rate_limits, 0003_user_passwords, 0004_account_management\n");
    expect(auth(["migrate"], dir).code).toBe(0);
    expect(auth(["doctor"], dir).stdout).toContain("is reachable and migrated");
  });
});

describe.skipIf(isWindows)("auth doctor: secrets at rest", () => {
  const summary = (stdout: string) => /\d+ problems?, \d+ warnings?\./.exec(stdout)?.[0];

  /** The chmod commands doctor printed, run as printed (from the app's folder, where doctor ran). */
  function runFixes(stdout: string, dir: string): string[] {
    const commands = [...stdout.matchAll(/fix: run `(chmod [^`]+)`/g)].map((match) => match[1]!);
    for (const command of commands) expect(spawnSync("sh", ["-c", command], { cwd: dir, encoding: "utf8" }).status, command).toBe(0);
    return commands;
  }

  it("PGlite: env files others can read and an open PGlite folder are warnings, each with its chmod; run as printed, doctor is as clean as before", async () => {
    const dir = setUpApp();
    await copyPGlite(dir, "migrated");
    expect(auth(["migrate"], dir).code).toBe(0);
    const clean = auth(["doctor"], dir);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toContain("ok   only their owner can read .env, .pglite\n");

    chmodSync(join(dir, ".env"), 0o644);
    writeFileSync(join(dir, ".env.local"), "OTHER=1\n");
    chmodSync(join(dir, ".env.local"), 0o666);
    chmodSync(join(dir, ".pglite"), 0o755);
    const loose = auth(["doctor"], dir);
    expect(loose.code, loose.stdout).toBe(0);
    expect(loose.stdout).toContain("warn .env can be read by other users of this machine (mode 0644) and holds AUTH_SECRET\n");
    expect(loose.stdout).toContain("fix: run `chmod 600 .env`; its AUTH_SECRET may have been read: replace it with `npx @gatehouse/cli secret --yes`\n");
    expect(loose.stdout).toContain("warn .env.local can be read by other users of this machine (mode 0666)\n");
    expect(loose.stdout).toContain("warn the PGlite folder .pglite is open to other users of this machine (mode 0755)");
    expect(runFixes(loose.stdout, dir)).toEqual(["chmod 600 .env", "chmod 600 .env.local", "chmod 700 .pglite"]);
    expect(mode(join(dir, ".pglite"))).toBe(0o700);
    const fixed = auth(["doctor"], dir).stdout;
    expect(fixed).toContain("ok   only their owner can read .env, .env.local, .pglite\n");
    expect(summary(fixed)).toBe(summary(clean.stdout));
  });

  it("SQLite: a database file others can read is a warning with its chmod; run as printed, doctor is as clean as before", () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    expect(auth(["migrate"], dir).code).toBe(0);
    const clean = auth(["doctor"], dir);
    expect(clean.stdout).not.toContain("other users");
    chmodSync(join(dir, ".data/auth.sqlite"), 0o644);
    const loose = auth(["doctor"], dir);
    expect(loose.code, loose.stdout).toBe(0);
    expect(loose.stdout).toContain("warn the SQLite database .data/auth.sqlite (mode 0644) can be read by other users of this machine");
    expect(runFixes(loose.stdout, dir)).toEqual(["chmod 600 .data/auth.sqlite"]);
    expect(auth(["doctor"], dir).stdout).toBe(clean.stdout);
    expect(clean.stdout).toContain("ok   only their owner can read .env, .data/auth.sqlite\n");
  });
});

describe("auth doctor on SQLite and the hosted store", () => {
  it("SQLite: the file is created on first start; once migrated it is ok; a migration missing from the ledger is a warning until auth migrate", () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    const fresh = auth(["doctor"], dir);
    expect(fresh.code, fresh.stdout + fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("ok   SQLite in .data/auth.sqlite does not exist yet: the app creates and migrates it on first start");
    expect(existsSync(join(dir, ".data"))).toBe(false);
    expect(auth(["migrate"], dir).code).toBe(0);
    expect(auth(["doctor"], dir).stdout).toContain("ok   SQLite in .data/auth.sqlite is reachable and migrated");

    const db = new Database(join(dir, ".data/auth.sqlite"));
    db.prepare("DELETE FROM gatehouse_migrations WHERE name = ?").run("0003_user_passwords");
    db.close();
    const pending = auth(["doctor"], dir);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain("warn SQLite in .data/auth.sqlite lacks migrations: 0003_user_passwords");
    expect(auth(["migrate"], dir).stdout).toContain("applied 0003_user_passwords");
  });

  it("hosted store: no URL is a problem with its fix; unreachable is a problem; pending migrations a warning until auth migrate", async () => {
    const dir = setUpApp(["--adapter", "hosted-store"]);
    const unset = auth(["doctor"], dir);
    expect(unset.code).toBe(1);
    expect(unset.stdout).toContain("fail database: HOSTED_STORE_DATABASE_URL is not set");
    expect(unset.stdout).toContain("fix: set HOSTED_STORE_DATABASE_URL in .env");
    setEnv(dir, "HOSTED_STORE_DATABASE_URL", "postgres://app:pw@127.0.0.1:1/app");
    const down = auth(["doctor"], dir);
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/fail the hosted store's branch "main" at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/app cannot be reached/);
    expect(down.stdout).toContain("fix: check HOSTED_STORE_DATABASE_URL and HOSTED_STORE_BRANCH, and that the store is running");
    if (!serverUrl) return;
    setEnv(dir, "HOSTED_STORE_DATABASE_URL", await databases.create());
    const pending = auth(["doctor"], dir);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain("lacks migrations: 0001_init, 0002_user_passwords, 0003_account_management, 0004_hosted_rate_limits\n");
    expect(auth(["migrate"], dir).code).toBe(0);
    expect(auth(["doctor"], dir).stdout).toContain(`ok   the hosted store's branch "main" at`);
  });
});

/** The migrations as they shipped before the schema was data (test/adapters/fixtures): what an older runtime applied. */
function releasedMigrations(dialect: string): { name: string; sql: string }[] {
  const dir = join(root, "test/adapters/fixtures/released-migrations", dialect);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".sql".length), sql: readFileSync(join(dir, file), "utf8") }));
}

/** A migration only a newer runtime has. */
const FUTURE = { name: "0005_future", sql: "CREATE TABLE future_things (id text PRIMARY KEY)" };

describe("auth doctor: drift from the schema the app's runtime expects", () => {
  it("SQLite made by an older schema (0001-0003 as released): the missing migration is a warning; auth migrate applies it; doctor is clean", async () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    mkdirSync(join(dir, ".data"), { recursive: true, mode: 0o700 });
    const db = new Database(join(dir, ".data/auth.sqlite"));
    chmodSync(join(dir, ".data/auth.sqlite"), 0o600);
    await migrateSqlite(fromBetterSqlite3(db), { migrations: releasedMigrations("sqlite").slice(0, 3) });
    db.close();
    const older = auth(["doctor"], dir);
    expect(older.code, older.stdout).toBe(0);
    expect(older.stdout).toContain("warn SQLite in .data/auth.sqlite lacks migrations: 0004_account_management\n");
    expect(older.stdout).toContain("fix: run `npx @gatehouse/cli migrate`");
    expect(auth(["migrate"], dir).stdout).toContain("applied 0004_account_management");
    expect(auth(["doctor"], dir).stdout).toContain("ok   SQLite in .data/auth.sqlite is reachable and migrated");
  });

  it("SQLite migrated further by a newer runtime: a problem naming the migration and both fixes, exit 1; auth migrate refuses it the same way", async () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    mkdirSync(join(dir, ".data"), { recursive: true, mode: 0o700 });
    const db = new Database(join(dir, ".data/auth.sqlite"));
    chmodSync(join(dir, ".data/auth.sqlite"), 0o600);
    await migrateSqlite(fromBetterSqlite3(db), { migrations: [...sqliteMigrations, FUTURE] });
    db.close();
    const newer = auth(["doctor"], dir);
    expect(newer.code).toBe(1);
    expect(newer.stdout).toContain("fail SQLite in .data/auth.sqlite records migrations the app's @gatehouse/runtime does not know: 0005_future (the app refuses to start on it)");
    expect(newer.stdout).toContain("fix: a newer @gatehouse/runtime applied them: install that version in this app; or, if they are migrations of your own, list them again at the end of the app's schema (src/lib/server/schema.ts)");
    const migrate = auth(["migrate"], dir);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain("records migrations this list does not have: 0005_future");
  });

  it("SQLite changed by hand after it was migrated: the lost column and table are problems with their migrations, exit 1", async () => {
    const dir = setUpApp(["--adapter", "sqlite"]);
    expect(auth(["migrate"], dir).code).toBe(0);
    const db = new Database(join(dir, ".data/auth.sqlite"));
    db.exec(`ALTER TABLE sessions DROP COLUMN "userAgent"; DROP TABLE rate_limits`);
    db.close();
    const changed = auth(["doctor"], dir);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain(
      "fail SQLite in .data/auth.sqlite lacks column sessions.userAgent (0004_account_management), table rate_limits (0002_rate_limits), although its ledger records those migrations as applied",
    );
    expect(changed.stdout).toContain("fix: something changed the database after it was migrated: restore what is missing from the migrations' SQL in node_modules/@gatehouse/runtime/migrations/sqlite/");
  });

  it.skipIf(!serverUrl)("PostgreSQL made by an older schema, then migrated further by a newer runtime: a warning, then a problem", async () => {
    const dir = setUpApp(["--adapter", "postgres"]);
    const url = await databases.create();
    setEnv(dir, "DATABASE_URL", url);
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePostgres(pool, { migrations: releasedMigrations("postgres").slice(0, 3) });
      const older = auth(["doctor"], dir);
      expect(older.code, older.stdout).toBe(0);
      expect(older.stdout).toContain("lacks migrations: 0004_account_management\n");
      await migratePostgres(pool, { migrations: [...postgresMigrations, FUTURE] });
      const newer = auth(["doctor"], dir);
      expect(newer.code).toBe(1);
      expect(newer.stdout).toContain("records migrations the app's @gatehouse/runtime does not know: 0005_future");
    } finally {
      await pool.end();
    }
  });
});

describe("appDatabase: which database an app uses", () => {
  const pkg = (deps: Record<string, string>) => JSON.stringify({ dependencies: deps });
  const db = (adapter: string) => `import { migrate } from '@gatehouse/runtime/adapters/${adapter}';\n`;

  it("the adapter the db module imports decides, so a hosted-store app (which lists pg) is not taken for PostgreSQL", () => {
    const env = { DATABASE_URL: "postgres://db/app", HOSTED_STORE_DATABASE_URL: "postgres://store/app", HOSTED_STORE_BRANCH: "preview" };
    expect(appDatabase({ packageJson: pkg({ pg: "8" }), env, dbModule: db("hosted-store") })).toEqual({ found: true, target: { kind: "hosted-store", url: "postgres://store/app", branch: "preview" } });
    expect(appDatabase({ packageJson: pkg({ pg: "8" }), env, dbModule: db("postgres") })).toEqual({ found: true, target: { kind: "postgres", url: "postgres://db/app" } });
    expect(appDatabase({ packageJson: pkg({ "better-sqlite3": "12" }), env: {}, dbModule: db("sqlite") })).toEqual({ found: true, target: { kind: "sqlite", file: ".data/auth.sqlite" } });
    expect(appDatabase({ packageJson: pkg({ "@electric-sql/pglite": "0.5" }), env: {}, dbModule: db("postgres") })).toEqual({ found: true, target: { kind: "pglite", dir: ".pglite" } });
  });

  it("without a db module, the driver in package.json; pg with only the hosted store's env key is the hosted store", () => {
    expect(appDatabase({ packageJson: pkg({ pg: "8" }), env: { HOSTED_STORE_DATABASE_URL: "" } })).toMatchObject({ found: false, reason: "HOSTED_STORE_DATABASE_URL is not set" });
    expect(appDatabase({ packageJson: pkg({ pg: "8" }), env: { DATABASE_URL: "" } })).toMatchObject({ found: false, reason: "DATABASE_URL is not set" });
    expect(appDatabase({ packageJson: pkg({ "better-sqlite3": "12" }), env: { SQLITE_PATH: "/srv/auth.db" } })).toEqual({ found: true, target: { kind: "sqlite", file: "/srv/auth.db" } });
    expect(appDatabase({ packageJson: pkg({}), env: {} })).toMatchObject({ found: false, reason: expect.stringContaining("better-sqlite3") });
  });

  it("--database-url replaces the env's URL: for the hosted store its branch stays the env's; a SQLite app refuses it", () => {
    const env = { HOSTED_STORE_BRANCH: "preview" };
    expect(appDatabase({ packageJson: pkg({ pg: "8" }), env, databaseUrl: "postgres://x/y", dbModule: db("hosted-store") })).toEqual({ found: true, target: { kind: "hosted-store", url: "postgres://x/y", branch: "preview" } });
    expect(appDatabase({ packageJson: pkg({ "@electric-sql/pglite": "0.5" }), env, databaseUrl: "postgres://x/y" })).toMatchObject({ found: false, reason: expect.stringContaining("PGlite, a folder") });
    expect(appDatabase({ packageJson: pkg({ "better-sqlite3": "12" }), env, databaseUrl: "postgres://x/y" })).toMatchObject({ found: false });
  });
});

describe("configuredProviders", () => {
  it("reads the provider imports of an auth config, aliases and type imports included", () => {
    const config = `import { Credentials, GitHub as GH, type Provider } from '@gatehouse/runtime/providers';\nimport { x } from 'elsewhere';\n`;
    expect(configuredProviders(config)).toEqual(["Credentials", "GitHub"]);
  });
});
