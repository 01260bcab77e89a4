/**
 * `auth-init --yes` in a SvelteKit app whose database `prisma init` set up,
 * on a PostgreSQL server: it chooses `--adapter prisma` by itself, appends the
 * runtime's Prisma models of the auth tables to the app's schema, and runs the
 * adapter on the app's own Prisma Client (`fromPrisma`). The app type-checks
 * and builds; started before its tables exist, it refuses sign-ups and session
 * reads, its log naming the command to run; once the tables exist (the SQL of
 * Prisma's own migration, see support/prisma-app.ts for why not `prisma
 * migrate dev` itself), `doctor` is clean, a person signs up, confirms the
 * mailed link, signs out and in again in Chromium, the rows land in the app's
 * database beside its own tables (its `User` model and our `AuthUser` on
 * `users`), and the built server exits cleanly on SIGTERM.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../adapters/support/postgres-server.js";
import { root } from "../cli/support/cli.js";
import { authModelsBlock, prefixedModels } from "../../src/generators/prisma-schema.js";
import { EMAIL } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { expectRefusedBeforeTables, expectSignUpOutAndIn, printedCommands } from "./support/orm-app.js";
import { createTablesAsPrismaWould, makePrismaApp, type PrismaSvelteKitApp } from "./support/prisma-app.js";
import { startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { run, startBuiltApp, WITHOUT_TEST_DATABASE, type RunningServer } from "./support/processes.js";
import { serverRows } from "./support/rows.js";
import { expectCleanStop } from "./support/shutdown.js";

const serverUrl = process.env.DATABASE_URL;
const MIGRATE = "npx prisma migrate dev --name gatehouse-auth";
/** The auth tables every runtime migration so far makes. */
const AUTH_TABLES = ["accounts", "authenticators", "rate_limits", "sessions", "user_passwords", "users", "verification_token"];
const USERS_SQL = `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id ORDER BY u.email`;

describe.skipIf(!serverUrl)("auth-init --yes in a SvelteKit app of prisma init (PostgreSQL, Prisma Client on @prisma/adapter-pg)", () => {
  let app: PrismaSvelteKitApp;
  let database: { url: string; drop: () => Promise<void> };
  let mail: AppMail;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!, "e2e");
    mail = await startMailFor();
    app = await makePrismaApp("prisma-postgres", database.url);
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    app?.remove();
    await mail?.server.close();
    await database?.drop();
  });

  it("chose --adapter prisma: the runtime's models appended to the app's schema (AuthUser, ... beside its User), the adapter on its client, no database module or driver of its own, and Prisma's migrate command as the next step", () => {
    const file = (path: string) => readFileSync(join(app.dir, path), "utf8");
    const schema = file("prisma/schema.prisma");
    expect(authModelsBlock(schema)).toBe(prefixedModels(readFileSync(join(root, "runtime/orm/prisma/postgres.prisma"), "utf8")));
    for (const own of ["model User {", "model Post {"]) expect(schema).toContain(own);
    expect(file("src/lib/server/auth-db.ts")).toContain("const client = fromPrisma(prisma);");
    for (const ours of ["src/lib/server/db.ts", "src/lib/server/schema.ts"]) expect(existsSync(join(app.dir, ours)), ours).toBe(false);
    const pkg = JSON.parse(file("package.json"));
    const listed = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
    for (const driver of ["pg", "@electric-sql/pglite", "better-sqlite3"]) expect(listed[driver], driver).toBeUndefined();
    expect(app.initOutput).toContain("it uses the app's Prisma database");
    expect(printedCommands(app.initOutput, "in your Prisma schema")).toEqual([MIGRATE]);
    expect(app.buildOutput).not.toMatch(/could not be resolved/);
  });

  it("the generated code type-checks with svelte-check (0 errors, 0 warnings)", async () => {
    const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
    expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
  }, 120_000);

  it("before the tables exist, a session read and a sign-up fail, the server's log says what is missing and what to run, and nobody is signed up", async () => {
    const before = await startBuiltApp(app.dir, mail.env);
    try {
      await expectRefusedBeforeTables(before, mail, `\`${MIGRATE}\``);
    } finally {
      await before.stop();
    }
  }, 90_000);

  it("the tables of Prisma's migration for the schema: the auth tables and the app's own (its User on \"User\", ours on users)", async () => {
    const sql = await createTablesAsPrismaWould(app, database.url);
    for (const table of [...AUTH_TABLES, "User", "Post"]) expect(sql).toContain(`CREATE TABLE "${table}"`);
    const tables = (await serverRows<{ name: string }>(database.url, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`)).map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining([...AUTH_TABLES, "User", "Post"]));
    server = await startBuiltApp(app.dir, mail.env);
  }, 120_000);

  it("npx @gatehouse/cli doctor in the app: the auth models are the installed runtime's, no problem; auth migrate leaves the database to Prisma", async () => {
    const doctor = await run("npx", ["@gatehouse/cli", "doctor"], { cwd: app.dir, env: WITHOUT_TEST_DATABASE });
    expect(doctor).toMatch(/^ok\s+the auth models in prisma\/schema\.prisma are the Prisma models of the app's @gatehouse\/runtime/m);
    // Its database, read through the pg its driver adapter brings: every auth table Prisma made.
    expect(doctor).toMatch(/^ok\s+the app's Prisma database, PostgreSQL at .* has every auth table, column and index/m);
    expect(doctor).toMatch(/^0 problems/m);
    const migrate = await run("npx", ["@gatehouse/cli", "migrate"], { cwd: app.dir, env: WITHOUT_TEST_DATABASE }).catch((error: Error) => error.message);
    expect(migrate).toContain(`Prisma creates them, with the app's own tables: run \`${MIGRATE}\`. Nothing was changed.`);
  }, 60_000);

  describe.skipIf(!hasChromium)("in Chromium", () => {
    const { freshPage, shot } = useBrowser("prisma-postgres");

    it("sign up, confirm by the mailed link, see the protected page, sign out, a wrong password refused, sign in again", async () => {
      await expectSignUpOutAndIn(await freshPage(), shot, server!, mail);
    }, 120_000);

    it("the user and the password hash are rows of the app's database", async () => {
      expect(await serverRows(database.url, USERS_SQL)).toEqual([{ email: EMAIL, hashed: true }]);
    });
  });

  it("the built server, run with node as a process manager runs it, exits with code 0 within a few seconds of SIGTERM, its client disconnected", async () => {
    await server?.stop();
    await expectCleanStop(app.dir, { framework: "sveltekit", adapter: "postgres", signal: "SIGTERM", env: mail.env });
  }, 60_000);
});
