/**
 * `auth-init --yes` in a SvelteKit app that keeps its database with Kysely and
 * migrates it with kysely-ctl, on a PostgreSQL server: it chooses `--adapter
 * kysely` by itself, adds the runtime's Kysely migrations to the app's
 * migrations folder after the app's own, and runs the adapter on the app's
 * own Kysely instance (`fromKysely`). The app type-checks and builds; started
 * before its tables exist, it refuses sign-ups and session reads, its log
 * naming the command to run, and doctor names what the database lacks; after
 * the command auth-init printed (the app's `kysely migrate:latest`), doctor is
 * clean, a person signs up, confirms the mailed link, signs out and in again
 * in Chromium, the rows land in the app's database beside its own table, and
 * the built server exits cleanly on SIGTERM.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../adapters/support/postgres-server.js";
import { root } from "../cli/support/cli.js";
import { EMAIL } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { makeKyselyApp, type KyselySvelteKitApp } from "./support/kysely-app.js";
import { expectRefusedBeforeTables, expectSignUpOutAndIn, printedCommands, runPrinted } from "./support/orm-app.js";
import { startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { run, startBuiltApp, WITHOUT_TEST_DATABASE, type RunningServer } from "./support/processes.js";
import { serverRows } from "./support/rows.js";
import { expectCleanStop } from "./support/shutdown.js";

const serverUrl = process.env.DATABASE_URL;
const MIGRATE = "npm run db:migrate";
/** The auth tables every runtime migration so far makes. */
const AUTH_TABLES = ["accounts", "authenticators", "rate_limits", "sessions", "user_passwords", "users", "verification_token"];
const USERS_SQL = `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id ORDER BY u.email`;
const SHIPPED = readdirSync(join(root, "runtime/orm/kysely/migrations/postgres")).sort();

describe.skipIf(!serverUrl)("auth-init --yes in a SvelteKit app on Kysely with kysely-ctl (PostgreSQL, PostgresDialect)", () => {
  let app: KyselySvelteKitApp;
  let database: { url: string; drop: () => Promise<void> };
  let mail: AppMail;
  let server: RunningServer | undefined;
  const doctor = () => run("npx", ["@gatehouse/cli", "doctor"], { cwd: app.dir, env: WITHOUT_TEST_DATABASE }).catch((error: Error) => error.message);

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!, "e2e");
    mail = await startMailFor();
    app = await makeKyselyApp("kysely-postgres", database.url);
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    app?.remove();
    await mail?.server.close();
    await database?.drop();
  });

  it("chose --adapter kysely: the runtime's migrations after the app's own, the adapter on its Kysely, no database module or driver of its own, and the app's migrate script as the next step", () => {
    const migrations = readdirSync(join(app.dir, "migrations")).sort();
    expect(migrations[0]).toBe("1764201600000_posts.ts");
    const ours = migrations.slice(1);
    expect(ours.map((file) => file.replace(/^\d{13}_gatehouse_/, ""))).toEqual(SHIPPED);
    for (const [index, file] of ours.entries()) expect(readFileSync(join(app.dir, "migrations", file), "utf8")).toBe(readFileSync(join(root, "runtime/orm/kysely/migrations/postgres", SHIPPED[index]!), "utf8"));
    expect(readFileSync(join(app.dir, "src/lib/server/auth-db.ts"), "utf8")).toContain("const client = fromKysely(db);");
    expect(existsSync(join(app.dir, "src/lib/server/schema.ts"))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
    expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
    for (const driver of ["@electric-sql/pglite", "better-sqlite3"]) expect({ ...pkg.dependencies, ...pkg.devDependencies }[driver], driver).toBeUndefined();
    expect(app.initOutput).toContain("it uses the app's Kysely database");
    expect(printedCommands(app.initOutput, "Kysely migrations in your migrations folder")).toEqual([MIGRATE]);
    expect(app.buildOutput).not.toMatch(/could not be resolved/);
  });

  it("the generated code type-checks with svelte-check (0 errors, 0 warnings)", async () => {
    const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
    expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
  }, 120_000);

  it("before the tables exist, a session read and a sign-up fail, the server's log says what is missing and what to run, and doctor says what the database lacks", async () => {
    const before = await startBuiltApp(app.dir, mail.env);
    try {
      await expectRefusedBeforeTables(before, mail, `\`${MIGRATE}\``);
    } finally {
      await before.stop();
    }
    const output = await doctor();
    expect(output).toMatch(/^fail the app's Kysely database, PostgreSQL at postgres:\/\/.* lacks table users \(0001_init\)/m);
    expect(output).toContain(`fix: create them with kysely-ctl: \`${MIGRATE}\``);
  }, 120_000);

  it("the printed command, the app's kysely migrate:latest, applies the app's migration then ours; the tables are there", async () => {
    await runPrinted(app.dir, MIGRATE);
    // kysely-ctl's own ledger: the app's migration, then ours, in name order.
    const applied = (await serverRows<{ name: string }>(database.url, "SELECT name FROM kysely_migration ORDER BY name")).map((row) => row.name);
    expect(applied.map((name) => name.replace(/^\d{13}_/, ""))).toEqual(["posts", ...SHIPPED.map((file) => `gatehouse_${file.replace(/\.ts$/, "")}`)]);
    // kysely-ctl's own command, as the docs print it, finds nothing left to do.
    await runPrinted(app.dir, "npx kysely migrate:latest");
    expect(await serverRows(database.url, "SELECT count(*)::int AS n FROM kysely_migration")).toEqual([{ n: SHIPPED.length + 1 }]);
    const tables = (await serverRows<{ name: string }>(database.url, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`)).map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining([...AUTH_TABLES, "posts", "kysely_migration"]));
    server = await startBuiltApp(app.dir, mail.env);
  }, 120_000);

  it("npx @gatehouse/cli doctor in the app: the migrations are the installed runtime's, the database has every auth table, no problem; auth migrate leaves the database to kysely-ctl", async () => {
    const output = await doctor();
    expect(output).toMatch(/^ok\s+the gatehouse migrations in migrations\/ are the Kysely migrations of the app's @gatehouse\/runtime/m);
    expect(output).toMatch(/^ok\s+the app's Kysely database, PostgreSQL at .* has every auth table, column and index/m);
    expect(output).toMatch(/^0 problems/m);
    const migrate = await run("npx", ["@gatehouse/cli", "migrate"], { cwd: app.dir, env: WITHOUT_TEST_DATABASE }).catch((error: Error) => error.message);
    expect(migrate).toContain(`kysely-ctl creates them, with the app's own tables: run \`${MIGRATE}\`. Nothing was changed.`);
  }, 60_000);

  describe.skipIf(!hasChromium)("in Chromium", () => {
    const { freshPage, shot } = useBrowser("kysely-postgres");

    it("sign up, confirm by the mailed link, see the protected page, sign out, a wrong password refused, sign in again", async () => {
      await expectSignUpOutAndIn(await freshPage(), shot, server!, mail);
    }, 120_000);

    it("the user and the password hash are rows of the app's database", async () => {
      expect(await serverRows(database.url, USERS_SQL)).toEqual([{ email: EMAIL, hashed: true }]);
    });
  });

  it("the built server, run with node as a process manager runs it, exits with code 0 within a few seconds of SIGTERM, its Kysely destroyed", async () => {
    await server?.stop();
    await expectCleanStop(app.dir, { framework: "sveltekit", adapter: "postgres", signal: "SIGTERM", env: mail.env });
  }, 60_000);
});
