/**
 * The database modules auth-init writes, run: db.ts, schema.ts and passwords.ts
 * rendered for SolidStart (it reads `process.env`, so they load outside an app)
 * and imported from a temporary folder, on each adapter's real database —
 * SQLite (better-sqlite3) in a file; PostgreSQL and the hosted store on PGlite
 * behind a pg-shaped pool, and the hosted store on the PostgreSQL server when
 * DATABASE_URL is set. Nothing is opened at import; the first use opens and
 * migrates; a sign-up is atomic (no user without a password, one winner for an email).
 * Passwords are hashed by @gatehouse/runtime/password: a sign-up stores a PHC
 * string, and a hash in the form these modules stored before (or unreadable) is
 * handled at sign-in: the old form is replaced, a damaged one refuses.
 */
import type { PGlite } from "@electric-sql/pglite";
import { randomBytes, scrypt } from "node:crypto";
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
    adapter: { getUser(id: string): Promise<{ id: string; name?: string | null; email: string } | null>; getUserByEmail(email: string): Promise<unknown>; updateUser(user: { id: string; emailVerified: Date }): Promise<unknown> };
    database(): Promise<{ query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> }>;
    createPasswordUser(name: string | null, email: string, hash: string): Promise<string | null>;
    findPasswordUser(email: string): Promise<{ id: string; name: string | null; email: string; hash: string } | null>;
    updatePasswordHash(userId: string, previous: string, hash: string): Promise<boolean>;
  };
  passwords: {
    signUp(input: { email: unknown; password: unknown; name?: unknown }): Promise<{ ok: true; userId: string } | { ok: false; code: string }>;
    verifyPassword(email: unknown, password: unknown): Promise<{ id: string; name: string | null; email: string; emailVerified: Date | null } | null>;
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
const PHC = /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

/** A hash as passwords.ts stored them before it used the runtime: node:crypto's scrypt, N written out, padded base64. */
function legacyHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(`$scrypt$N=32768,r=8,p=3$${salt.toString("base64")}$${key.toString("base64")}`),
    ),
  );
}

interface Users {
  table: string;
  count: (email: string) => Promise<number>;
  /** Makes every UPDATE of the password table fail (a trigger), until the function it returns is called. */
  blockPasswordUpdates: () => Promise<() => Promise<void>>;
}

/** A trigger that refuses every UPDATE of `table`, on PostgreSQL (the function lives in `schema`). */
async function blockPostgresUpdates(app: Generated, schema: string, table: string): Promise<() => Promise<void>> {
  const db = await app.db.database();
  await db.query(`CREATE OR REPLACE FUNCTION ${schema}.refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'updates refused by the test'; END $$`);
  await db.query(`CREATE TRIGGER refuse_update BEFORE UPDATE ON ${schema}.${table} FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_update()`);
  return async () => void (await db.query(`DROP TRIGGER refuse_update ON ${schema}.${table}`));
}

/** What every adapter's generated modules must do, once opened. */
function passwordAccounts(app: () => Generated, users: Users): void {
  it("sign-up creates the user with a password; sign-in finds them (email case and spaces ignored); a wrong password is refused", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: " Ada@Example.com ", password: PASSWORD, name: " Ada Lovelace " });
    expect(created).toEqual({ ok: true, userId: expect.any(String) });
    const userId = (created as { userId: string }).userId;
    // emailVerified, read with the hash, tells the runtime the address is not proven yet.
    expect(await passwords.verifyPassword("ADA@example.com", PASSWORD)).toEqual({ id: userId, name: "Ada Lovelace", email: "ada@example.com", emailVerified: null });
    expect(await passwords.verifyPassword("ada@example.com", "not the password")).toBeNull();
    expect(await passwords.verifyPassword("nobody@example.com", PASSWORD)).toBeNull();
    // The adapter reads the same user: database sessions work for it.
    expect(await db.adapter.getUser(userId)).toMatchObject({ id: userId, name: "Ada Lovelace", email: "ada@example.com" });
    const proven = new Date("2026-11-25T12:00:00.123Z");
    await db.adapter.updateUser({ id: userId, emailVerified: proven });
    expect((await passwords.verifyPassword("ada@example.com", PASSWORD))?.emailVerified).toEqual(proven);
    expect((await db.findPasswordUser("ada@example.com"))?.hash).toMatch(PHC);
  });

  it("a sign-up stores a PHC hash of the runtime's parameters, a new salt each time", async () => {
    const { passwords, db } = app();
    expect(await passwords.signUp({ email: "phc-1@example.com", password: PASSWORD })).toMatchObject({ ok: true });
    expect(await passwords.signUp({ email: "phc-2@example.com", password: PASSWORD })).toMatchObject({ ok: true });
    const [one, two] = await Promise.all([db.findPasswordUser("phc-1@example.com"), db.findPasswordUser("phc-2@example.com")]);
    expect(one?.hash).toMatch(PHC);
    expect(two?.hash).toMatch(PHC);
    expect(one?.hash).not.toBe(two?.hash);
  });

  it("a hash in the old form signs in and is replaced by a PHC hash at that sign-in; a wrong password leaves it alone", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: "legacy@example.com", password: PASSWORD, name: "Old Timer" });
    const userId = (created as { userId: string }).userId;
    const legacy = await legacyHash(PASSWORD);
    expect(await db.updatePasswordHash(userId, (await db.findPasswordUser("legacy@example.com"))!.hash, legacy)).toBe(true);

    expect(await passwords.verifyPassword("legacy@example.com", "not the password")).toBeNull();
    expect((await db.findPasswordUser("legacy@example.com"))?.hash).toBe(legacy);

    expect(await passwords.verifyPassword("Legacy@Example.com", PASSWORD)).toEqual({ id: userId, name: "Old Timer", email: "legacy@example.com", emailVerified: null });
    const replaced = (await db.findPasswordUser("legacy@example.com"))!.hash;
    expect(replaced).toMatch(PHC);
    // The new hash is the same password's, and is kept from then on.
    expect(await passwords.verifyPassword("legacy@example.com", PASSWORD)).toMatchObject({ id: userId });
    expect(await passwords.verifyPassword("legacy@example.com", "not the password")).toBeNull();
    expect((await db.findPasswordUser("legacy@example.com"))?.hash).toBe(replaced);
  });

  it("updatePasswordHash replaces only the hash it was given: a stale one (the password changed meanwhile) changes nothing", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: "cas@example.com", password: PASSWORD });
    const userId = (created as { userId: string }).userId;
    const current = (await db.findPasswordUser("cas@example.com"))!.hash;
    expect(await db.updatePasswordHash(userId, await legacyHash("an older password"), await legacyHash(PASSWORD))).toBe(false);
    expect((await db.findPasswordUser("cas@example.com"))?.hash).toBe(current);
  });

  it("a re-hash that cannot be stored is logged and the sign-in goes on; the old hash keeps working until one is stored", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: "stuck@example.com", password: PASSWORD });
    const userId = (created as { userId: string }).userId;
    const legacy = await legacyHash(PASSWORD);
    expect(await db.updatePasswordHash(userId, (await db.findPasswordUser("stuck@example.com"))!.hash, legacy)).toBe(true);

    const unblock = await users.blockPasswordUpdates();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await passwords.verifyPassword("stuck@example.com", PASSWORD)).toMatchObject({ id: userId, email: "stuck@example.com" });
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]![0])).toContain(`could not replace the password hash of user ${userId}`);
      expect(String(logged.mock.calls[0]!.join(" "))).not.toContain(PASSWORD);
    } finally {
      logged.mockRestore();
      await unblock();
    }
    expect((await db.findPasswordUser("stuck@example.com"))?.hash).toBe(legacy);
    expect(await passwords.verifyPassword("stuck@example.com", PASSWORD)).toMatchObject({ id: userId });
    expect((await db.findPasswordUser("stuck@example.com"))?.hash).toMatch(PHC);
  });

  it("an unreadable stored hash refuses the sign-in without throwing, and is left as it is", async () => {
    const { passwords, db } = app();
    const created = await passwords.signUp({ email: "damaged@example.com", password: PASSWORD });
    const userId = (created as { userId: string }).userId;
    let previous = (await db.findPasswordUser("damaged@example.com"))!.hash;
    for (const damaged of ["", "not a hash", "$scrypt$N=32768,r=8,p=3$!!!$!!!", "$scrypt$ln=21,r=8,p=3$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U", "$scrypt$N=1000,r=8,p=3$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U="]) {
      expect(await db.updatePasswordHash(userId, previous, damaged)).toBe(true);
      previous = damaged;
      await expect(passwords.verifyPassword("damaged@example.com", PASSWORD)).resolves.toBeNull();
      expect((await db.findPasswordUser("damaged@example.com"))?.hash).toBe(damaged);
    }
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
    blockPasswordUpdates: async () => {
      const db = await app.db.database();
      await db.query(`CREATE TRIGGER refuse_update BEFORE UPDATE ON user_passwords BEGIN SELECT RAISE(ABORT, 'updates refused by the test'); END`);
      return async () => void (await db.query("DROP TRIGGER refuse_update"));
    },
  });

  it("the first use created the file (WAL) with the runtime's migrations, the password table included; the app adds none", async () => {
    expect(existsSync(file)).toBe(true);
    const db = await app.db.database();
    expect((await db.query("PRAGMA journal_mode")).rows).toEqual([{ journal_mode: "wal" }]);
    const { rows } = await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name");
    expect(rows.map((r) => r.name)).toEqual(["0001_init", "0002_rate_limits", "0003_user_passwords"]);
    expect((await db.query("SELECT name FROM sqlite_master WHERE name = 'user_passwords'")).rows).toHaveLength(1);
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
    blockPasswordUpdates: () => blockPostgresUpdates(app, "public", "user_passwords"),
  });

  it("the runtime's migrations made the password table; the app adds none", async () => {
    const db = await app.db.database();
    // Parameters (none) given, so the pool runs one statement and answers its rows.
    const { rows } = await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name", []);
    expect(rows.map((r) => r.name)).toEqual(["0001_init", "0002_rate_limits", "0003_user_passwords"]);
    expect((await db.query(`SELECT to_regclass('public.user_passwords')::text AS t`, [])).rows).toEqual([{ t: "user_passwords" }]);
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
    blockPasswordUpdates: () => blockPostgresUpdates(app, `"preview"`, "svc_user_passwords"),
  });

  it("the svc_ tables and svc_user_passwords are in the branch's schema, recorded in its svc_migrations; updates are touched like svc_ records", async () => {
    const db = await app.db.database();
    const { rows } = await db.query<{ name: string }>(`SELECT name FROM "preview".svc_migrations ORDER BY name`);
    expect(rows.map((r) => r.name)).toEqual(["0001_init", "0002_user_passwords"]);
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
      blockPasswordUpdates: () => blockPostgresUpdates(app, `"main"`, "svc_user_passwords"),
    });
  },
);

describe.skipIf(!serverUrl)(
  serverUrl
    ? "PostgreSQL server: db.ts of --adapter postgres through a real pg.Pool"
    : "PostgreSQL server (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    const dir = render("postgres");
    let database: TestDatabase | undefined;
    // Saved and restored around this describe; pointed at a database of its own below.
    useEnv({ DATABASE_URL: serverUrl });
    let app: Generated;
    beforeAll(async () => {
      database = await createTestDatabase(serverUrl!, "generated_pg");
      process.env.DATABASE_URL = database.url;
      app = await load(dir);
    }, 60_000);
    afterAll(async () => {
      const reports = vi.spyOn(console, "error").mockImplementation(() => {});
      await database?.drop();
      await new Promise((resolve) => setTimeout(resolve, 100));
      reports.mockRestore();
    });

    passwordAccounts(() => app, {
      table: "users",
      count: async (email) => Number((await (await app.db.database()).query<{ n: number }>("SELECT count(*) AS n FROM users WHERE email = $1", [email])).rows[0]!.n),
      blockPasswordUpdates: () => blockPostgresUpdates(app, "public", "user_passwords"),
    });
  },
);
