/**
 * The passkey flow on a real database: the PostgreSQL adapter on PGlite, with
 * database sessions. Sign up, sign out, sign in again, add a second passkey; a
 * sign-up whose authenticator the database refuses leaves no user and no
 * account behind. One PGlite for the file: opening one takes seconds.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import type { Adapter } from "@gatehouse/runtime";
import { openPGlite } from "../adapters/support/pglite.js";
import { call, csrfToken, fetchSession, locationOf, storesSession } from "../helpers.js";
import { CookieJar, ORIGIN, fetchOptions, newAuthenticator, passkeySetup, postCallback, signIn, signUp } from "./support/flow.js";

let db: PGlite;
let adapter: Adapter;

beforeAll(async () => {
  db = await openPGlite();
  const client = fromPGlite(db);
  await migrate(client);
  adapter = PostgresAdapter(client);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe("passkeys on PostgreSQL (PGlite)", () => {
  it("sign up, sign out, sign in again (counter stored), add a second passkey", async () => {
    const { config, writes } = passkeySetup({ session: { strategy: "database" } }, adapter);
    const jar = new CookieJar();
    const phone = newAuthenticator();

    const signedUp = await signUp(config, jar, phone, "ada@example.com", "/welcome");
    expect(signedUp.response.status).toBe(302);
    expect(signedUp.response.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect(storesSession(signedUp.response)).toBe(true);
    expect(writes).toEqual(["createUserWithAccount", "createSession"]);
    const user = (await adapter.getUserByEmail!("ada@example.com"))!;
    expect(await adapter.getUserByAccount!({ provider: "passkey", providerAccountId: signedUp.credential.id })).toMatchObject({ id: user.id });
    expect(await adapter.getAuthenticator!(signedUp.credential.id)).toEqual({
      credentialID: signedUp.credential.id,
      credentialPublicKey: Buffer.from(signedUp.credential.cosePublicKey).toString("base64"),
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "hybrid,internal",
      providerAccountId: signedUp.credential.id,
      userId: user.id,
    });
    const sessions = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM sessions");
    expect(sessions.rows[0]!.count).toBe(1);

    await call(config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(config, jar) } });
    expect((await fetchSession(config, jar)).body).toBeNull();

    const back = await signIn(config, jar, phone, "ada@example.com", "/home");
    expect(back.response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(storesSession(back.response)).toBe(true);
    expect(await adapter.getAuthenticator!(signedUp.credential.id)).toMatchObject({ counter: 1 });
    expect((await fetchSession(config, jar)).body.user).toMatchObject({ email: "ada@example.com" });

    const { body } = await fetchOptions(config, jar);
    expect(body.action).toBe("register");
    const laptop = newAuthenticator();
    const { credential, response: data } = laptop.register(body.options);
    const added = await postCallback(config, jar, "register", data);
    expect(added.status).toBe(302);
    expect((await adapter.listAuthenticatorsByUserId!(user.id)).map((a) => a.credentialID).sort()).toEqual(
      [signedUp.credential.id, credential.id].sort(),
    );

    // Discoverable sign-in with the second passkey, in a fresh browser.
    const fresh = new CookieJar();
    const discoverable = await signIn(config, fresh, laptop);
    expect(storesSession(discoverable.response)).toBe(true);
    expect((await fetchSession(config, fresh)).body.user.email).toBe("ada@example.com");
  });

  it("a sign-up whose authenticator insert fails stores neither the user nor the account (one transaction)", async () => {
    // The database refuses the authenticator of one address's sign-up, after the user and the account
    // were inserted in the same transaction: what a full disk or a lost connection does at that moment.
    await db.exec(`
      CREATE FUNCTION refuse_authenticator() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT email FROM users WHERE id = NEW."userId") = 'refused@example.com' THEN
          RAISE EXCEPTION 'authenticator refused by the test';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_authenticator BEFORE INSERT ON authenticators FOR EACH ROW EXECUTE FUNCTION refuse_authenticator();
    `);
    try {
      const { config, logs, events } = passkeySetup({ session: { strategy: "database" } }, adapter);
      const { response, credential } = await signUp(config, new CookieJar(), newAuthenticator(), "refused@example.com");
      expect(locationOf(response).searchParams.get("error")).toBe("Configuration");
      expect(storesSession(response)).toBe(false);
      expect((await db.query("SELECT 1 FROM users WHERE email = 'refused@example.com'")).rows).toEqual([]);
      expect((await db.query(`SELECT 1 FROM accounts WHERE "providerAccountId" = $1`, [credential.id])).rows).toEqual([]);
      expect(events).toEqual([]);
      expect(logs.errors.some((e) => e.name === "AdapterError" && e.message.includes("createUserWithAccount"))).toBe(true);
    } finally {
      await db.exec("DROP TRIGGER refuse_authenticator ON authenticators; DROP FUNCTION refuse_authenticator();");
    }
    // Nothing holds the address: the same person signs up fine.
    const { config } = passkeySetup({ session: { strategy: "database" } }, adapter);
    const again = await signUp(config, new CookieJar(), newAuthenticator(), "refused@example.com");
    expect(storesSession(again.response)).toBe(true);
  });
});
