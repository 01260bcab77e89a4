/**
 * Hundreds of first OpenID Connect sign-ins at once on a PostgreSQL server, through
 * a pool of five connections, against a real oidc-provider: 200 browsers of the
 * same new person, then 80 new people with three browsers each, interleaved.
 * Proves: exactly one user and one account per person (the `createUser` event
 * once per person), every browser signed in to its own session row, no error
 * logged, and the load never held more connections than the pool allows, leaving
 * the pool idle with no transaction open.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig, User } from "@gatehouse/runtime";
import { OIDC } from "@gatehouse/runtime/providers";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, storesSession } from "../helpers.js";
import { returnToCallback, startSignIn } from "../oauth/support/handler-flow.js";
import { startOidcServer, type OidcServer } from "../oauth/support/oidc-server.js";
import { expectBoundedAndSettled, NEEDS_POSTGRES, openLoadDatabase, SERVER_URL, underWatch, type LoadDatabase } from "./support/database.js";
import { mintAuthorization } from "./support/oidc-codes.js";
import { interleave, sessionTokenOf } from "./support/browsers.js";

describe.skipIf(!SERVER_URL)(`concurrent first OIDC sign-ins on PostgreSQL (${NEEDS_POSTGRES})`, () => {
  let server: OidcServer;
  let db: LoadDatabase;
  let config: AuthConfig;
  const log = captureLogger();
  const createdUsers: User[] = [];

  beforeAll(async () => {
    [server, db] = await Promise.all([
      startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`] }),
      openLoadDatabase("oidc"),
    ]);
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: db.adapter(),
      session: { strategy: "database" },
      events: { createUser: ({ user }) => void createdUsers.push(user) },
      providers: [
        OIDC({
          id: "oidc",
          name: "IdP",
          issuer: server.issuer,
          clientId: server.clients.basic.client_id,
          clientSecret: server.clients.basic.client_secret,
          checks: ["pkce", "state", "nonce"],
        }),
      ],
    };
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    await server?.close();
  });

  /**
   * Each browser starts its sign-in and gets its code first (the provider's part);
   * then every callback reaches the handler at once, while the connections are watched.
   */
  async function signInAtOnce(logins: string[]) {
    const browsers = await Promise.all(
      logins.map(async (login) => {
        const jar = new CookieJar();
        const { authorizationUrl } = await startSignIn(config, jar, "oidc");
        return { login, jar, answer: await mintAuthorization(server, authorizationUrl, login) };
      }),
    );
    const { result: callbacks, peaks } = await underWatch(db, () => Promise.all(browsers.map(({ jar, answer }) => returnToCallback(config, jar, answer))));
    return { browsers, callbacks, peaks };
  }

  /** Every browser landed on the app with a session cookie, and that cookie's row belongs to its person. */
  async function expectEachBrowserSignedIn(browsers: { login: string; jar: CookieJar }[], callbacks: Response[]) {
    for (const callback of callbacks) {
      expect(callback.status).toBe(302);
      expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
      expect(storesSession(callback)).toBe(true);
    }
    const owners = new Map(
      (await db.rows<{ sessionToken: string; email: string }>(`SELECT s."sessionToken", u.email FROM sessions s JOIN users u ON u.id = s."userId"`)).map(
        (row) => [row.sessionToken, row.email],
      ),
    );
    for (const { login, jar } of browsers) expect(owners.get(sessionTokenOf(jar))).toBe(`${login}@example.test`);
    const sessions = await Promise.all(browsers.map(({ jar }) => fetchSession(config, jar)));
    sessions.forEach(({ body }, i) => expect(body?.user?.email).toBe(`${browsers[i]!.login}@example.test`));
  }

  it("200 first sign-ins of the same new person at once: one user, one account, 200 signed-in browsers", async () => {
    const { browsers, callbacks, peaks } = await signInAtOnce(Array.from({ length: 200 }, () => "rosalind"));

    const users = await db.rows<{ id: string }>(`SELECT id FROM users WHERE email = 'rosalind@example.test'`);
    expect(users).toHaveLength(1);
    const accounts = await db.rows(`SELECT "userId", type FROM accounts WHERE provider = 'oidc' AND "providerAccountId" = 'rosalind'`);
    expect(accounts).toEqual([{ userId: users[0]!.id, type: "oidc" }]);
    expect(createdUsers.filter((user) => user.email === "rosalind@example.test")).toHaveLength(1);
    const sessions = await db.rows(`SELECT DISTINCT "sessionToken" FROM sessions WHERE "userId" = $1`, [users[0]!.id]);
    expect(sessions).toHaveLength(200);
    await expectEachBrowserSignedIn(browsers, callbacks);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
    expect(server.serverErrors).toEqual([]);
  }, 60_000);

  it("240 first sign-ins of 80 new people (three browsers each, interleaved) at once: one user and one account per person", async () => {
    const people = Array.from({ length: 80 }, (_, i) => `person${i}`);
    const { browsers, callbacks, peaks } = await signInAtOnce(interleave(people, 3));

    const perPerson = await db.rows<{ email: string; users: number; accounts: number; sessions: number }>(
      `SELECT u.email, count(DISTINCT u.id)::int AS users, count(DISTINCT a.id)::int AS accounts, count(DISTINCT s."sessionToken")::int AS sessions
         FROM users u JOIN accounts a ON a."userId" = u.id JOIN sessions s ON s."userId" = u.id
        WHERE u.email LIKE 'person%' GROUP BY u.email`,
    );
    const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
    expect(perPerson.sort(byEmail)).toEqual(
      people.map((login) => ({ email: `${login}@example.test`, users: 1, accounts: 1, sessions: 3 })).sort(byEmail),
    );
    // Every account row is its person's: the provider account id is the login of the user's email.
    const mismatched = await db.rows(
      `SELECT a."providerAccountId" FROM accounts a JOIN users u ON u.id = a."userId" WHERE u.email LIKE 'person%' AND u.email <> a."providerAccountId" || '@example.test'`,
    );
    expect(mismatched).toEqual([]);
    expect(createdUsers.filter((user) => user.email?.startsWith("person"))).toHaveLength(80);
    await expectEachBrowserSignedIn(browsers, callbacks);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
    expect(server.serverErrors).toEqual([]);
  }, 60_000);
});
