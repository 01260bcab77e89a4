/**
 * Checks of the hosted-store adapter that look at the svc_ tables themselves
 * and run the same on PGlite and on a PostgreSQL server. Each takes a client
 * and a branch migrated with `migrate()`.
 */
import { expect } from "vitest";
import { HostedStoreAdapter, HostedStoreClient, type SqlClient } from "../../../runtime/src/adapters/hosted-store/index.js";

/**
 * `adoptUnprovenUser` and `svc_user_passwords`, which no adapter method reads
 * (so the conformance suite cannot see it): the adopted user's password record
 * is deleted, and the join rows of its accounts and sessions go with them; a
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
