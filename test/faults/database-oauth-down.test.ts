/**
 * OIDC sign-in (real oidc-provider) with database sessions on a PostgreSQL server
 * that goes away mid-flow: cut after the provider answered, before the callback;
 * and cut inside the first sign-in's user + account transaction, while one of its
 * INSERTs is held by a slow trigger. Each ends on the error page with no session,
 * leaves no user without its account (nor an account without its user) and no
 * session row, and the same person signs in on the same pool once the database
 * is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { OIDC } from "@gatehouse/runtime/providers";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, storesSession } from "../helpers.js";
import { returnToCallback, signInThroughProvider, startSignIn } from "../oauth/support/handler-flow.js";
import { startOidcServer, type OidcServer } from "../oauth/support/oidc-server.js";
import { authorize } from "../oauth/support/user-agent.js";
import { NEEDS_POSTGRES, openOutageDatabase, type OutageDatabase } from "./support/outage-database.js";

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)(`OIDC sign-in while the database goes down ${NEEDS_POSTGRES}`, () => {
  let idp: OidcServer;
  let db: OutageDatabase;
  let config: AuthConfig;
  let log: ReturnType<typeof captureLogger>;

  beforeAll(async () => {
    [idp, db] = await Promise.all([
      startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`] }),
      openOutageDatabase(serverUrl!, "faults_oauth"),
    ]);
    log = captureLogger();
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: db.adapter,
      session: { strategy: "database" },
      providers: [OIDC({ id: "oidc", name: "IdP", issuer: idp.issuer, clientId: idp.clients.basic.client_id, clientSecret: idp.clients.basic.client_secret })],
    };
  });
  afterAll(async () => {
    db?.restore();
    await Promise.all([db?.close(), idp?.close()]);
  });

  /** Every row the sign-in of `login` could have written: its user, its account, their sessions. */
  async function rowsOf(login: string) {
    const email = `${login}@example.test`;
    const [users, accounts, sessions] = await Promise.all([
      db.rows(`SELECT id FROM users WHERE email = $1`, [email]),
      db.rows(`SELECT "userId" FROM accounts WHERE provider = 'oidc' AND "providerAccountId" = $1`, [login]),
      db.rows(`SELECT s.id FROM sessions s JOIN users u ON u.id = s."userId" WHERE u.email = $1`, [email]),
    ]);
    return { users: users.length, accounts: accounts.length, sessions: sessions.length };
  }

  function expectFailedSignIn(response: Response): void {
    expect(response.status).toBe(302);
    const target = locationOf(response);
    // Adapter failures are AdapterError, shown to the browser as Configuration (as Auth.js does).
    expect([target.pathname, target.searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
    expect(storesSession(response)).toBe(false);
  }

  /** Signs `login` in from scratch and checks the session and its rows. */
  async function expectSignInWorks(login: string): Promise<void> {
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    expect((await fetchSession(config, jar)).body.user.email).toBe(`${login}@example.test`);
    expect(await rowsOf(login)).toEqual({ users: 1, accounts: 1, sessions: 1 });
  }

  it("cut after the provider answered, before the callback: the error page, nothing stored; once back, the sign-in works", async () => {
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const answer = await authorize(authorizationUrl, { login: "noor" });

    db.cut();
    const callback = await returnToCallback(config, jar, answer);
    expectFailedSignIn(callback);
    // The code exchange worked; the first database call (the account lookup) failed.
    const logged = log.errors.findLast((e) => e.name === "AdapterError")!;
    expect(logged.message).toContain("getUserByAccount");

    db.restore();
    expect(await rowsOf("noor")).toEqual({ users: 0, accounts: 0, sessions: 0 });
    await expectSignInWorks("noor");
  });

  it.each([
    ["the user INSERT", "users" as const],
    ["the account INSERT, after the user's", "accounts" as const],
  ])("cut while %s of the first sign-in waits: no user without its account, no session; once back, the sign-in works", async (_case, table) => {
    const login = `held-${table}`;
    const undo = await db.delayInserts(table, 1);
    try {
      const jar = new CookieJar();
      const { authorizationUrl } = await startSignIn(config, jar, "oidc");
      const answer = await authorize(authorizationUrl, { login });

      const pending = returnToCallback(config, jar, answer);
      const held = new RegExp(`INSERT INTO ${table}`);
      await db.waitForStatement(held);
      db.cut();
      expectFailedSignIn(await pending);
      expect(log.errors.findLast((e) => e.name === "AdapterError")!.message).toContain("createUserWithAccount");

      // The held backend finishes its sleep, finds its client gone and rolls back; only then is "nothing" final.
      await db.waitForStatementToEnd(held);
      expect(await rowsOf(login)).toEqual({ users: 0, accounts: 0, sessions: 0 });
    } finally {
      db.restore();
      await undo();
    }
    await expectSignInWorks(login);
  });
});
