/**
 * Many short-lived handler configs on ONE `pg.Pool` of five: every request builds
 * its own config and adapter (a config made per request, as lazy framework
 * configs and serverless functions do), alternating `PostgresAdapter(pool)` and
 * `PostgresAdapter(fromPg(pool))`. 100 users each sign in, read, update and
 * sign out, while 60 email links for 20 new addresses are asked for and
 * confirmed, all at once. Proves: every flow ends as it should (one user and
 * one email account per address, every signed-out session gone), nothing is
 * logged as an error, the configs never held more connections than the pool's
 * five, and once the pool is ended no connection to the database is left:
 * nothing opened one outside the pool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { Email } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, isCleared, locationOf, ORIGIN, sessionSetCookies, storesSession } from "../helpers.js";
import { requestLink } from "../email/support/flow.js";
import { expectBoundedAndSettled, NEEDS_POSTGRES, connectionsLeft, openLoadDatabase, SERVER_URL, underWatch, type LoadDatabase } from "./support/database.js";
import { confirm, openLink, type MailedLink } from "./support/email-links.js";
import { getSession, sessionConfig, signOut, updateSession } from "./support/sessions.js";
import { SESSION_COOKIE } from "./support/browsers.js";

describe.skipIf(!SERVER_URL)(`many short-lived handler configs sharing one pool on PostgreSQL (${NEEDS_POSTGRES})`, () => {
  let db: LoadDatabase;
  const log = captureLogger();
  /** Links the email provider "sent": a custom sender, so the mail server is not what is measured here. */
  const outbox: MailedLink[] = [];
  let made = 0;

  beforeAll(async () => {
    db = await openLoadDatabase("shared");
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });

  /** A new config and a new adapter on the shared pool, for one request. */
  function freshConfig(): AuthConfig {
    made += 1;
    const adapter = made % 2 === 0 ? PostgresAdapter(db.pool) : PostgresAdapter(fromPg(db.pool));
    const base = sessionConfig(adapter, log, { updateAge: 0 });
    const email = Email({
      sendVerificationRequest: async ({ identifier, url }) => void outbox.push({ address: identifier, link: new URL(url) }),
    });
    return { ...base, providers: [...base.providers, email] };
  }

  /** One user's whole visit, every request on a config of its own. */
  async function visit(email: string) {
    const jar = new CookieJar();
    const csrf = await csrfToken(freshConfig(), jar);
    const signedIn = await call(freshConfig(), "/auth/callback/credentials", { jar, form: { email, csrfToken: csrf } });
    const read = await (await getSession(freshConfig(), jar)).json();
    const updated = await (await updateSession(freshConfig(), jar, csrf, { seen: true })).json();
    const signedOut = await signOut(freshConfig(), jar, csrf);
    const after = await (await getSession(freshConfig(), jar)).json();
    return { signedIn, read, updated, signedOut, after, jar };
  }

  /** Links already taken by an `emailSignIn`: each follows a link of its own. */
  const claimed = new Set<MailedLink>();

  /** Asks for a link and confirms it, each request on a config of its own. */
  async function emailSignIn(address: string) {
    const response = await requestLink(freshConfig(), new CookieJar(), address);
    expect(locationOf(response).pathname).toBe("/auth/verify-request");
    const mailed = outbox.find((entry) => entry.address === address && !claimed.has(entry));
    if (!mailed) throw new Error(`no link was sent to ${address}`);
    claimed.add(mailed);
    const opened = await openLink(freshConfig(), mailed);
    return { opened, result: await confirm(freshConfig(), opened) };
  }

  it("100 visits (sign in, read, update, sign out) and 60 first email sign-ins at once, one config per request", async () => {
    const users = Array.from({ length: 100 }, (_, i) => `visitor${i}@example.com`);
    await Promise.all(users.map((email) => db.adapter().createUser!({ email, emailVerified: null } as never)));
    const addresses = Array.from({ length: 20 }, (_, i) => `newcomer${i}@example.com`);

    const { result, peaks } = await underWatch(db, () =>
      Promise.all([Promise.all(users.map(visit)), Promise.all([...addresses, ...addresses, ...addresses].map(emailSignIn))]),
    );
    const [visits, emailSignIns] = result;

    visits.forEach(({ signedIn, read, updated, signedOut, after, jar }, i) => {
      expect(locationOf(signedIn).href).toBe(`${ORIGIN}/`);
      expect(read?.user?.email).toBe(users[i]);
      expect(updated?.user?.email).toBe(users[i]);
      expect(sessionSetCookies(signedOut).every(isCleared)).toBe(true);
      expect(after).toBeNull();
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    });
    expect(await db.rows(`SELECT 1 FROM sessions s JOIN users u ON u.id = s."userId" WHERE u.email LIKE 'visitor%'`)).toEqual([]);

    for (const { opened, result: confirmed } of emailSignIns) {
      expect(storesSession(confirmed)).toBe(true);
      expect((await (await getSession(freshConfig(), opened.jar)).json())?.user?.email).toBe(opened.address);
    }
    const perAddress = await db.rows<{ email: string; users: number; accounts: number }>(
      `SELECT u.email, count(DISTINCT u.id)::int AS users, count(DISTINCT a.id)::int AS accounts
         FROM users u JOIN accounts a ON a."userId" = u.id AND a.type = 'email' WHERE u.email LIKE 'newcomer%' GROUP BY u.email`,
    );
    expect(perAddress.sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      addresses.map((email) => ({ email, users: 1, accounts: 1 })).sort((a, b) => a.email.localeCompare(b.email)),
    );

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
    // The configs are gone; ending the one pool leaves nothing connected: no adapter opened a connection of its own.
    await db.pool.end();
    expect(await connectionsLeft(db)).toBe(0);
  }, 60_000);
});
