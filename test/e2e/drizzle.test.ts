/**
 * `auth-init --yes` in a SvelteKit app whose database `sv add drizzle` set up,
 * once on a PostgreSQL server through postgres.js and once on a SQLite file
 * through better-sqlite3: it chooses `--adapter drizzle` by itself, puts the
 * runtime's Drizzle schema of the auth tables into the app's schema, and runs
 * the adapter on the app's own connection (`db.$client`). The app type-checks
 * and builds; started before its tables exist, it refuses sign-ups and session
 * reads, its log naming the commands to run; after the commands auth-init
 * printed (drizzle-kit's generate, then migrate), `doctor` finds nothing
 * missing, a person signs up, confirms
 * the mailed link, signs out and in again in Chromium, the rows land in the
 * app's database, and the built server exits cleanly on SIGTERM.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { root } from "../cli/support/cli.js";
import { EMAIL } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { expectRefusedBeforeTables, expectSignUpOutAndIn, printedCommands, runPrinted } from "./support/orm-app.js";
import { makeDrizzleApp, type DrizzleDialect, type DrizzleSvelteKitApp } from "./support/drizzle-app.js";
import { startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { run, startBuiltApp, WITHOUT_TEST_DATABASE, type RunningServer } from "./support/processes.js";
import { serverRows, sqliteRows } from "./support/rows.js";
import { expectCleanStop } from "./support/shutdown.js";

const serverUrl = process.env.DATABASE_URL;

/** The auth tables every runtime migration so far makes. */
const AUTH_TABLES = ["accounts", "authenticators", "rate_limits", "sessions", "user_passwords", "users", "verification_token"];
const USERS_SQL = `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id ORDER BY u.email`;

interface Variant {
  dialect: DrizzleDialect;
  /** The driver package the app's db module (sv's) opens the database with. */
  driver: string;
  /** A database of its own on the PostgreSQL server, in the app's .env. */
  server: boolean;
  /** How drizzle-kit quotes a table name in its migration SQL. */
  quote: (table: string) => string;
  /** The tables of the app's database. */
  tables: (app: DrizzleSvelteKitApp, url: string | undefined) => Promise<string[]>;
  /** Every user by email, with whether a password hash is stored. */
  users: (app: DrizzleSvelteKitApp, url: string | undefined) => Promise<{ email: string; hashed: boolean }[]>;
}

const variants: Variant[] = [
  {
    dialect: "postgres",
    driver: "postgres",
    server: true,
    quote: (table) => `"${table}"`,
    tables: async (_app, url) => (await serverRows<{ name: string }>(url!, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`)).map((row) => row.name),
    users: (_app, url) => serverRows(url!, USERS_SQL),
  },
  {
    dialect: "sqlite",
    driver: "better-sqlite3",
    server: false,
    quote: (table) => `\`${table}\``,
    tables: async (app) => (await sqliteRows<{ name: string }>(join(app.dir, "local.db"), `SELECT name FROM sqlite_master WHERE type = 'table'`)).map((row) => row.name),
    users: async (app) => (await sqliteRows<{ email: string; hashed: number }>(join(app.dir, "local.db"), USERS_SQL)).map((row) => ({ email: row.email, hashed: row.hashed === 1 })),
  },
];

/** A variant's app, its SMTP server and (PostgreSQL) its database of its own. */
interface Made {
  app: DrizzleSvelteKitApp;
  mail: AppMail;
  database?: TestDatabase;
}

async function release({ app, mail, database }: Partial<Made>): Promise<void> {
  app?.remove();
  await mail?.server.close();
  await database?.drop();
}

async function make(variant: Variant): Promise<Made> {
  const made: Partial<Made> = {};
  try {
    if (variant.server) made.database = await createTestDatabase(serverUrl!, "e2e");
    made.mail = await startMailFor();
    made.app = await makeDrizzleApp(`drizzle-${variant.dialect}`, variant.dialect, made.database?.url);
    return made as Made;
  } catch (error) {
    await release(made);
    throw error;
  }
}

/** The variants that run here: PostgreSQL needs DATABASE_URL. */
const ready = variants.filter((variant) => !variant.server || serverUrl !== undefined);
const making = new Map<DrizzleDialect, Promise<Made>>();

// Both apps are made before the first test, at once: sv create and the installs wait much on the
// network and the disk. Not beside the tests: the browser steps' timeouts assume a machine not
// also building. A variant whose app fails fails its own tests.
beforeAll(async () => {
  for (const variant of ready) making.set(variant.dialect, make(variant));
  await Promise.allSettled(making.values());
}, 900_000);

for (const variant of variants) {
  describe.skipIf(!ready.includes(variant))(`auth-init --yes in a SvelteKit app of sv add drizzle (${variant.dialect}, ${variant.driver})`, () => {
    let app: DrizzleSvelteKitApp;
    let database: TestDatabase | undefined;
    let mail: AppMail;
    let server: RunningServer | undefined;

    beforeAll(async () => {
      ({ app, mail, database } = await making.get(variant.dialect)!);
    });

    afterAll(async () => {
      await server?.stop();
      const made = await making.get(variant.dialect)!.catch(() => undefined);
      if (made) await release(made);
    });

      it("chose --adapter drizzle: the runtime's Drizzle schema beside the app's, re-exported, no database module or driver of its own, and the drizzle-kit commands as next steps", () => {
      const file = (path: string) => readFileSync(join(app.dir, path), "utf8");
      expect(file("src/lib/server/db/auth-schema.ts")).toBe(readFileSync(join(root, "runtime/orm/drizzle", `${variant.dialect}.ts`), "utf8"));
      expect(file("src/lib/server/db/schema.ts")).toMatch(/\nexport \* from '\.\/auth-schema';\n$/);
      expect(file("src/lib/server/auth-db.ts")).toContain("db.$client");
      // What --adapter postgres or sqlite would have written: the app's db module is the one.
      for (const ours of ["src/lib/server/db.ts", "src/lib/server/schema.ts"]) expect(existsSync(join(app.dir, ours)), ours).toBe(false);
      const pkg = JSON.parse(file("package.json"));
      const listed = { ...pkg.dependencies, ...pkg.devDependencies };
      expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
      for (const driver of ["pg", "@electric-sql/pglite", ...(variant.dialect === "postgres" ? ["better-sqlite3"] : [])]) expect(listed[driver], driver).toBeUndefined();
      expect(listed[variant.driver]).toBeDefined();
      if (variant.dialect === "sqlite" && Number(process.versions.node.split(".")[0]) < 22) expect(listed["better-sqlite3"]).toMatch(/^\^12\./);
      expect(app.initOutput).toContain("it uses the app's Drizzle database");
      expect(printedCommands(app.initOutput, "in your Drizzle schema")).toEqual(["npm run db:generate", "npm run db:migrate"]);
      expect(app.buildOutput).not.toMatch(/could not be resolved/);
    });

    it("the generated code type-checks with svelte-check (0 errors, 0 warnings)", async () => {
      const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
      expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    }, 120_000);

    it("before the tables exist, a session read and a sign-up fail, the server's log says what is missing and what to run, and nobody is signed up", async () => {
      const before = await startBuiltApp(app.dir, mail.env);
      try {
        await expectRefusedBeforeTables(before, mail, "`npm run db:generate` then `npm run db:migrate`");
      } finally {
        await before.stop();
      }
    }, 90_000);

    it("the printed commands (drizzle-kit generate, then migrate) write a migration with the auth tables and the app's own, and apply it", async () => {
      for (const command of printedCommands(app.initOutput, "in your Drizzle schema")) await runPrinted(app.dir, command);
      const migrations = readdirSync(join(app.dir, "drizzle")).filter((name) => name.endsWith(".sql"));
      expect(migrations).toHaveLength(1);
      const sql = readFileSync(join(app.dir, "drizzle", migrations[0]!), "utf8");
      for (const table of [...AUTH_TABLES, "task"]) expect(sql).toContain(`CREATE TABLE ${variant.quote(table)}`);
      expect(await variant.tables(app, database?.url)).toEqual(expect.arrayContaining([...AUTH_TABLES, "task"]));
      // drizzle-kit creates the SQLite file with the umask's mode (0644 under the usual 022): as it leaves it.
      if (variant.dialect === "sqlite") chmodSync(join(app.dir, "local.db"), 0o644);
      server = await startBuiltApp(app.dir, mail.env);
    }, 120_000);

    it("npx @gatehouse/cli doctor in the app: the Drizzle database has every auth table, no problem", async () => {
      const output = await run("npx", ["@gatehouse/cli", "doctor"], { cwd: app.dir, env: WITHOUT_TEST_DATABASE });
      expect(output).toMatch(/^ok\s+the app's Drizzle database.* has every auth table, column and index/m);
      expect(output).toMatch(/^0 problems/m);
    }, 60_000);

    describe.skipIf(!hasChromium)("in Chromium", () => {
      const { freshPage, shot } = useBrowser(`drizzle-${variant.dialect}`);

      it("sign up, confirm by the mailed link, see the protected page, sign out, a wrong password refused, sign in again", async () => {
        await expectSignUpOutAndIn(await freshPage(), shot, server!, mail);
      }, 120_000);

      it("the user and the password hash are rows of the app's database; a SQLite file is owner-only since the app's first use of it", async () => {
        expect(await variant.users(app, database?.url)).toEqual([{ email: EMAIL, hashed: true }]);
        if (variant.dialect === "sqlite") {
          for (const file of ["local.db", "local.db-wal", "local.db-shm"].filter((name) => existsSync(join(app.dir, name)))) {
            expect(statSync(join(app.dir, file)).mode & 0o777, file).toBe(0o600);
          }
        }
      });
    });

    it("the built server, run with node as a process manager runs it, exits with code 0 within a few seconds of SIGTERM, its connection closed", async () => {
      await server?.stop();
      await expectCleanStop(app.dir, { framework: "sveltekit", adapter: variant.dialect, signal: "SIGTERM", env: mail.env });
    }, 60_000);
  });
}
