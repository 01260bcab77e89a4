/**
 * The product's main job, end to end: `auth-init --yes` in an empty folder makes
 * a SvelteKit app with email + password accounts — on the embedded PGlite
 * database, on a PostgreSQL server, on a SQLite file (better-sqlite3, compiled
 * by the app's install) and on a hosted store (the svc_ tables on a PostgreSQL
 * server) — that type-checks, builds, starts, and lets a person sign up, sign
 * out and sign in again in headless Chromium.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL, signUpOutAndIn, signUpWithTakenEmail } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { startCliSvelteKitApp, type CliSvelteKitApp } from "./support/cli-sveltekit-app.js";
import { run } from "./support/processes.js";


const serverUrl = process.env.DATABASE_URL;

/** Who signed up, read from where the variant's database keeps users. */
type Accounts = (app: CliSvelteKitApp, databaseUrl: string | undefined) => Promise<{ email: string; hashed: boolean }[]>;

interface Variant {
  name: string;
  args: string[];
  /** The driver auth-init adds to package.json. */
  driver: string;
  /** The variant gets a database of its own on the PostgreSQL server, as --database-url. */
  server?: boolean;
  /** Absent for PGlite: the running app holds its folder alone. */
  accounts?: Accounts;
}

const variants: Variant[] = [
  { name: "pglite", args: [], driver: "@electric-sql/pglite" },
  {
    name: "postgres",
    args: ["--adapter", "postgres"],
    driver: "pg",
    server: true,
    accounts: (_app, url) => query(url!, `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id`),
  },
  {
    name: "sqlite",
    args: ["--adapter", "sqlite"],
    driver: "better-sqlite3",
    accounts: async (app) => {
      const db = new Database(join(app.dir, ".data/auth.sqlite"), { readonly: true });
      try {
        const rows = db.prepare(`SELECT u.email AS email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id`).all() as { email: string; hashed: number }[];
        return rows.map((row) => ({ email: row.email, hashed: row.hashed === 1 }));
      } finally {
        db.close();
      }
    },
  },
  {
    name: "hosted-store",
    args: ["--adapter", "hosted-store"],
    driver: "pg",
    server: true,
    accounts: (_app, url) => query(url!, `SELECT u.email, p.hash IS NOT NULL AS hashed FROM "main".svc_users u LEFT JOIN "main".svc_user_passwords p ON p."user" = u.id`),
  },
];

for (const variant of variants) {
  const skip = variant.server === true && !serverUrl;
  describe.skipIf(skip)(`auth-init --yes ${variant.args.join(" ")} (SvelteKit, ${variant.name})`, () => {
    let app: CliSvelteKitApp;
    let database: { url: string; drop: () => Promise<void> } | undefined;

    beforeAll(async () => {
      if (variant.server) database = await freshDatabase(serverUrl!);
      const args = database ? [...variant.args, "--database-url", database.url] : variant.args;
      app = await startCliSvelteKitApp(`app-${variant.name}`, args);
    }, 900_000);

    afterAll(async () => {
      await app?.stop();
      await database?.drop();
    });

    it("wrote what it said, with this checkout's runtime, and ends with next steps", () => {
      expect(app.initOutput).toContain("created src/auth.ts");
      expect(app.initOutput).toContain("Next steps:");
      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
      expect(pkg.dependencies[variant.driver]).toBeDefined();
      // `vite build` imported the server modules and the server has started: the database opens on first use only.
      if (variant.name === "sqlite") expect(existsSync(join(app.dir, ".data"))).toBe(false);
    });

    it("the generated code type-checks with svelte-check (0 errors, 0 warnings)", async () => {
      const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
      expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    }, 120_000);

    describe.skipIf(!hasChromium)("in Chromium", () => {
      const { freshPage, shot } = useBrowser(`cli-sveltekit-${variant.name}`);

      const account = () => ({ origin: app.server.origin, returnParam: "redirectTo", userLine: "p" }) as const;

      it("sign up, see the protected page, sign out, a wrong password is refused generically, sign in again", async () => {
        await signUpOutAndIn(await freshPage(), shot, account());
        // Each step hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
      }, 120_000);

      it("signing up again with a taken email shows the generic refusal and signs nobody in", async () => {
        const origin = app.server.origin;
        const page = await freshPage();
        await signUpWithTakenEmail(page, account());
        await page.goto(`${origin}/protected`);
        await page.waitForURL(`${origin}/signin?redirectTo=%2Fprotected`);
        await shot(page, "taken-email");
      }, 60_000);

      it.skipIf(!variant.accounts)("the one account is in the adapter's tables, with its password hash beside it", async () => {
        expect(await variant.accounts!(app, database?.url)).toEqual([{ email: EMAIL, hashed: true }]);
      });
    });
  });
}

async function query<Row extends Record<string, unknown>>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A database of its own on the PostgreSQL server, dropped afterwards. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `gatehouse_cli_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
