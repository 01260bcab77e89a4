/**
 * The hosted-store adapter on PGlite (PostgreSQL in WebAssembly, in this
 * process): the shared conformance suite, `migrate()` per branch, the inlined
 * migrations, branches isolated from each other, the join tables kept equal to
 * the direct links, the record metadata, and the one-statement methods. One
 * PGlite per file: opening one is slow.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative imports: the package's exports map (which the typechecker reads) may not list this entry yet.
import {
  HostedStoreAdapter,
  HostedStoreClient,
  HostedStoreError,
  migrate,
  migrations,
  type SqlClient,
} from "../../runtime/src/adapters/hosted-store/index.js";
import { fromPGlite } from "../../runtime/src/adapters/postgres/pglite.js";
import { runAdapterConformance } from "./conformance.js";
import { postgresAddedColumns } from "./support/added-columns.js";
import { checkAdoptionDeletesPassword, checkPasswordRecords } from "./support/hosted-store-checks.js";
import { openPGlite } from "./support/pglite.js";

const ALL = migrations.map((m) => m.name);
const SVC_TABLES = [
  "svc_accounts",
  "svc_authenticators",
  "svc_migrations",
  "svc_rate_limits",
  "svc_sessions",
  "svc_user_passwords",
  "svc_users",
  "svc_users_accounts",
  "svc_users_sessions",
  "svc_verificationTokens",
];
const NO_EXTRA_FIELDS = "the svc_ tables have fixed fields, none for fields beyond the contract's";
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

let pglite: PGlite;
let db: SqlClient;
let store: HostedStoreClient;
let opened: Promise<void> | undefined;
/** Opens the file's one PGlite and migrates its `main` branch, the first time it is asked for. */
const ready = () =>
  (opened ??= (async () => {
    pglite = await openPGlite();
    db = fromPGlite(pglite);
    store = new HostedStoreClient({ client: db });
    await migrate(store);
  })());

beforeAll(ready, 60_000);
afterAll(async () => {
  await pglite?.close();
});

/** Empties a branch: every svc_ table but the ledger. */
const truncate = (branch: string) =>
  `TRUNCATE "${branch}".svc_users, "${branch}".svc_accounts, "${branch}".svc_sessions, "${branch}".svc_users_accounts,
    "${branch}".svc_users_sessions, "${branch}"."svc_verificationTokens", "${branch}".svc_authenticators CASCADE`;

runAdapterConformance({
  name: "hosted-store (PGlite)",
  setup: async () => {
    await ready();
    return HostedStoreAdapter(store);
  },
  reset: async () => {
    await db.query(truncate("main"));
  },
  addedColumns: { ...postgresAddedColumns(() => db, { users: `"main".svc_users`, sessions: `"main".svc_sessions` }), sessionIds: true },
  limits: { noExtraFields: NO_EXTRA_FIELDS },
});

/** A store on a branch no other test uses (its own schema in the shared PGlite). */
function freshBranch(label: string): { branch: string; client: HostedStoreClient } {
  const branch = `${label}-${crypto.randomUUID().slice(0, 8)}`;
  return { branch, client: new HostedStoreClient({ client: db, branch }) };
}

async function tables(branch: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1",
    [branch],
  );
  return rows.map((row) => row.name);
}

async function ledger(branch: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`SELECT name FROM "${branch}".svc_migrations ORDER BY name`, []);
  return rows.map((row) => row.name);
}

/** Join rows without their account or session, accounts or sessions without a join row, and join rows naming another user. */
async function joinMismatches(branch: string): Promise<number> {
  const s = `"${branch}"`;
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM ${s}.svc_accounts a FULL JOIN ${s}.svc_users_accounts j ON j.account = a.id
       WHERE a.id IS NULL OR j.account IS NULL OR j."user" IS DISTINCT FROM a."user"
       UNION ALL
       SELECT 1 FROM ${s}.svc_sessions x FULL JOIN ${s}.svc_users_sessions j ON j.session = x.id
       WHERE x.id IS NULL OR j.session IS NULL OR j."user" IS DISTINCT FROM x."user"
     ) mismatches`,
    [],
  );
  return rows[0]!.n;
}

async function count(table: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`, []);
  return rows[0]!.n;
}

/** The store's SqlClient, recording the text of every statement sent and every transaction opened. */
function recording(inner: SqlClient): { client: SqlClient; sent: string[] } {
  const sent: string[] = [];
  const client: SqlClient = {
    query: (text, params) => {
      sent.push(text);
      return inner.query(text, params);
    },
    transaction: (fn) => {
      sent.push("(transaction)");
      return inner.transaction(fn);
    },
  };
  return { client, sent };
}

describe("migrate() on PGlite", () => {
  it("creates the branch's schema, applies and records every migration once; a second run applies nothing", async () => {
    const { branch, client } = freshBranch("idempotent");
    expect(await migrate(client)).toEqual({ applied: ALL });
    expect(await tables(branch)).toEqual(SVC_TABLES);
    expect(await ledger(branch)).toEqual(ALL);
    expect(await migrate(client)).toEqual({ applied: [] });
    expect(await ledger(branch)).toEqual(ALL);
    // For people who apply the .sql files with their own tool, in the branch's schema, maybe twice.
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL search_path TO "${branch}"`);
      for (const migration of migrations) await tx.query(migration.sql);
    });
    expect(await tables(branch)).toEqual(SVC_TABLES);
  });

  it("leaves the connection's search_path as it was", async () => {
    const before = (await db.query<{ search_path: string }>("SHOW search_path", [])).rows[0]?.search_path;
    await migrate(freshBranch("search-path").client);
    expect((await db.query<{ search_path: string }>("SHOW search_path", [])).rows[0]?.search_path).toBe(before);
  });

  it("applies a pending migration; a failing one is rolled back and not recorded", async () => {
    const { branch, client } = freshBranch("failing");
    const extra = [...migrations, { name: "9001_extra", sql: "CREATE TABLE extra_a (x int); CREATE TABLE extra_b (x int);" }];
    expect(await migrate(client)).toEqual({ applied: ALL });
    expect(await migrate(client, { migrations: extra })).toEqual({ applied: ["9001_extra"] });
    // Unqualified names in a migration land in the branch's schema.
    expect(await tables(branch)).toContain("extra_a");

    const failing = [...extra, { name: "9002_broken", sql: "CREATE TABLE extra_c (x int); SELECT 1/0;" }];
    await expect(migrate(client, { migrations: failing })).rejects.toThrow(/9002_broken.*division by zero/);
    expect(await ledger(branch)).toEqual([...ALL, "9001_extra"]);
    expect(await tables(branch)).not.toContain("extra_c");

    await expect(migrate(client, { migrations: [extra[0]!, extra[0]!] })).rejects.toThrow(/same name/);
  });

  it("concurrent runs apply each migration exactly once", async () => {
    const { branch, client } = freshBranch("concurrent");
    const results = await Promise.all([migrate(client), migrate(client), migrate(client)]);
    // Sorted: which run applied which migration, and so the order of the lists, is up to the lock.
    expect(results.flatMap((result) => result.applied).sort()).toEqual(ALL);
    expect(await ledger(branch)).toEqual(ALL);
  });

  it("uses a schema an admin made beforehand", async () => {
    const { branch, client } = freshBranch("premade");
    await db.query(`CREATE SCHEMA "${branch}"`);
    expect(await migrate(client)).toEqual({ applied: ALL });
    expect(await tables(branch)).toEqual(SVC_TABLES);
  });

  it("rejects like getConfig() when the branch is invalid, creating nothing", async () => {
    const client = new HostedStoreClient({ client: db, branch: 'x"; DROP SCHEMA main CASCADE; --' });
    await expect(migrate(client)).rejects.toMatchObject({ code: "invalid_branch" });
    expect(await tables("main")).toEqual(SVC_TABLES);
  });
});

describe("branches", () => {
  it("two branches in one database do not see each other's records", async () => {
    const mainStore = freshBranch("main");
    const previewStore = freshBranch("preview");
    await migrate(mainStore.client);
    await migrate(previewStore.client);
    const primary = HostedStoreAdapter(mainStore.client);
    const preview = HostedStoreAdapter(previewStore.client);

    // The same email and id on both branches: unique per branch, not across them.
    const ada = await primary.createUser({ id: "ada", email: "ada@example.com", emailVerified: null, name: "Ada (main)" });
    const adaPreview = await preview.createUser({ id: "ada", email: "ada@example.com", emailVerified: null, name: "Ada (preview)" });
    expect((await primary.getUserByEmail("ada@example.com"))?.name).toBe("Ada (main)");
    expect((await preview.getUser("ada"))?.name).toBe("Ada (preview)");

    const grace = await primary.createUser({ id: "", email: "grace@example.com", emailVerified: null });
    expect(await preview.getUser(grace.id)).toBeNull();
    expect(await preview.getUserByEmail("grace@example.com")).toBeNull();

    await primary.linkAccount({ userId: ada.id, type: "oauth", provider: "github", providerAccountId: "1" });
    expect(await preview.getUserByAccount({ provider: "github", providerAccountId: "1" })).toBeNull();
    await primary.createSession({ sessionToken: "token", userId: ada.id, expires: EXPIRES });
    expect(await preview.getSessionAndUser("token")).toBeNull();
    await primary.createVerificationToken({ identifier: "ada@example.com", token: "t", expires: EXPIRES });
    expect(await preview.useVerificationToken({ identifier: "ada@example.com", token: "t" })).toBeNull();

    await preview.deleteUser(adaPreview.id);
    expect((await primary.getSessionAndUser("token"))?.user.name).toBe("Ada (main)");
    expect(await count(`"${mainStore.branch}".svc_users`)).toBe(2);
    expect(await count(`"${previewStore.branch}".svc_users`)).toBe(0);
  });

  it("an unmigrated branch fails loudly instead of reading another branch's tables", async () => {
    const adapter = HostedStoreAdapter(freshBranch("unmigrated").client);
    await expect(adapter.getUserByEmail("ada@example.com")).rejects.toThrow(/does not exist/);
  });
});

describe("join tables follow the direct user links", () => {
  async function fresh() {
    const { branch, client } = freshBranch("joins");
    await migrate(client);
    return { branch, s: `"${branch}"`, adapter: HostedStoreAdapter(client) };
  }

  it("linkAccount and createSession write a join row each; unlink, deleteSession and deleteUser remove them", async () => {
    const { branch, s, adapter } = await fresh();
    const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    const grace = await adapter.createUser({ id: "", email: "grace@example.com", emailVerified: null });
    const github = { userId: ada.id, type: "oauth" as const, provider: "github", providerAccountId: "1" };
    await adapter.linkAccount(github);
    await adapter.linkAccount({ ...github, provider: "google" });
    await adapter.linkAccount({ ...github, userId: grace.id, providerAccountId: "2" });
    await adapter.createSession({ sessionToken: "a1", userId: ada.id, expires: EXPIRES });
    await adapter.createSession({ sessionToken: "a2", userId: ada.id, expires: EXPIRES });
    await adapter.createSession({ sessionToken: "g1", userId: grace.id, expires: EXPIRES });
    expect(await count(`${s}.svc_users_accounts`)).toBe(3);
    expect(await count(`${s}.svc_users_sessions`)).toBe(3);
    expect(await joinMismatches(branch)).toBe(0);
    const { rows } = await db.query<{ user: string }>(
      `SELECT j."user" FROM ${s}.svc_users_accounts j JOIN ${s}.svc_accounts a ON a.id = j.account WHERE a.provider = 'google'`,
      [],
    );
    expect(rows).toEqual([{ user: ada.id }]);

    await adapter.unlinkAccount({ provider: "google", providerAccountId: "1" });
    await adapter.deleteSession("a2");
    expect(await count(`${s}.svc_users_accounts`)).toBe(2);
    expect(await count(`${s}.svc_users_sessions`)).toBe(2);
    expect(await joinMismatches(branch)).toBe(0);

    await adapter.deleteUser(ada.id);
    expect(await count(`${s}.svc_users_accounts`)).toBe(1);
    expect(await count(`${s}.svc_users_sessions`)).toBe(1);
    expect(await joinMismatches(branch)).toBe(0);
  });

  it("a session moved to another user by updateSession moves its join row along", async () => {
    const { branch, s, adapter } = await fresh();
    const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    const grace = await adapter.createUser({ id: "", email: "grace@example.com", emailVerified: null });
    await adapter.createSession({ sessionToken: "t", userId: ada.id, expires: EXPIRES });
    await adapter.updateSession({ sessionToken: "t", userId: grace.id });
    expect((await adapter.getSessionAndUser("t"))?.user.id).toBe(grace.id);
    const { rows } = await db.query<{ user: string }>(`SELECT "user" FROM ${s}.svc_users_sessions`, []);
    expect(rows).toEqual([{ user: grace.id }]);
    expect(await joinMismatches(branch)).toBe(0);
  });

  it("a failed link leaves no join row behind (account and join row are one statement)", async () => {
    const { branch, s, adapter } = await fresh();
    const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    const account = { userId: ada.id, type: "oauth" as const, provider: "github", providerAccountId: "1" };
    await adapter.linkAccount(account);
    await expect(adapter.linkAccount(account)).rejects.toThrow();
    await expect(adapter.linkAccount({ ...account, providerAccountId: "2", userId: "no-such-user" })).rejects.toThrow();
    await expect(adapter.createSession({ sessionToken: "t", userId: "no-such-user", expires: EXPIRES })).rejects.toThrow();
    expect(await count(`${s}.svc_users_accounts`)).toBe(1);
    expect(await count(`${s}.svc_users_sessions`)).toBe(0);
    expect(await joinMismatches(branch)).toBe(0);
  });

  it("the database refuses a join row whose user is not its account's or session's", async () => {
    const { s, adapter } = await fresh();
    const ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    const grace = await adapter.createUser({ id: "", email: "grace@example.com", emailVerified: null });
    await adapter.linkAccount({ userId: ada.id, type: "oauth", provider: "github", providerAccountId: "1" });
    await adapter.createSession({ sessionToken: "t", userId: ada.id, expires: EXPIRES });
    await expect(db.query(`UPDATE ${s}.svc_users_accounts SET "user" = $1`, [grace.id])).rejects.toThrow(/foreign key/);
    await expect(db.query(`UPDATE ${s}.svc_users_sessions SET "user" = $1`, [grace.id])).rejects.toThrow(/foreign key/);
    // One join row per account or session.
    await expect(
      db.query(`INSERT INTO ${s}.svc_users_accounts (account, "user") SELECT account, "user" FROM ${s}.svc_users_accounts`, []),
    ).rejects.toThrow(/unique|duplicate/);
  });
});

describe("record metadata", () => {
  it("every record gets a UUID id, created_at and updated_at, and version 0; an update bumps version and updated_at", async () => {
    const { branch, client } = freshBranch("metadata");
    await migrate(client);
    const adapter = HostedStoreAdapter(client);
    const user = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await adapter.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: user.email });
    await adapter.createSession({ sessionToken: "t", userId: user.id, expires: EXPIRES });
    await adapter.createVerificationToken({ identifier: user.email, token: "v", expires: EXPIRES });

    type Meta = { id: string; created_at: Date; updated_at: Date; version: number };
    const s = `"${branch}"`;
    for (const table of ["svc_users", "svc_accounts", "svc_sessions", "svc_users_accounts", "svc_users_sessions", `"svc_verificationTokens"`]) {
      const { rows } = await db.query<Meta>(`SELECT id, created_at, updated_at, version FROM ${s}.${table}`, []);
      expect(rows, table).toHaveLength(1);
      expect(rows[0]?.id, table).toMatch(/^[0-9a-f-]{36}$/);
      expect(rows[0]?.created_at, table).toBeInstanceOf(Date);
      expect(rows[0]?.updated_at, table).toEqual(rows[0]?.created_at);
      expect(rows[0]?.version, table).toBe(0);
    }

    const meta = async () =>
      (await db.query<Meta>(`SELECT id, created_at, updated_at, version FROM ${s}.svc_users`, [])).rows[0]!;
    const before = await meta();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await adapter.updateUser({ id: user.id, name: "Ada" });
    await adapter.updateUser({ id: user.id, image: "https://example.com/ada.png" });
    const after = await meta();
    expect(after.version).toBe(2);
    expect(after.created_at).toEqual(before.created_at);
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
  });
});

describe("adoptUnprovenUser and passwords", () => {
  it("deletes the user's password record and join rows, no other user's, in its one transaction", async () => {
    const { branch, client } = freshBranch("adopt");
    await migrate(client);
    await checkAdoptionDeletesPassword(db, branch);
    expect(await joinMismatches(branch)).toBe(0);
  });

  it("the password methods move updated_at and version on each write only, and roll back whole", async () => {
    const { branch, client } = freshBranch("passwords");
    await migrate(client);
    await checkPasswordRecords(db, branch);
    expect(await joinMismatches(branch)).toBe(0);
  });
});

describe("HostedStoreAdapter on PGlite, beyond the suite", () => {
  const user = { id: "", email: "ada@example.com", emailVerified: null };

  it("getSessionAndUser is one statement; linkAccount and createSession are one statement each, without a transaction", async () => {
    await db.query(truncate("main"));
    const { client, sent } = recording(db);
    const adapter = HostedStoreAdapter(new HostedStoreClient({ client }));
    const ada = await adapter.createUser(user);
    sent.length = 0;
    await adapter.linkAccount({ userId: ada.id, type: "oauth", provider: "github", providerAccountId: "1" });
    expect(sent).toHaveLength(1);
    sent.length = 0;
    await adapter.createSession({ sessionToken: "t", userId: ada.id, expires: EXPIRES });
    expect(sent).toHaveLength(1);
    sent.length = 0;
    expect((await adapter.getSessionAndUser("t"))?.user.id).toBe(ada.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/JOIN "main"\.svc_users/);
  });

  it("updateAccount is one statement; it bumps the account's version and leaves its join row", async () => {
    await db.query(truncate("main"));
    const { client, sent } = recording(db);
    const adapter = HostedStoreAdapter(new HostedStoreClient({ client }));
    const ada = await adapter.createUser(user);
    const key = { provider: "github", providerAccountId: "1" };
    await adapter.linkAccount({ userId: ada.id, type: "oauth", ...key, refresh_token: "r0", token_type: "bearer" });
    sent.length = 0;
    const updated = await adapter.updateAccount({ ...key, access_token: "a1", refresh_token: "r1", token_type: "Bearer" }, { refresh_token: "r0" });
    expect(updated).toEqual({ userId: ada.id, type: "oauth", ...key, access_token: "a1", refresh_token: "r1", token_type: "bearer" });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^UPDATE "main"\.svc_accounts SET .* IS NOT DISTINCT FROM/s);
    const { rows } = await db.query<{ version: number; token_type: string }>(`SELECT version, token_type FROM "main".svc_accounts`, []);
    expect(rows).toEqual([{ version: 1, token_type: "bearer" }]);
    const joined = await db.query<{ user: string }>(`SELECT "user" FROM "main".svc_users_accounts`, []);
    expect(joined.rows).toEqual([{ user: ada.id }]);
  });

  it("returns what it changed or removed; not_found errors name the record", async () => {
    await db.query(truncate("main"));
    const adapter = HostedStoreAdapter(store);
    const ada = await adapter.createUser({ ...user, id: "u", name: "Ada" });
    expect(ada).toEqual({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada", image: null });
    const session = await adapter.createSession({ sessionToken: "t", userId: "u", expires: EXPIRES });
    expect(await adapter.deleteSession("t")).toEqual(session);
    expect(await adapter.deleteSession("t")).toBeNull();
    const account = { userId: "u", type: "oauth" as const, provider: "github", providerAccountId: "1", token_type: "Bearer" };
    expect(await adapter.linkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await adapter.unlinkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await adapter.unlinkAccount(account)).toBeUndefined();
    expect(await adapter.deleteUser("u")).toEqual(ada);
    expect(await adapter.deleteUser("u")).toBeNull();

    const updateError = await Promise.resolve(adapter.updateUser({ id: "nobody", name: "x" })).catch((e: unknown) => e);
    expect(updateError).toBeInstanceOf(HostedStoreError);
    expect(updateError).toMatchObject({ code: "not_found", message: expect.stringMatching(/nobody/) });
    await expect(adapter.updateAuthenticatorCounter("no-such-credential", 1)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringMatching(/no-such-credential.*does not exist/),
    });
  });

  it("stores WebAuthn counters beyond 32-bit signed range and returns them as numbers", async () => {
    await db.query(truncate("main"));
    const adapter = HostedStoreAdapter(store);
    const ada = await adapter.createUser(user);
    const authenticator = {
      userId: ada.id,
      credentialID: "c",
      providerAccountId: "c",
      credentialPublicKey: "k",
      counter: 2 ** 32 - 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    };
    expect(await adapter.createAuthenticator(authenticator)).toEqual({ ...authenticator, transports: null });
    expect((await adapter.getAuthenticator("c"))?.counter).toBe(2 ** 32 - 1);
  });

  it("updateUser with no field to change returns the user unchanged", async () => {
    await db.query(truncate("main"));
    const adapter = HostedStoreAdapter(store);
    const ada = await adapter.createUser({ ...user, name: "Ada" });
    expect(await adapter.updateUser({ id: ada.id, name: undefined })).toEqual(ada);
  });

  it("a session or token whose expiry another writer left NULL reads as long expired", async () => {
    await db.query(truncate("main"));
    const adapter = HostedStoreAdapter(store);
    const ada = await adapter.createUser(user);
    await adapter.createSession({ sessionToken: "t", userId: ada.id, expires: EXPIRES });
    await adapter.createVerificationToken({ identifier: ada.email, token: "v", expires: EXPIRES });
    await db.query(`UPDATE "main".svc_sessions SET expires = NULL`);
    await db.query(`UPDATE "main"."svc_verificationTokens" SET expires = NULL`);
    expect((await adapter.getSessionAndUser("t"))?.session.expires).toEqual(new Date(0));
    expect((await adapter.useVerificationToken({ identifier: ada.email, token: "v" }))?.expires).toEqual(new Date(0));
  });

  it("connects once, on first use; a failed connect is retried by the next call", async () => {
    await db.query(truncate("main"));
    const calls: [string, string][] = [];
    let fail = true;
    const client = new HostedStoreClient({
      databaseURL: "postgres://store.example/db",
      connect: (url, branch) => {
        calls.push([url, branch]);
        if (fail) throw new Error("store unreachable");
        return db;
      },
    });
    const adapter = HostedStoreAdapter(client);
    await expect(adapter.getUser("u")).rejects.toThrow("store unreachable");
    fail = false;
    expect(await Promise.all([adapter.getUser("u"), adapter.getUserByEmail("x"), adapter.getUser("v")])).toEqual([null, null, null]);
    expect(calls).toEqual([
      ["postgres://store.example/db", "main"],
      ["postgres://store.example/db", "main"],
    ]);
  });

  it("rejects what is not a HostedStoreClient", () => {
    expect(() => HostedStoreAdapter({} as HostedStoreClient)).toThrow(TypeError);
  });
});
