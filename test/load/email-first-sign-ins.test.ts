/**
 * Hundreds of first email-link sign-ins at once on a PostgreSQL server, through a
 * pool of five, with the links really mailed (nodemailer to smtp-server): 200
 * links for the same new address confirmed at once, 200 links for 100 new
 * addresses, and one link confirmed by 30 browsers at once. Proves: one user
 * (address verified) and one `email` account per address, every confirmed
 * link signed in with its own session and its token gone; a link used
 * already is a clear `Verification` error that writes nothing; no other error
 * is logged; connections stay within the pool, which ends idle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig, User } from "@gatehouse/runtime";
import { Nodemailer } from "@gatehouse/runtime/providers";
import { captureLogger, fetchSession, isCleared, locationOf, ORIGIN, SECRET, sessionSetCookies, storesSession } from "../helpers.js";
import { startMailServer, type MailServer } from "../email/support/smtp.js";
import { expectBoundedAndSettled, NEEDS_POSTGRES, openLoadDatabase, SERVER_URL, underWatch, type LoadDatabase } from "./support/database.js";
import { confirm, openLink, requestLinks, type OpenedLink } from "./support/email-links.js";
import { interleave, sessionTokenOf } from "./support/browsers.js";

describe.skipIf(!SERVER_URL)(`concurrent first email sign-ins on PostgreSQL (${NEEDS_POSTGRES})`, () => {
  let mail: MailServer;
  let db: LoadDatabase;
  let config: AuthConfig;
  const log = captureLogger();
  const createdUsers: User[] = [];

  beforeAll(async () => {
    [mail, db] = await Promise.all([startMailServer(), openLoadDatabase("email")]);
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: db.adapter(),
      session: { strategy: "database" },
      events: { createUser: ({ user }) => void createdUsers.push(user) },
      providers: [Nodemailer({ server: mail.url, from: "Sign in <no-reply@example.com>" })],
    };
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    await mail?.close();
  });

  /** Requests the links, opens every confirmation page, then presses every button at once under watch. */
  async function confirmAtOnce(addresses: string[]) {
    const opened = await Promise.all((await requestLinks(config, mail, addresses)).map((mailed) => openLink(config, mailed)));
    const { result: responses, peaks } = await underWatch(db, () => Promise.all(opened.map((link) => confirm(config, link))));
    return { opened, responses, peaks };
  }

  /** Each browser was sent to the app signed in, to a session row of its address's user. */
  async function expectEachSignedIn(opened: OpenedLink[], responses: Response[]) {
    for (const response of responses) {
      expect(response.status).toBe(302);
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(storesSession(response)).toBe(true);
    }
    const owners = new Map(
      (await db.rows<{ sessionToken: string; email: string }>(`SELECT s."sessionToken", u.email FROM sessions s JOIN users u ON u.id = s."userId"`)).map(
        (row) => [row.sessionToken, row.email],
      ),
    );
    for (const { address, jar } of opened) expect(owners.get(sessionTokenOf(jar))).toBe(address);
    const sessions = await Promise.all(opened.map(({ jar }) => fetchSession(config, jar)));
    sessions.forEach(({ body }, i) => expect(body?.user?.email).toBe(opened[i]!.address));
  }

  it("200 links for the same new address confirmed at once: one verified user, one email account, 200 sessions", async () => {
    const address = "hedy@example.com";
    const { opened, responses, peaks } = await confirmAtOnce(Array.from({ length: 200 }, () => address));

    const users = await db.rows<{ id: string; emailVerified: Date | null }>(`SELECT id, "emailVerified" FROM users WHERE email = $1`, [address]);
    expect(users).toHaveLength(1);
    expect(users[0]!.emailVerified).toBeInstanceOf(Date);
    const accounts = await db.rows(`SELECT "userId", type, provider FROM accounts WHERE "providerAccountId" = $1`, [address]);
    expect(accounts).toEqual([{ userId: users[0]!.id, type: "email", provider: "email" }]);
    expect(createdUsers.filter((user) => user.email === address)).toHaveLength(1);
    expect(await db.rows(`SELECT 1 FROM verification_token WHERE identifier = $1`, [address])).toEqual([]);
    expect(await db.rows(`SELECT 1 FROM sessions WHERE "userId" = $1`, [users[0]!.id])).toHaveLength(200);
    await expectEachSignedIn(opened, responses);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 60_000);

  it("200 links for 100 new addresses (two each, interleaved) confirmed at once: one user and one email account per address", async () => {
    const addresses = Array.from({ length: 100 }, (_, i) => `reader${i}@example.com`);
    const { opened, responses, peaks } = await confirmAtOnce(interleave(addresses, 2));

    const perAddress = await db.rows<{ email: string; users: number; accounts: number; sessions: number; verified: boolean }>(
      `SELECT u.email, count(DISTINCT u.id)::int AS users, count(DISTINCT a.id)::int AS accounts,
              count(DISTINCT s."sessionToken")::int AS sessions, bool_and(u."emailVerified" IS NOT NULL) AS verified
         FROM users u JOIN accounts a ON a."userId" = u.id AND a.type = 'email' AND a."providerAccountId" = u.email
         JOIN sessions s ON s."userId" = u.id
        WHERE u.email LIKE 'reader%' GROUP BY u.email`,
    );
    const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
    expect(perAddress.sort(byEmail)).toEqual(
      addresses.map((email) => ({ email, users: 1, accounts: 1, sessions: 2, verified: true })).sort(byEmail),
    );
    expect(await db.rows(`SELECT 1 FROM accounts a JOIN users u ON u.id = a."userId" WHERE u.email LIKE 'reader%'`)).toHaveLength(100);
    expect(createdUsers.filter((user) => user.email?.startsWith("reader"))).toHaveLength(100);
    expect(await db.rows(`SELECT 1 FROM verification_token WHERE identifier LIKE 'reader%'`)).toEqual([]);
    await expectEachSignedIn(opened, responses);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 60_000);

  it("one link confirmed by 30 browsers at once: one signs in; 29 get Verification, no cookie, nothing written", async () => {
    const address = "forwarded@example.com";
    const [mailed] = await requestLinks(config, mail, [address]);
    const opened = await Promise.all(Array.from({ length: 30 }, () => openLink(config, mailed!)));
    const responses = await Promise.all(opened.map((link) => confirm(config, link)));

    const signedIn = responses.filter((response) => storesSession(response));
    expect(signedIn).toHaveLength(1);
    expect(locationOf(signedIn[0]!).href).toBe(`${ORIGIN}/`);
    const refused = responses.filter((response) => !storesSession(response));
    for (const response of refused) {
      expect(response.status).toBe(302);
      const location = locationOf(response);
      expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth/error`);
      expect(location.searchParams.get("error")).toBe("Verification");
      // No session cookie at all: not set, and not cleared either (the browser had none).
      expect(sessionSetCookies(response).filter((cookie) => !isCleared(cookie))).toEqual([]);
    }
    const users = await db.rows<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [address]);
    expect(users).toHaveLength(1);
    expect(await db.rows(`SELECT 1 FROM accounts WHERE "providerAccountId" = $1`, [address])).toHaveLength(1);
    expect(await db.rows(`SELECT 1 FROM sessions WHERE "userId" = $1`, [users[0]!.id])).toHaveLength(1);
    const sessions = await Promise.all(opened.map(({ jar }) => fetchSession(config, jar)));
    expect(sessions.filter(({ body }) => body?.user?.email === address)).toHaveLength(1);
    expect(sessions.filter(({ body }) => body === null)).toHaveLength(29);

    // The refusals are logged as what they are (a used link: the visitor's, a warning), and nothing else is.
    expect(log.warnings).toEqual(Array.from({ length: 29 }, () => "email-link-refused"));
    expect(log.errors).toEqual([]);
    log.warnings.length = 0;
  }, 20_000);
});
