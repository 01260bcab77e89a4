/**
 * The database modules auth-init writes, run: db.ts, schema.ts and passwords.ts
 * rendered for SolidStart (it reads `process.env`, so they load outside an app)
 * and imported from a temporary folder, on each adapter's real database —
 * SQLite (better-sqlite3) in a file; PostgreSQL and the hosted store on PGlite
 * behind a pg-shaped pool, and the hosted store on the PostgreSQL server when
 * DATABASE_URL is set. Nothing is opened at import; the first use opens and
 * migrates; a sign-up is atomic (no user without a password, one winner for an email).
 */
import type { PGlite } from "@electric-sql/pglite";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readProject } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { DETECT_PATHS } from "../../src/generators/detect.js";
import type { AdapterChoice } from "../../src/generators/init/answers.js";
import { initPaths, planInit } from "../../src/generators/init/plan.js";
import { openPGlite } from "../adapters/support/pglite.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { root } from "./support/cli.js";

/**
 * `pg` with one change: a Pool for a `pglite:` URL is a pool-shaped front of the
 * test's PGlite (one session, so its connections are handed out one at a time).
 * Every other URL gets the real pg.Pool.
 */
const fake = vi.hoisted(() => ({ pglite: undefined as PGlite | undefined, pools: 0 }));
vi.mock("pg", async (importOriginal) => {
  const { EventEmitter } = await import("node:events");
  const real = ((await importOriginal()) as { default: typeof import("pg") }).default;
  type Query = string | { text: string; values?: unknown[] };

  class PglitePool extends EventEmitter {
    totalCount = 0;
    idleCount = 0;
    #turn: Promise<void> = Promise.resolve();

    async connect() {
      let release!: () => void;
      const previous = this.#turn;
      this.#turn = new Promise((resolve) => (release = resolve));
      await previous;
      const db = fake.pglite!;
      return {
        query: (query: Query, values?: unknown[]) => {
          const { text, params } = typeof query === "string" ? { text: query, params: values } : { text: query.text, params: query.values };
          // Without parameters a text may hold several statements, as pg's simple query protocol allows.
          return params === undefined ? db.exec(text) : db.query(text, params);
        },
        release: () => release(),
      };
    }

    async query(query: Query, values?: unknown[]) {
      const connection = await this.connect();
      try {
        return await connection.query(query, values);
      } finally {
        connection.release();
      }
    }

    async end() {}
  }

  function Pool(options: { connectionString?: string }) {
    if (!options.connectionString?.startsWith("pglite:")) return new real.Pool(options);
    fake.pools += 1;
    return new PglitePool();
  }
  return { default: { ...real, Pool } };
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Generated {
  dir: string;
  db: {
    adapter: { getUser(id: string): Promise<{ id: string; name?: string | null; email: string } | null>; getUserByEmail(email: string): Promise<unknown> };
    database(): Promise<{ query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> }>;
    createPasswordUser(name: string | null, email: string, hash: string): Promise<string | null>;
    findPasswordUser(email: string): Promise<{ id: string; name: string | null; email: string; hash: string } | null>;
  };
  passwords: {
    signUp(input: { email: unknown; password: unknown; name?: unknown }): Promise<{ ok: true; userId: string } | { ok: false; code: string }>;
    verifyPassword(email: unknown, password: unknown): Promise<{ id: string; name: string | null; email: string } | null>;
  };
}

/** auth-init's lib files for `adapter` in a SolidStart 2 app, written to a folder that sees this checkout's node_modules. */
function render(adapter: AdapterChoice): string {
  const project = readProject(join(root, "test/cli/fixtures/solid-start-v2"), [...DETECT_PATHS, ...initPaths("solid-start")]);
  const plan = planInit({
    answers: { framework: "solid-start", providers: ["credentials"], strategy: "database", adapter, databaseUrl: "" },
    project,
    packageManager: "npm",
    templates: packageTemplates,
    runtimeSpec: "^0.1.0",
    secret: "TEST_SECRET_0123456789_abcdefghijklmnopqrstu",
    frameworkMajor: 2,
  });
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-generated-${adapter}-`));
  dirs.push(dir);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  for (const change of plan.changes.filter((c) => c.path.startsWith("src/lib/server/"))) {
    mkdirSync(join(dir, dirname(change.path)), { recursive: true });
    writeFileSync(join(dir, change.path), change.after);
  }
  return dir;
}

/** Env for the generated modules, set while a describe runs; the cached connection of another describe's db.ts is forgotten. */
function useEnv(values: Record<string, string | undefined>): void {
  const saved: Record<string, string | undefined> = {};
  const forget = () => {
    const shared = globalThis as { __authDatabase?: unknown; __authStore?: unknown };
    delete shared.__authDatabase;
    delete shared.__authStore;
  };
  beforeAll(() => {
    forget();
    for (const [key, value] of Object.entries(values)) {
      saved[key] = process.env[key];
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  afterAll(() => {
    forget();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

async function load(dir: string): Promise<Generated> {
  const db = (await import(join(dir, "src/lib/server/db.ts"))) as Generated["db"];
  const passwords = (await import(join(dir, "src/lib/server/passwords.ts"))) as Generated["passwords"];
  return { dir, db, passwords };
}

const PASSWORD = "correct horse battery staple";

/** What every adapter's generated modules must do, once opened. */
function passwordAccounts(app: () => Generated, users: { table: string; count: (email: string) => Promise<number> }): void {
  it("sign-up creates the user with a password; sign-in finds them (email case and spaces ignored); a wrong password is refused", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: " Ada@Example.com ", password: PASSWORD, name: " Ada Lovelace " });
    expect(created).toEqual({ ok: true, userId: expect.any(String) });
    const userId = (created as { userId: string }).userId;
    expect(await passwords.verifyPassword("ADA@example.com", PASSWORD)).toEqual({ id: userId, name: "Ada Lovelace", email: "ada@example.com" });
    expect(await passwords.verifyPassword("ada@example.com", "not the password")).toBeNull();
    expect(await passwords.verifyPassword("nobody@example.com", PASSWORD)).toBeNull();
    // The adapter reads the same user: database sessions work for it.
    expect(await db.adapter.getUser(userId)).toMatchObject({ id: userId, name: "Ada Lovelace", email: "ada@example.com" });
    expect((await db.findPasswordUser("ada@example.com"))?.hash).toMatch(/^\$scrypt\$N=32768,r=8,p=3\$/);
  });

  it(`a taken email is refused generically; two sign-ups racing for one email: exactly one wins, one row in ${users.table}`, async () => {
    const { passwords } = app();
    expect(await passwords.signUp({ email: "ada@example.com", password: "another long password" })).toMatchObject({ ok: false, code: "not-created" });
    const racing = await Promise.all([1, 2, 3].map(() => passwords.signUp({ email: "grace@example.com", password: PASSWORD })));
    expect(racing.filter((r) => r.ok)).toHaveLength(1);
    expect(racing.filter((r) => !r.ok)).toEqual([{ ok: false, code: "not-created", error: expect.any(String) }, { ok: false, code: "not-created", error: expect.any(String) }]);
    expect(await users.count("grace@example.com")).toBe(1);
  });

  it("a password that cannot be stored leaves no user behind: the email stays free", async () => {
    const { db, passwords } = app();
    await expect(db.createPasswordUser("Orphan", "orphan@example.com", null as unknown as string)).rejects.toThrow();
    expect(await users.count("orphan@example.com")).toBe(0);
    expect(await passwords.signUp({ email: "orphan@example.com", password: PASSWORD })).toMatchObject({ ok: true });
  });
}

describe("SQLite (better-sqlite3): db.ts opens .data/auth.sqlite's stand-in on first use", () => {
  const dir = render("sqlite");
  const file = join(dir, "data", "nested", "auth.sqlite");
  useEnv({ SQLITE_PATH: file });
  let app: Generated;
  beforeAll(async () => {
    app = await load(dir);
  });

  it("importing the modules (as a bundler does) creates neither the file nor its folder", () => {
    expect(typeof app.db.adapter.getUser).toBe("function");
    expect(existsSync(join(dir, "data"))).toBe(false);
  });

  passwordAccounts(() => app, {
    table: "users",
    count: async (email) => (await (await app.db.database()).query<{ n: number }>("SELECT count(*) AS n FROM users WHERE email = ?", [email])).rows[0]!.n,
  });

  it("the first use created the file (WAL) with the runtime's migrations and the app's password table", async () => {
    expect(existsSync(file)).toBe(true);
    const db = await app.db.database();
    expect((await db.query("PRAGMA journal_mode")).rows).toEqual([{ journal_mode: "wal" }]);
    const { rows } = await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name");
    expect(rows.map((r) => r.name)).toEqual(["0001_init", "0002_rate_limits", "0003_user_passwords", "app_0001_user_passwords"]);
  });
});

describe("PostgreSQL dialect (pg.Pool on PGlite): db.ts of --adapter postgres", () => {
  const dir = render("postgres");
  useEnv({ DATABASE_URL: "pglite://memory" });
  let app: Generated;
  beforeAll(async () => {
    fake.pglite ??= await openPGlite();
    app = await load(dir);
  }, 60_000);

  it("importing the modules opens no pool", () => {
    expect(fake.pools).toBe(0);
  });

  passwordAccounts(() => app, {
    table: "users",
    count: async (email) => Number((await (await app.db.database()).query<{ n: number }>("SELECT count(*) AS n FROM users WHERE email = $1", [email])).rows[0]!.n),
  });
});

describe("hosted store (pg.Pool on PGlite): db.ts of --adapter hosted-store, on the branch of HOSTED_STORE_BRANCH", () => {
  const dir = render("hosted-store");
  useEnv({ HOSTED_STORE_DATABASE_URL: "pglite://memory", HOSTED_STORE_BRANCH: "preview" });
  let app: Generated;
  let poolsBefore = 0;
  beforeAll(async () => {
    fake.pglite ??= await openPGlite();
    poolsBefore = fake.pools;
    app = await load(dir);
  }, 60_000);

  it("importing the modules opens no pool", () => {
    expect(fake.pools).toBe(poolsBefore);
  });

  passwordAccounts(() => app, {
    table: "svc_users",
    count: async (email) => Number((await (await app.db.database()).query<{ n: number }>(`SELECT count(*) AS n FROM "preview".svc_users WHERE email = $1`, [email])).rows[0]!.n),
  });

  it("the svc_ tables and svc_user_passwords are in the branch's schema, recorded in its svc_migrations; updates are touched like svc_ records", async () => {
    const db = await app.db.database();
    const { rows } = await db.query<{ name: string }>(`SELECT name FROM "preview".svc_migrations ORDER BY name`);
    expect(rows.map((r) => r.name)).toEqual(["0001_init", "0002_user_passwords", "app_0001_user_passwords"]);
    const [row] = (await db.query<{ version: number }>(`UPDATE "preview".svc_user_passwords SET hash = hash RETURNING version`)).rows;
    expect(row?.version).toBe(1);
    expect((await db.query(`SELECT to_regclass('public.svc_users') AS t`)).rows).toEqual([{ t: null }]);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)(
  serverUrl
    ? "hosted store on the PostgreSQL server: db.ts of --adapter hosted-store through a real pg.Pool"
    : "hosted store on the PostgreSQL server (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    const dir = render("hosted-store");
    let database: TestDatabase | undefined;
    const env: Record<string, string | undefined> = { HOSTED_STORE_BRANCH: undefined };
    useEnv(env);
    let app: Generated;
    beforeAll(async () => {
      database = await createTestDatabase(serverUrl!, "generated");
      process.env.HOSTED_STORE_DATABASE_URL = database.url;
      app = await load(dir);
    }, 60_000);
    afterAll(async () => {
      // Dropped WITH (FORCE), which ends the connections of the pool db.ts opened: its error listener reports each.
      const reports = vi.spyOn(console, "error").mockImplementation(() => {});
      delete process.env.HOSTED_STORE_DATABASE_URL;
      await database?.drop();
      await new Promise((resolve) => setTimeout(resolve, 100));
      reports.mockRestore();
    });

    passwordAccounts(() => app, {
      table: "svc_users",
      count: async (email) => Number((await (await app.db.database()).query<{ n: number }>(`SELECT count(*) AS n FROM "main".svc_users WHERE email = $1`, [email])).rows[0]!.n),
    });
  },
);
