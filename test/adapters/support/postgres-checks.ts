/**
 * Checks of `migrate()` and of the schema that run the same on PGlite and on a
 * PostgreSQL server. Each takes a client whose tables are empty: a fresh
 * database on the server, a fresh schema (search_path) on PGlite.
 */
import { expect } from "vitest";
import { PostgresAdapter, migrate, migrations, type SqlClient } from "../../../runtime/src/adapters/postgres/index.js";
import { AUTHJS_PG_ROWS, AUTHJS_PG_SCHEMA } from "./authjs-schema.js";

const ALL = migrations.map((m) => m.name);

/** The conformance suite's `limits.noExtraFields` for this schema. */
export const NO_EXTRA_FIELDS =
  "the schema is the Auth.js PostgreSQL schema: fixed columns, none for fields beyond the contract's";

export async function ledger(db: SqlClient): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name", []);
  return rows.map((row) => row.name);
}

async function tables(db: SqlClient): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
    [],
  );
  return rows.map((row) => row.name);
}

/** First run applies everything and records it; the second applies nothing; the SQL itself re-runs harmlessly. */
export async function checkIdempotent(db: SqlClient): Promise<void> {
  expect(await migrate(db)).toEqual({ applied: ALL });
  expect(await ledger(db)).toEqual(ALL);
  expect(await tables(db)).toEqual(["accounts", "authenticators", "gatehouse_migrations", "rate_limits", "sessions", "user_passwords", "users", "verification_token"]);
  const { rows } = await db.query<{ applied_at: Date }>("SELECT applied_at FROM gatehouse_migrations", []);
  expect(rows.every((row) => row.applied_at instanceof Date)).toBe(true);

  expect(await migrate(db)).toEqual({ applied: [] });
  expect(await ledger(db)).toEqual(ALL);
  // For people who apply the .sql files with their own tool, maybe twice.
  for (const migration of migrations) await db.query(migration.sql);
  expect(await tables(db)).toHaveLength(8);
}

/** A later migration is applied on top; a failing one is rolled back entirely and not recorded. */
export async function checkPendingAndFailing(db: SqlClient): Promise<void> {
  const extra = [
    ...migrations,
    { name: "9001_extra", sql: "CREATE TABLE extra_a (x int); CREATE TABLE extra_b (x int);" },
  ];
  expect(await migrate(db)).toEqual({ applied: ALL });
  expect(await migrate(db, { migrations: extra })).toEqual({ applied: ["9001_extra"] });

  const failing = [...extra, { name: "9002_broken", sql: "CREATE TABLE extra_c (x int); SELECT 1/0;" }];
  await expect(migrate(db, { migrations: failing })).rejects.toThrow(/9002_broken.*division by zero/);
  expect(await ledger(db)).toEqual([...ALL, "9001_extra"]);
  expect(await tables(db)).not.toContain("extra_c");

  await expect(migrate(db, { migrations: [extra[0]!, extra[0]!] })).rejects.toThrow(/same name/);
}

/** Several runs at once: each migration is applied exactly once, and every run resolves. */
export async function checkConcurrent(clients: SqlClient[]): Promise<void> {
  const results = await Promise.all(clients.map((client) => migrate(client)));
  expect(results.flatMap((result) => result.applied).sort()).toEqual(ALL);
  expect(await ledger(clients[0]!)).toEqual(ALL);
}

/**
 * An Auth.js database (serial ids, no constraints, a deleted user's leftovers)
 * adopted by `migrate()`: rows kept, ids now text, leftovers gone, constraints
 * in place, and the adapter works on it.
 */
export async function checkAdoptsAuthjsDatabase(db: SqlClient): Promise<void> {
  await db.query(AUTHJS_PG_SCHEMA);
  await db.query(AUTHJS_PG_ROWS);
  expect(await migrate(db)).toEqual({ applied: ALL });

  const adapter = PostgresAdapter(db);
  const found = await adapter.getSessionAndUser("ada-session");
  expect(found?.user).toEqual({
    id: "1",
    name: "Ada",
    email: "ada@example.com",
    emailVerified: new Date("2024-02-03T04:05:06.789Z"),
    image: null,
  });
  // The whole row, its Auth.js id too. Stored before migration 0004: when it was created (and in which browser) is unknown.
  expect(found?.session).toEqual({
    id: 1,
    sessionToken: "ada-session",
    userId: "1",
    expires: new Date("2031-05-06T07:08:09.123Z"),
    createdAt: null,
    userAgent: null,
  });
  expect(await adapter.getAccount("gh-1", "github")).toEqual({
    userId: "1",
    type: "oauth",
    provider: "github",
    providerAccountId: "gh-1",
    access_token: "gho_token",
    expires_at: 1_900_000_000,
    token_type: "bearer",
  });
  expect(await adapter.getSessionAndUser("orphan-session")).toBeNull();
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM sessions)::int + (SELECT count(*) FROM accounts)::int AS n`,
    [],
  );
  expect(rows[0]?.n).toBe(2);
  expect(await adapter.useVerificationToken({ identifier: "ada@example.com", token: "hashed" })).toMatchObject({ token: "hashed" });

  // New users get UUIDs beside the old integer ids; the constraints hold; deletes cascade.
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "grace@example.com", emailVerified: null });
  await expect(adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null })).rejects.toThrow();
  await expect(adapter.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "gh-1" })).rejects.toThrow();
  await adapter.deleteUser("1");
  expect(await adapter.getAccount("gh-1", "github")).toBeNull();
  expect(await adapter.getSessionAndUser("ada-session")).toBeNull();
  expect((await adapter.getUser(user.id))?.email).toBe("grace@example.com");
  expect(await migrate(db)).toEqual({ applied: [] });
}

/**
 * `adoptUnprovenUser` and `user_passwords`, on rows written by SQL (the
 * conformance suite sees the password only through the adapter): the adopted
 * user's password row is deleted, a proven user's and another user's stay; a
 * failing delete rolls back the whole adoption. Takes a migrated client and
 * empties its tables.
 */
export async function checkAdoptionDeletesPassword(db: SqlClient): Promise<void> {
  await db.query("TRUNCATE users, accounts, sessions, verification_token, authenticators, user_passwords CASCADE");
  const adapter = PostgresAdapter(db);
  const provenAt = new Date("2024-02-03T04:05:06.789Z");
  await adapter.createUser({ id: "claimed", email: "claimed@example.com", emailVerified: null });
  await adapter.createUser({ id: "proven", email: "proven@example.com", emailVerified: provenAt });
  await adapter.createUser({ id: "bystander", email: "bystander@example.com", emailVerified: null });
  await db.query(`INSERT INTO user_passwords ("userId", hash) VALUES ('claimed', 'h1'), ('proven', 'h2'), ('bystander', 'h3')`);
  const passwords = async () =>
    (await db.query<{ userId: string }>(`SELECT "userId" FROM user_passwords ORDER BY "userId"`, [])).rows.map((row) => row.userId);

  const now = new Date("2025-06-07T08:09:10.123Z");
  expect(await adapter.adoptUnprovenUser("claimed", { email: "claimed@example.com", emailVerified: now })).toMatchObject({ revoked: true });
  expect(await adapter.adoptUnprovenUser("proven", { email: "proven@example.com", emailVerified: now })).toMatchObject({ revoked: false });
  expect(await adapter.adoptUnprovenUser("bystander", { email: "someone@example.com", emailVerified: now })).toBeNull();
  expect(await passwords()).toEqual(["bystander", "proven"]);

  // The password's delete fails (it comes last): the user stays unproven with its account and password.
  await adapter.linkAccount({ userId: "bystander", type: "oauth", provider: "github", providerAccountId: "1" });
  await db.query(`CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
    CREATE TRIGGER refuse_delete BEFORE DELETE ON user_passwords FOR EACH ROW EXECUTE FUNCTION refuse_delete();`);
  try {
    await expect(adapter.adoptUnprovenUser("bystander", { email: "bystander@example.com", emailVerified: now })).rejects.toThrow(/refused/);
  } finally {
    await db.query("DROP TRIGGER refuse_delete ON user_passwords; DROP FUNCTION refuse_delete();");
  }
  expect((await adapter.getUser("bystander"))?.emailVerified).toBeNull();
  expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "1" }))?.id).toBe("bystander");
  expect(await passwords()).toEqual(["bystander", "proven"]);
}

/**
 * The password methods on `user_passwords`, beyond what the conformance suite
 * sees through the adapter: `updatedAt` moves to now on every write and only
 * then; a user whose password insert fails is not created either; sessions
 * whose delete fails leave the password unchanged (one transaction). Takes a
 * migrated client and empties its tables.
 */
export async function checkPasswordRows(db: SqlClient): Promise<void> {
  await db.query("TRUNCATE users, accounts, sessions, verification_token, authenticators, user_passwords CASCADE");
  const adapter = PostgresAdapter(db);
  const longAgo = new Date("2000-01-01T00:00:00.000Z");
  const age = () => db.query(`UPDATE user_passwords SET "updatedAt" = $1`, [longAgo]);
  const updatedAt = async () =>
    (await db.query<{ updatedAt: Date }>(`SELECT "updatedAt" FROM user_passwords WHERE "userId" = 'ada'`, [])).rows[0]?.updatedAt;
  const expectNow = async () => expect(Math.abs((await updatedAt())!.getTime() - Date.now())).toBeLessThan(60_000);

  await adapter.createUserWithPassword({ id: "ada", email: "ada@example.com", emailVerified: null }, "h1");
  await expectNow();
  await age();
  expect(await adapter.setUserPassword("ada", "h2")).toBe(true);
  await expectNow();
  await age();
  expect(await adapter.setUserPassword("ada", "h3", { previous: "h2" })).toBe(true);
  await expectNow();
  await age();
  expect(await adapter.setUserPassword("ada", "h4", { previous: "stale" })).toBe(false);
  expect(await adapter.setUserPassword("ada", "h4", { previous: null })).toBe(false);
  expect(await updatedAt()).toEqual(longAgo);

  // The password insert fails (it comes second): the user is not created either.
  await db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
    CREATE TRIGGER refuse_insert BEFORE INSERT ON user_passwords FOR EACH ROW EXECUTE FUNCTION refuse();
    CREATE TRIGGER refuse_delete BEFORE DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION refuse();`);
  try {
    await expect(adapter.createUserWithPassword({ email: "grace@example.com", emailVerified: null }, "g1")).rejects.toThrow(/refused/);
    expect(await adapter.getUserByEmail("grace@example.com")).toBeNull();
    // The sessions' delete fails (it comes after the write): the password stays as it was.
    await adapter.createSession({ sessionToken: "ada-session", userId: "ada", expires: new Date("2031-05-06T07:08:09.123Z") });
    await expect(adapter.setUserPassword("ada", "h5", { previous: "h3", revokeSessions: true })).rejects.toThrow(/refused/);
    expect(await adapter.getUserPassword("ada")).toBe("h3");
    expect(await adapter.getSessionAndUser("ada-session")).not.toBeNull();
  } finally {
    await db.query("DROP TRIGGER refuse_insert ON user_passwords; DROP TRIGGER refuse_delete ON sessions; DROP FUNCTION refuse();");
  }
}
