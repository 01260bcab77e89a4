/**
 * Checks of the hosted-store adapter that look at the svc_ tables themselves
 * and run the same on PGlite and on a PostgreSQL server. Each takes a client
 * and a branch migrated with `migrate()`.
 */
import { expect } from "vitest";
import { HostedStoreAdapter, HostedStoreClient, type SqlClient } from "../../../runtime/src/adapters/hosted-store/index.js";

/**
 * `adoptUnprovenUser` and `svc_user_passwords`, on records written by SQL (the
 * conformance suite sees the password only through the adapter): the adopted
 * user's password record is deleted, and the join rows of its accounts and sessions go with them; a
 * proven user's and another user's stay. A failing delete rolls back the whole
 * adoption. Empties the branch's tables first.
 */
export async function checkAdoptionDeletesPassword(db: SqlClient, branch: string): Promise<void> {
  const s = `"${branch}"`;
  await db.query(`TRUNCATE ${s}.svc_users CASCADE`);
  const adapter = HostedStoreAdapter(new HostedStoreClient({ client: db, branch }));
  const provenAt = new Date("2024-02-03T04:05:06.789Z");
  await adapter.createUser({ id: "claimed", email: "claimed@example.com", emailVerified: null });
  await adapter.createUser({ id: "proven", email: "proven@example.com", emailVerified: provenAt });
  await adapter.createUser({ id: "bystander", email: "bystander@example.com", emailVerified: null });
  for (const userId of ["claimed", "bystander"]) {
    await adapter.linkAccount({ userId, type: "oauth", provider: "github", providerAccountId: userId });
    await adapter.createSession({ sessionToken: userId, userId, expires: new Date("2031-05-06T07:08:09.123Z") });
  }
  await db.query(`INSERT INTO ${s}.svc_user_passwords ("user", hash) VALUES ('claimed', 'h1'), ('proven', 'h2'), ('bystander', 'h3')`);
  const usersOf = async (table: string) =>
    (await db.query<{ user: string }>(`SELECT "user" FROM ${s}.${table} ORDER BY "user"`, [])).rows.map((row) => row.user);

  const now = new Date("2025-06-07T08:09:10.123Z");
  expect(await adapter.adoptUnprovenUser("claimed", { email: "claimed@example.com", emailVerified: now })).toMatchObject({ revoked: true });
  expect(await adapter.adoptUnprovenUser("proven", { email: "proven@example.com", emailVerified: now })).toMatchObject({ revoked: false });
  expect(await adapter.adoptUnprovenUser("bystander", { email: "someone@example.com", emailVerified: now })).toBeNull();
  expect(await usersOf("svc_user_passwords")).toEqual(["bystander", "proven"]);
  expect(await usersOf("svc_users_accounts")).toEqual(["bystander"]);
  expect(await usersOf("svc_users_sessions")).toEqual(["bystander"]);

  // The password's delete fails (it comes last): the user stays unproven with its account, session and password.
  await db.query(`CREATE FUNCTION ${s}.refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
    CREATE TRIGGER refuse_delete BEFORE DELETE ON ${s}.svc_user_passwords FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_delete();`);
  try {
    await expect(adapter.adoptUnprovenUser("bystander", { email: "bystander@example.com", emailVerified: now })).rejects.toThrow(/refused/);
  } finally {
    await db.query(`DROP TRIGGER refuse_delete ON ${s}.svc_user_passwords; DROP FUNCTION ${s}.refuse_delete();`);
  }
  expect((await adapter.getUser("bystander"))?.emailVerified).toBeNull();
  expect((await adapter.getUserByAccount({ provider: "github", providerAccountId: "bystander" }))?.id).toBe("bystander");
  expect((await adapter.getSessionAndUser("bystander"))?.user.id).toBe("bystander");
  expect(await usersOf("svc_user_passwords")).toEqual(["bystander", "proven"]);
  expect(await usersOf("svc_users_accounts")).toEqual(["bystander"]);
}

/**
 * The password methods on `svc_user_passwords`, beyond what the conformance
 * suite sees through the adapter: `updated_at` and `version` move on every
 * write and only then; `revokeSessions` takes the sessions' join rows along; a
 * user whose password insert fails is not created either; sessions whose
 * delete fails leave the password unchanged (one transaction). Empties the
 * branch's tables first.
 */
export async function checkPasswordRecords(db: SqlClient, branch: string): Promise<void> {
  const s = `"${branch}"`;
  await db.query(`TRUNCATE ${s}.svc_users CASCADE`);
  const adapter = HostedStoreAdapter(new HostedStoreClient({ client: db, branch }));
  const longAgo = new Date("2000-01-01T00:00:00.000Z");
  // svc_touch() would set updated_at on this update too: it is disabled for it.
  const age = () =>
    db.query(`ALTER TABLE ${s}.svc_user_passwords DISABLE TRIGGER svc_user_passwords_touch;
      UPDATE ${s}.svc_user_passwords SET updated_at = '${longAgo.toISOString()}';
      ALTER TABLE ${s}.svc_user_passwords ENABLE TRIGGER svc_user_passwords_touch;`);
  const record = async () =>
    (await db.query<{ updated_at: Date; version: number }>(`SELECT updated_at, version FROM ${s}.svc_user_passwords WHERE "user" = 'ada'`, [])).rows[0];
  const expectNow = async () => expect(Math.abs((await record())!.updated_at.getTime() - Date.now())).toBeLessThan(60_000);

  await adapter.createUserWithPassword({ id: "ada", email: "ada@example.com", emailVerified: null }, "h1");
  await expectNow();
  await age();
  expect(await adapter.setUserPassword("ada", "h2")).toBe(true);
  await expectNow();
  await age();
  expect(await adapter.setUserPassword("ada", "h3", { previous: "h2" })).toBe(true);
  await expectNow();
  expect((await record())?.version).toBe(2);
  await age();
  expect(await adapter.setUserPassword("ada", "h4", { previous: "stale" })).toBe(false);
  expect(await adapter.setUserPassword("ada", "h4", { previous: null })).toBe(false);
  expect(await record()).toEqual({ updated_at: longAgo, version: 2 });

  const expires = new Date("2031-05-06T07:08:09.123Z");
  await adapter.createUser({ id: "bystander", email: "bystander@example.com", emailVerified: null });
  for (const [sessionToken, userId] of [["ada-1", "ada"], ["ada-2", "ada"], ["bystander-1", "bystander"]] as const) {
    await adapter.createSession({ sessionToken, userId, expires });
  }
  expect(await adapter.setUserPassword("ada", "h5", { revokeSessions: true })).toBe(true);
  const joined = await db.query<{ user: string }>(`SELECT "user" FROM ${s}.svc_users_sessions ORDER BY "user"`, []);
  expect(joined.rows.map((row) => row.user)).toEqual(["bystander"]);

  // The password insert fails (it comes second): the user is not created either.
  await db.query(`CREATE FUNCTION ${s}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
    CREATE TRIGGER refuse_insert BEFORE INSERT ON ${s}.svc_user_passwords FOR EACH ROW EXECUTE FUNCTION ${s}.refuse();
    CREATE TRIGGER refuse_delete BEFORE DELETE ON ${s}.svc_sessions FOR EACH ROW EXECUTE FUNCTION ${s}.refuse();`);
  try {
    await expect(adapter.createUserWithPassword({ email: "grace@example.com", emailVerified: null }, "g1")).rejects.toThrow(/refused/);
    expect(await adapter.getUserByEmail("grace@example.com")).toBeNull();
    // The sessions' delete fails (it comes after the write): the password stays as it was.
    await adapter.createSession({ sessionToken: "ada-3", userId: "ada", expires });
    await expect(adapter.setUserPassword("ada", "h6", { previous: "h5", revokeSessions: true })).rejects.toThrow(/refused/);
    expect(await adapter.getUserPassword("ada")).toBe("h5");
    expect(await adapter.getSessionAndUser("ada-3")).not.toBeNull();
  } finally {
    await db.query(`DROP TRIGGER refuse_insert ON ${s}.svc_user_passwords; DROP TRIGGER refuse_delete ON ${s}.svc_sessions;
      DROP FUNCTION ${s}.refuse();`);
  }
}
