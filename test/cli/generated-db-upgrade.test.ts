/**
 * Apps made by auth-init before the runtime created the password table: their
 * schema.ts (theirs, never rewritten) lists their own `app_0001_user_passwords`
 * after the runtime's migrations, and their database has it applied. With this
 * runtime the runtime's password migration is pending there: it applies, changes
 * nothing (CREATE TABLE IF NOT EXISTS of the very same table), and the stored
 * hashes stay — and keep working: the runtime adapter's password methods (what
 * the Password provider signs in, re-hashes and resets with) read the hash the
 * app stored and replace it compare-and-set. New apps list only the runtime's
 * migrations, and such an app's own modules run in generated-db.test.ts.
 */
import type { PGlite } from "@electric-sql/pglite";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Adapter } from "@gatehouse/runtime";
import { HostedStoreAdapter, HostedStoreClient, migrate as migrateHostedStore, migrations as hostedStoreMigrations } from "@gatehouse/runtime/adapters/hosted-store";
import { migrate as migratePostgres, migrations as postgresMigrations, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { migrate as migrateSqlite, migrations as sqliteMigrations, SqliteAdapter } from "@gatehouse/runtime/adapters/sqlite";
import { hashPassword, passwordMatches, passwordNeedsRehash } from "@gatehouse/runtime/password";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import { fromPGlite } from "../../runtime/src/adapters/postgres/pglite.js";
import { openPGlite } from "../adapters/support/pglite.js";

/** The entry schema.ts.hbs gave apps until now, per dialect, as they have it. */
const APP_0001 = {
  sqlite: {
    name: "app_0001_user_passwords",
    sql: `CREATE TABLE IF NOT EXISTS user_passwords (
			"userId" TEXT NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
			hash TEXT NOT NULL,
			"updatedAt" INTEGER NOT NULL DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER))
		) STRICT`,
  },
  postgres: {
    name: "app_0001_user_passwords",
    sql: `CREATE TABLE IF NOT EXISTS user_passwords (
			"userId" text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
			hash text NOT NULL,
			"updatedAt" timestamptz NOT NULL DEFAULT now()
		)`,
  },
  hostedStore: {
    name: "app_0001_user_passwords",
    sql: `CREATE TABLE IF NOT EXISTS svc_user_passwords (
			id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
			created_at timestamptz NOT NULL DEFAULT now(),
			updated_at timestamptz NOT NULL DEFAULT now(),
			version integer NOT NULL DEFAULT 0,
			"user" text NOT NULL UNIQUE REFERENCES svc_users (id) ON DELETE CASCADE,
			hash text NOT NULL
		);
		CREATE OR REPLACE TRIGGER svc_user_passwords_touch BEFORE UPDATE ON svc_user_passwords
			FOR EACH ROW EXECUTE FUNCTION svc_touch();`,
  },
};
/** A hash in the form those apps' passwords.ts stored (its own scrypt, N written out): of PASSWORD with a fixed salt. */
const LEGACY_HASH = "$scrypt$N=32768,r=8,p=3$c2FsdHNhbHRzYWx0c2FsdA==$G+Dg6c18pA59MH3YHrSexO3KB6+HvwMT70lvKtMDk0Y=";
const PASSWORD = "correct horse battery staple";
const withoutPasswords = <M extends { name: string }>(list: readonly M[], name: string) => {
  expect(list.map((m) => m.name)).toContain(name);
  return list.filter((m) => m.name !== name);
};

/**
 * The row the app stored before, as the runtime's adapter sees it: getUserPassword returns that very hash,
 * the runtime's check accepts it (and flags it for a re-hash), and a re-hash replaces it only while it is
 * still the stored one; the user is the one the app created.
 */
async function storedRowKeepsWorking(adapter: Required<Adapter>, userId: string): Promise<void> {
  expect(await adapter.getUserByEmail("ada@example.com")).toMatchObject({ id: userId, name: "Ada" });
  expect(await adapter.getUserPassword(userId)).toBe(LEGACY_HASH);
  expect(await passwordMatches(PASSWORD, LEGACY_HASH)).toBe(true);
  expect(passwordNeedsRehash(LEGACY_HASH)).toBe(true);
  const current = await hashPassword(PASSWORD);
  expect(await adapter.setUserPassword(userId, current, { previous: LEGACY_HASH })).toBe(true);
  expect(await adapter.setUserPassword(userId, await hashPassword(PASSWORD), { previous: LEGACY_HASH })).toBe(false);
  expect(await adapter.getUserPassword(userId)).toBe(current);
}

const dirs: string[] = [];
let pglites: PGlite[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await Promise.all(pglites.map((db) => db.close()));
  pglites = [];
});

describe("an app made before the runtime had the password table: its schema.ts still lists app_0001_user_passwords", () => {
  it("SQLite: the runtime's 0003_user_passwords applies and changes nothing; the app's rows and its own migration stay, and the adapter reads its hash", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-upgrade-sqlite-"));
    dirs.push(dir);
    const connection = new Database(join(dir, "auth.sqlite"));
    const db = fromBetterSqlite3(connection);
    try {
      const before = [...withoutPasswords(sqliteMigrations, "0003_user_passwords"), APP_0001.sqlite];
      expect((await migrateSqlite(db, { migrations: before })).applied).toContain("app_0001_user_passwords");
      const [user] = (await db.query<{ id: string }>("INSERT INTO users (name, email) VALUES (?, ?) RETURNING id", ["Ada", "ada@example.com"])).rows;
      await db.query(`INSERT INTO user_passwords ("userId", hash) VALUES (?, ?)`, [user!.id, LEGACY_HASH]);

      expect(await migrateSqlite(db, { migrations: [...sqliteMigrations, APP_0001.sqlite] })).toEqual({ applied: ["0003_user_passwords"] });
      expect((await db.query(`SELECT "userId", hash FROM user_passwords`)).rows).toEqual([{ userId: user!.id, hash: LEGACY_HASH }]);
      expect(await migrateSqlite(db, { migrations: [...sqliteMigrations, APP_0001.sqlite] })).toEqual({ applied: [] });
      await storedRowKeepsWorking(SqliteAdapter(db), user!.id);
    } finally {
      connection.close();
    }
  });

  it("PostgreSQL (PGlite): the runtime's 0003_user_passwords applies and changes nothing; the app's rows and its own migration stay, and the adapter reads its hash", async () => {
    const db = await openPGlite();
    pglites.push(db);
    const before = [...withoutPasswords(postgresMigrations, "0003_user_passwords"), APP_0001.postgres];
    expect((await migratePostgres(db, { migrations: before })).applied).toContain("app_0001_user_passwords");
    const [user] = (await db.query<{ id: string }>("INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id", ["Ada", "ada@example.com"])).rows;
    await db.query(`INSERT INTO user_passwords ("userId", hash) VALUES ($1, $2)`, [user!.id, LEGACY_HASH]);

    expect(await migratePostgres(db, { migrations: [...postgresMigrations, APP_0001.postgres] })).toEqual({ applied: ["0003_user_passwords"] });
    expect((await db.query(`SELECT "userId", hash FROM user_passwords`)).rows).toEqual([{ userId: user!.id, hash: LEGACY_HASH }]);
    expect(await migratePostgres(db, { migrations: [...postgresMigrations, APP_0001.postgres] })).toEqual({ applied: [] });
    await storedRowKeepsWorking(PostgresAdapter(db), user!.id);
  });

  it("hosted store (PGlite): the runtime's 0002_user_passwords applies in the branch and changes nothing; rows stay, the adapter reads and re-hashes them, touched like svc_ records", async () => {
    const db = await openPGlite();
    pglites.push(db);
    const store = () => new HostedStoreClient({ branch: "main", client: fromPGlite(db) });
    const before = [...withoutPasswords(hostedStoreMigrations, "0002_user_passwords"), APP_0001.hostedStore];
    expect((await migrateHostedStore(store(), { migrations: before })).applied).toContain("app_0001_user_passwords");
    const [user] = (await db.query<{ id: string }>(`INSERT INTO "main".svc_users (name, email) VALUES ($1, $2) RETURNING id`, ["Ada", "ada@example.com"])).rows;
    await db.query(`INSERT INTO "main".svc_user_passwords ("user", hash) VALUES ($1, $2)`, [user!.id, LEGACY_HASH]);

    expect(await migrateHostedStore(store(), { migrations: [...hostedStoreMigrations, APP_0001.hostedStore] })).toEqual({ applied: ["0002_user_passwords"] });
    expect((await db.query(`SELECT "user", hash FROM "main".svc_user_passwords`)).rows).toEqual([{ user: user!.id, hash: LEGACY_HASH }]);
    expect(await migrateHostedStore(store(), { migrations: [...hostedStoreMigrations, APP_0001.hostedStore] })).toEqual({ applied: [] });
    // The adapter's re-hash is an update of that row: touched like every svc_ record.
    await storedRowKeepsWorking(HostedStoreAdapter(store()), user!.id);
    const [touched] = (await db.query<{ version: number }>(`SELECT version FROM "main".svc_user_passwords`)).rows;
    expect(touched?.version).toBe(1);
  });
});
