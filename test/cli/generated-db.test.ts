/**
 * The database modules auth-init writes, run: db.ts and schema.ts rendered for
 * SolidStart (it reads `process.env`, so they load outside an app) and imported
 * from a temporary folder, on each adapter's real database — SQLite
 * (better-sqlite3) in a file; PostgreSQL and the hosted store on PGlite behind a
 * pg-shaped pool, and on the PostgreSQL server when DATABASE_URL is set.
 * Nothing is opened at import; the first use opens and migrates, with the
 * runtime's migrations only (the password table is one of them).
 *
 * Email + password accounts are the runtime's Password provider's now, and
 * their SQL is the adapter's (createUserWithPassword, getUserPassword,
 * setUserPassword; their contract is test/adapters' conformance suite): here,
 * the adapter db.ts exports keeps them in the app's own database.
 *
 * And apps an older auth-init made (test/cli/fixtures/older-app-lib: a
 * schema.ts with their own app_0001_user_passwords, a db.ts with the password
 * SQL, a passwords.ts with its own scrypt), run with this runtime: they still
 * migrate and sign up, and the password rows they stored are what the
 * runtime's adapter methods read and replace, so such an app can move to the
 * Password provider without losing its users' passwords.
 */
import type { PGlite } from "@electric-sql/pglite";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Adapter, AdapterUser, RateLimitStore } from "@gatehouse/runtime";
import { hashPassword, passwordMatches, passwordNeedsRehash } from "@gatehouse/runtime/password";
import type { AdapterChoice } from "../../src/generators/init/answers.js";
import { openPGlite } from "../adapters/support/pglite.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { root } from "./support/cli.js";
import { writeGeneratedServerLib } from "./support/generated-server-lib.js";

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

type Query = <Row>(sql: string, params?: unknown[]) => Promise<{ rows: Row[] }>;

/** What every db.ts auth-init wrote exports, now as before. */
interface DbModule {
  adapter: Required<Adapter>;
  database(): Promise<{ query: Query }>;
  /** On a database several processes can share (PostgreSQL, the hosted store, SQLite), with the Password provider: where `rateLimit` counts. */
  rateLimitStore?: RateLimitStore;
}

/** What an older auth-init's db.ts exported besides, for its passwords.ts. */
interface OlderDbModule extends DbModule {
  findPasswordUser(email: string): Promise<{ id: string; name: string | null; email: string; hash: string } | null>;
  createPasswordUser(name: string | null, email: string, hash: string): Promise<string | null>;
}

/** An older auth-init's passwords.ts: sign-up and the Credentials provider's password check. */
interface OlderPasswords {
  signUp(input: { email: unknown; password: unknown; name?: unknown }): Promise<{ ok: true; userId: string } | { ok: false; code: string }>;
  verifyPassword(email: unknown, password: unknown): Promise<{ id: string; name: string | null; email: string } | null>;
}

/** A folder that sees this checkout's node_modules, for modules imported from it. */
function appFolder(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-generated-${label}-`));
  dirs.push(dir);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** auth-init's files under src/lib/server/ for `adapter` in a SolidStart 2 app (the Password provider), written to a folder of their own. */
function render(adapter: AdapterChoice): string {
  const dir = appFolder(adapter);
  writeGeneratedServerLib(adapter, dir);
  return dir;
}

/** The lib files an older auth-init wrote for `adapter` (copied from the fixture, as such an app still has them). */
function olderApp(adapter: "sqlite" | "postgres" | "hosted-store"): string {
  const dir = appFolder(`older-${adapter}`);
  // passwords.ts and sign-up-errors.ts were the same for every database; db.ts and schema.ts were not.
  cpSync(join(root, "test/cli/fixtures/older-app-lib/shared"), join(dir, "src/lib/server"), { recursive: true });
  cpSync(join(root, "test/cli/fixtures/older-app-lib", adapter), join(dir, "src/lib/server"), { recursive: true });
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

/** A PGlite of this describe's own behind `pglite://` URLs: each describe migrates a database of its own. */
function usePGlite(): void {
  beforeAll(async () => {
    fake.pglite = await openPGlite();
  }, 60_000);
  afterAll(async () => {
    await fake.pglite?.close();
    fake.pglite = undefined;
  });
}

const loadDb = async <M extends DbModule>(dir: string) => (await import(join(dir, "src/lib/server/db.ts"))) as M;
const loadOlderPasswords = async (dir: string) => (await import(join(dir, "src/lib/server/passwords.ts"))) as OlderPasswords;

const PASSWORD = "correct horse battery staple";
const PHC = /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;
/** The form an older auth-init's passwords.ts stored: node:crypto's scrypt, N written out, padded base64. */
const OLDER_FORM = /^\$scrypt\$N=32768,r=8,p=3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/;
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

/** A new user as the Password provider's sign-up gives it (email normalized, not proven yet). */
const newUser = (email: string, name: string | null = null) => ({ email, name, image: null, emailVerified: null });

/** How a describe counts rows and names the ledger of its database. */
interface Tables {
  /** The users table, as the count below names it. */
  users: string;
  /** Users with this email. */
  count: (email: string) => Promise<number>;
  /** The names in the migration ledger, in order. */
  ledger: () => Promise<string[]>;
  /** The count the rate_limits table holds for a key (undefined: no row). */
  rateLimitCount: (key: string) => Promise<number | undefined>;
}

/** A db.ts on a database several processes can share (PostgreSQL, the hosted store, SQLite): `rateLimit` counts there. */
function sharedRateLimits(db: () => DbModule, tables: Tables): void {
  it("its rateLimitStore counts in the database's own table (so every process of the app shares the count); a reset forgets the key", async () => {
    const store = db().rateLimitStore!;
    expect(store, "db.ts exports rateLimitStore").toBeDefined();
    const key = `ip:203.0.113.${Math.floor(Math.random() * 250)}`;
    expect((await store.hit(key, 60)).count).toBe(1);
    const second = await store.hit(key, 60);
    expect(second.count).toBe(2);
    expect(second.resetAt).toBeGreaterThan(Date.now());
    expect(await tables.rateLimitCount(key)).toBe(2);
    await store.reset(key);
    expect(await tables.rateLimitCount(key)).toBeUndefined();
    expect((await store.hit(key, 60)).count).toBe(1);
  });
}

/** What the adapter of every db.ts auth-init writes now must do with email + password accounts, once opened. */
function passwordAccounts(db: () => DbModule, tables: Tables): void {

  it("the adapter keeps an account and its password hash in the app's database: created together, the hash read back as stored, the user found by email", async () => {
    const { adapter } = db();
    const hash = await hashPassword(PASSWORD);
    expect(hash).toMatch(PHC);
    const user = await adapter.createUserWithPassword(newUser("ada@example.com", "Ada Lovelace"), hash);
    expect(user).toMatchObject({ id: expect.any(String), name: "Ada Lovelace", email: "ada@example.com", emailVerified: null });
    expect(await adapter.getUserPassword(user!.id)).toBe(hash);
    expect(await passwordMatches(PASSWORD, (await adapter.getUserPassword(user!.id))!)).toBe(true);
    expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: user!.id, email: "ada@example.com" });
    // No adapter read but getUserPassword returns the hash.
    expect(JSON.stringify(await adapter.getUser(user!.id))).not.toContain(hash);
  });

  it(`a taken email: null and nothing stored; three sign-ups racing for one email: exactly one user, one row in ${tables.users}`, async () => {
    const { adapter } = db();
    expect(await adapter.createUserWithPassword(newUser("ada@example.com"), await hashPassword("another long password"))).toBeNull();
    expect(await tables.count("ada@example.com")).toBe(1);
    const hash = await hashPassword(PASSWORD);
    const racing = await Promise.all([1, 2, 3].map(() => adapter.createUserWithPassword(newUser("grace@example.com"), hash)));
    expect(racing.filter((user) => user !== null)).toHaveLength(1);
    expect(await tables.count("grace@example.com")).toBe(1);
  });

  it("setUserPassword replaces only the hash it was given (a stale one changes nothing); with revokeSessions the user's sessions end", async () => {
    const { adapter } = db();
    const first = await hashPassword(PASSWORD);
    const user = (await adapter.createUserWithPassword(newUser("reset@example.com"), first)) as AdapterUser;
    const session = await adapter.createSession({ sessionToken: `token-${crypto.randomUUID()}`, userId: user.id, expires: EXPIRES });
    expect(await adapter.setUserPassword(user.id, await hashPassword("stale"), { previous: await hashPassword("not the stored one") })).toBe(false);
    expect(await adapter.getUserPassword(user.id)).toBe(first);
    const second = await hashPassword("a new long password");
    expect(await adapter.setUserPassword(user.id, second, { previous: first, revokeSessions: true })).toBe(true);
    expect(await adapter.getUserPassword(user.id)).toBe(second);
    expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
  });

  it("deleting the user deletes its password", async () => {
    const { adapter } = db();
    const user = (await adapter.createUserWithPassword(newUser("gone@example.com"), await hashPassword(PASSWORD))) as AdapterUser;
    await adapter.deleteUser(user.id);
    expect(await adapter.getUserPassword(user.id)).toBeNull();
    expect(await tables.count("gone@example.com")).toBe(0);
  });
}

/** What an older auth-init's modules still do with this runtime, and how its rows meet the runtime's adapter methods. */
function olderAppAccounts(load: () => { db: OlderDbModule; passwords: OlderPasswords }, tables: Tables & { runtimeMigrations: string[] }): void {
  it("the first use applies the runtime's migrations, then the app's own app_0001_user_passwords (the same table: it changes nothing)", async () => {
    const { db } = load();
    await db.database();
    expect(await tables.ledger()).toEqual([...tables.runtimeMigrations, "app_0001_user_passwords"]);
  });

  it("its passwords.ts still signs up and signs in; the runtime adapter's getUserPassword returns the hash it stored, which the runtime's check accepts and flags for a re-hash", async () => {
    const { db, passwords } = load();
    const created = await passwords.signUp({ email: " Old@Example.com ", password: PASSWORD, name: "Old Timer" });
    expect(created).toEqual({ ok: true, userId: expect.any(String) });
    const userId = (created as { userId: string }).userId;
    expect(await passwords.verifyPassword("old@example.com", PASSWORD)).toEqual({ id: userId, name: "Old Timer", email: "old@example.com" });

    const stored = (await db.findPasswordUser("old@example.com"))!.hash;
    expect(stored).toMatch(OLDER_FORM);
    expect(await db.adapter.getUserPassword(userId)).toBe(stored);
    expect(await db.adapter.getUserByEmail("old@example.com")).toMatchObject({ id: userId, name: "Old Timer" });
    // The runtime's Password provider checks it as it is, and would replace it at the next sign-in.
    expect(await passwordMatches(PASSWORD, stored)).toBe(true);
    expect(await passwordMatches("not the password", stored)).toBe(false);
    expect(passwordNeedsRehash(stored)).toBe(true);
  });

  it("the runtime replaces such a hash compare-and-set, as a re-hash at sign-in does: its own db.ts then reads the new one; a stale previous changes nothing", async () => {
    const { db, passwords } = load();
    const userId = ((await passwords.signUp({ email: "rehash@example.com", password: PASSWORD })) as { userId: string }).userId;
    const stored = (await db.adapter.getUserPassword(userId))!;
    const current = await hashPassword(PASSWORD);
    expect(await db.adapter.setUserPassword(userId, current, { previous: stored })).toBe(true);
    expect(await db.adapter.setUserPassword(userId, await hashPassword(PASSWORD), { previous: stored })).toBe(false);
    expect((await db.findPasswordUser("rehash@example.com"))?.hash).toBe(current);
    expect(await db.adapter.getUserPassword(userId)).toBe(current);
  });

  it("the runtime's sign-up works on its database too, in the same table; an address its passwords.ts signed up is taken for it", async () => {
    const { db, passwords } = load();
    const hash = await hashPassword(PASSWORD);
    const user = await db.adapter.createUserWithPassword(newUser("new@example.com", "New"), hash);
    expect(user).toMatchObject({ email: "new@example.com", name: "New" });
    expect(await db.findPasswordUser("new@example.com")).toEqual({ id: user!.id, name: "New", email: "new@example.com", hash });
    // And its own sign-up refuses that address: one account per address, whichever signed it up.
    expect(await passwords.signUp({ email: "new@example.com", password: PASSWORD })).toMatchObject({ ok: false, code: "not-created" });

    expect(await passwords.signUp({ email: "taken@example.com", password: PASSWORD })).toMatchObject({ ok: true });
    expect(await db.adapter.createUserWithPassword(newUser("taken@example.com"), hash)).toBeNull();
    expect(await tables.count("taken@example.com")).toBe(1);
  });
}

const SQLITE_MIGRATIONS = ["0001_init", "0002_rate_limits", "0003_user_passwords", "0004_account_management"];
const POSTGRES_MIGRATIONS = ["0001_init", "0002_rate_limits", "0003_user_passwords", "0004_account_management"];
const HOSTED_STORE_MIGRATIONS = ["0001_init", "0002_user_passwords", "0003_account_management", "0004_hosted_rate_limits"];

/** Counting and the ledger on a SQLite database. */
function sqliteTables(db: () => DbModule): Tables {
  const query = async <Row>(sql: string, params?: unknown[]) => (await db().database()).query<Row>(sql, params);
  return {
    users: "users",
    count: async (email) => (await query<{ n: number }>("SELECT count(*) AS n FROM users WHERE email = ?", [email])).rows[0]!.n,
    ledger: async () => (await query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name")).rows.map((r) => r.name),
    rateLimitCount: async (key) => (await query<{ count: number }>("SELECT count FROM rate_limits WHERE key = ?", [key])).rows[0]?.count,
  };
}

/** Counting and the ledger on a PostgreSQL database (`public`), or in a hosted store's branch. */
function postgresTables(db: () => DbModule, branch?: string): Tables {
  // Parameters given (none for the ledger), so the pool runs one statement and answers its rows.
  const query = async <Row>(sql: string, params: unknown[]) => (await db().database()).query<Row>(sql, params);
  const users = branch ? `"${branch}".svc_users` : "users";
  const ledger = branch ? `"${branch}".svc_migrations` : "gatehouse_migrations";
  return {
    users: branch ? "svc_users" : "users",
    count: async (email) => Number((await query<{ n: number }>(`SELECT count(*) AS n FROM ${users} WHERE email = $1`, [email])).rows[0]!.n),
    ledger: async () => (await query<{ name: string }>(`SELECT name FROM ${ledger} ORDER BY name`, [])).rows.map((r) => r.name),
    rateLimitCount: async (key) => {
      const rows = (await query<{ count: number }>(`SELECT count FROM ${branch ? `"${branch}".svc_rate_limits` : "rate_limits"} WHERE key = $1`, [key])).rows;
      return rows[0] === undefined ? undefined : Number(rows[0].count);
    },
  };
}

describe("SQLite (better-sqlite3): db.ts opens .data/auth.sqlite's stand-in on first use", () => {
  const dir = render("sqlite");
  const file = join(dir, "data", "nested", "auth.sqlite");
  useEnv({ SQLITE_PATH: file });
  let db: DbModule;
  beforeAll(async () => {
    db = await loadDb(dir);
  });

  it("importing the module (as a bundler does) creates neither the file nor its folder", () => {
    expect(typeof db.adapter.getUser).toBe("function");
    expect(existsSync(join(dir, "data"))).toBe(false);
  });

  passwordAccounts(() => db, sqliteTables(() => db));
  sharedRateLimits(() => db, sqliteTables(() => db));

  it("the first use created the file (WAL) with the runtime's migrations, the password table included; the app adds none", async () => {
    expect(existsSync(file)).toBe(true);
    const connection = await db.database();
    expect((await connection.query("PRAGMA journal_mode")).rows).toEqual([{ journal_mode: "wal" }]);
    expect(await sqliteTables(() => db).ledger()).toEqual(SQLITE_MIGRATIONS);
    expect((await connection.query("SELECT name FROM sqlite_master WHERE name = 'user_passwords'")).rows).toHaveLength(1);
  });
});

describe("PostgreSQL dialect (pg.Pool on PGlite): db.ts of --adapter postgres", () => {
  const dir = render("postgres");
  useEnv({ DATABASE_URL: "pglite://memory" });
  usePGlite();
  let db: DbModule;
  let poolsBefore = 0;
  beforeAll(async () => {
    poolsBefore = fake.pools;
    db = await loadDb(dir);
  });

  it("importing the module opens no pool", () => {
    expect(fake.pools).toBe(poolsBefore);
  });

  passwordAccounts(() => db, postgresTables(() => db));
  sharedRateLimits(() => db, postgresTables(() => db));

  it("the runtime's migrations made the password table; the app adds none", async () => {
    expect(await postgresTables(() => db).ledger()).toEqual(POSTGRES_MIGRATIONS);
    expect((await (await db.database()).query(`SELECT to_regclass('public.user_passwords')::text AS t`, [])).rows).toEqual([{ t: "user_passwords" }]);
  });
});

describe("hosted store (pg.Pool on PGlite): db.ts of --adapter hosted-store, on the branch of HOSTED_STORE_BRANCH", () => {
  const dir = render("hosted-store");
  useEnv({ HOSTED_STORE_DATABASE_URL: "pglite://memory", HOSTED_STORE_BRANCH: "preview" });
  usePGlite();
  let db: DbModule;
  let poolsBefore = 0;
  beforeAll(async () => {
    poolsBefore = fake.pools;
    db = await loadDb(dir);
  });

  it("importing the module opens no pool", () => {
    expect(fake.pools).toBe(poolsBefore);
  });

  passwordAccounts(() => db, postgresTables(() => db, "preview"));
  sharedRateLimits(() => db, postgresTables(() => db, "preview"));

  it("the svc_ tables and svc_user_passwords are in the branch's schema, recorded in its svc_migrations; a password write is touched like svc_ records", async () => {
    const connection = await db.database();
    expect(await postgresTables(() => db, "preview").ledger()).toEqual(HOSTED_STORE_MIGRATIONS);
    const user = (await db.adapter.createUserWithPassword(newUser("touched@example.com"), await hashPassword(PASSWORD))) as AdapterUser;
    expect(await db.adapter.setUserPassword(user.id, await hashPassword("a new long password"))).toBe(true);
    expect((await connection.query<{ version: number }>(`SELECT version FROM "preview".svc_user_passwords WHERE "user" = $1`, [user.id])).rows).toEqual([{ version: 1 }]);
    expect((await connection.query(`SELECT to_regclass('public.svc_users') AS t`)).rows).toEqual([{ t: null }]);
  });
});

describe("an app an older auth-init made, on SQLite: its schema.ts lists app_0001_user_passwords, its passwords.ts hashes with its own scrypt", () => {
  const dir = olderApp("sqlite");
  useEnv({ SQLITE_PATH: join(dir, ".data", "auth.sqlite") });
  let app: { db: OlderDbModule; passwords: OlderPasswords };
  beforeAll(async () => {
    app = { db: await loadDb<OlderDbModule>(dir), passwords: await loadOlderPasswords(dir) };
  });

  olderAppAccounts(() => app, { ...sqliteTables(() => app.db), runtimeMigrations: SQLITE_MIGRATIONS });
});

describe("an app an older auth-init made, on PostgreSQL (pg.Pool on PGlite)", () => {
  const dir = olderApp("postgres");
  useEnv({ DATABASE_URL: "pglite://memory" });
  usePGlite();
  let app: { db: OlderDbModule; passwords: OlderPasswords };
  beforeAll(async () => {
    app = { db: await loadDb<OlderDbModule>(dir), passwords: await loadOlderPasswords(dir) };
  });

  olderAppAccounts(() => app, { ...postgresTables(() => app.db), runtimeMigrations: POSTGRES_MIGRATIONS });
});

describe("an app an older auth-init made, on the hosted store (pg.Pool on PGlite)", () => {
  const dir = olderApp("hosted-store");
  useEnv({ HOSTED_STORE_DATABASE_URL: "pglite://memory", HOSTED_STORE_BRANCH: "legacy" });
  usePGlite();
  let app: { db: OlderDbModule; passwords: OlderPasswords };
  beforeAll(async () => {
    app = { db: await loadDb<OlderDbModule>(dir), passwords: await loadOlderPasswords(dir) };
  });

  olderAppAccounts(() => app, { ...postgresTables(() => app.db, "legacy"), runtimeMigrations: HOSTED_STORE_MIGRATIONS });
});

const serverUrl = process.env.DATABASE_URL;
const skipped = "(skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))";

/** A database of its own on the server for a describe, dropped after it; `point` sets the env db.ts reads. */
function useServerDatabase(label: string, point: (url: string) => void): void {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!, label);
    point(database.url);
  }, 60_000);
  afterAll(async () => {
    // Dropped WITH (FORCE), which ends the connections of the pool db.ts opened: its error listener reports each.
    const reports = vi.spyOn(console, "error").mockImplementation(() => {});
    await database?.drop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    reports.mockRestore();
  });
}

describe.skipIf(!serverUrl)(
  serverUrl ? "hosted store on the PostgreSQL server: db.ts of --adapter hosted-store through a real pg.Pool" : `hosted store on the PostgreSQL server ${skipped}`,
  () => {
    const dir = render("hosted-store");
    useEnv({ HOSTED_STORE_BRANCH: undefined, HOSTED_STORE_DATABASE_URL: undefined });
    useServerDatabase("generated", (url) => (process.env.HOSTED_STORE_DATABASE_URL = url));
    let db: DbModule;
    beforeAll(async () => {
      db = await loadDb(dir);
    });

    passwordAccounts(() => db, postgresTables(() => db, "main"));
    sharedRateLimits(() => db, postgresTables(() => db, "main"));
  },
);

describe.skipIf(!serverUrl)(serverUrl ? "PostgreSQL server: db.ts of --adapter postgres through a real pg.Pool" : `PostgreSQL server ${skipped}`, () => {
  const dir = render("postgres");
  // Saved and restored around this describe; pointed at a database of its own below.
  useEnv({ DATABASE_URL: serverUrl });
  useServerDatabase("generated_pg", (url) => (process.env.DATABASE_URL = url));
  let db: DbModule;
  beforeAll(async () => {
    db = await loadDb(dir);
  });

  passwordAccounts(() => db, postgresTables(() => db));
  sharedRateLimits(() => db, postgresTables(() => db));
});

describe.skipIf(!serverUrl)(
  serverUrl ? "an app an older auth-init made, on the PostgreSQL server through a real pg.Pool" : `an app an older auth-init made, on the PostgreSQL server ${skipped}`,
  () => {
    const dir = olderApp("postgres");
    useEnv({ DATABASE_URL: serverUrl });
    useServerDatabase("generated_older", (url) => (process.env.DATABASE_URL = url));
    let app: { db: OlderDbModule; passwords: OlderPasswords };
    beforeAll(async () => {
      app = { db: await loadDb<OlderDbModule>(dir), passwords: await loadOlderPasswords(dir) };
    });

    olderAppAccounts(() => app, { ...postgresTables(() => app.db), runtimeMigrations: POSTGRES_MIGRATIONS });
  },
);
