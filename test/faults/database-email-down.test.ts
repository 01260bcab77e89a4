/**
 * Email sign-in on a PostgreSQL server that goes away: asking for a link while
 * it is down sends no mail and stores no token; following a link while it is
 * down leaves the link usable once it is back; a connection dropped after the
 * link was used (inside the first sign-in's user + account transaction) puts
 * the link back when the database answers again, and burns it, with a logged
 * reason, when the database stays down. Never a user without its account.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Nodemailer } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, fetchSession, locationOf, SECRET, storesSession } from "../helpers.js";
import { parseForms } from "../oauth/support/html-forms.js";
import { followLink, mailedLink, requestLink } from "../email/support/flow.js";
import { startMailServer, type MailServer } from "../email/support/smtp.js";
import { NEEDS_POSTGRES, openOutageDatabase, type OutageDatabase } from "./support/outage-database.js";

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)(`email sign-in while the database is down ${NEEDS_POSTGRES}`, () => {
  let mail: MailServer;
  let db: OutageDatabase;
  let config: AuthConfig;
  let log: ReturnType<typeof captureLogger>;

  beforeAll(async () => {
    [mail, db] = await Promise.all([startMailServer(), openOutageDatabase(serverUrl!, "faults_email")]);
    log = captureLogger();
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: db.adapter,
      session: { strategy: "database" },
      providers: [Nodemailer({ server: mail.url, from: "no-reply@example.com" })],
    };
  });
  afterAll(async () => {
    db?.restore();
    await Promise.all([db?.close(), mail?.close()]);
  });
  beforeEach(() => {
    mail.messages.length = 0;
  });

  const tokensOf = (email: string) => db.rows(`SELECT token FROM verification_token WHERE identifier = $1`, [email]);
  const usersAndAccounts = async (email: string) => ({
    users: (await db.rows(`SELECT id FROM users WHERE email = $1`, [email])).length,
    accounts: (await db.rows(`SELECT id FROM accounts WHERE provider = 'email' AND "providerAccountId" = $1`, [email])).length,
  });

  function expectErrorPage(response: Response): void {
    expect(response.status).toBe(302);
    // Adapter failures are AdapterError, shown as Configuration: the address was fine, the server was not.
    expect([locationOf(response).pathname, locationOf(response).searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
    expect(storesSession(response)).toBe(false);
  }

  /** Opens the link's confirmation page (no database needed) and posts its form, as the button does. */
  async function pressConfirm(jar: CookieJar, link: URL): Promise<Response> {
    const page = await call(config, `${link.pathname}${link.search}`, { jar });
    expect(page.status).toBe(200);
    const form = parseForms(await page.text(), link).find((f) => f.method === "post")!;
    return call(config, new URL(form.action).pathname, { jar, form: form.fields });
  }

  it("asking for a link while down: the error page, no mail, no token; once back, the link comes and works", async () => {
    db.cut();
    expectErrorPage(await requestLink(config, new CookieJar(), "ines@example.com"));
    expect(log.errors.findLast((e) => e.name === "AdapterError")!.message).toContain("getUserByEmail");
    db.restore();

    // Mail is sent only after the token is stored, and nothing was stored: no mail can be on its way.
    expect(mail.messages).toEqual([]);
    expect(await tokensOf("ines@example.com")).toEqual([]);
    const jar = new CookieJar();
    const { result } = await followLink(config, jar, await mailedLink(config, mail, jar, "ines@example.com"));
    expect(storesSession(result)).toBe(true);
  });

  it("following a link while down: the error page, the link not used up; once back, the same link signs in", async () => {
    const jar = new CookieJar();
    const link = await mailedLink(config, mail, jar, "jonas@example.com");

    db.cut();
    expectErrorPage(await pressConfirm(jar, link));
    db.restore();

    // The token is taken in the first database call; that call never reached the server.
    expect(await tokensOf("jonas@example.com")).toHaveLength(1);
    expect(storesSession(await pressConfirm(jar, link))).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe("jonas@example.com");
    expect(await tokensOf("jonas@example.com")).toEqual([]);
  });

  it("a connection dropped after the link was used: the link is put back once the database answers, and still signs in", async () => {
    const jar = new CookieJar();
    const link = await mailedLink(config, mail, jar, "kemal@example.com");
    const undo = await db.delayInserts("users", 1);
    try {
      const pending = pressConfirm(jar, link);
      await db.waitForStatement(/INSERT INTO users/);
      // A blip: the connections drop, and the server is reachable again at once.
      db.cut();
      db.restore();
      expectErrorPage(await pending);
      await db.waitForStatementToEnd(/INSERT INTO users/);
    } finally {
      await undo();
    }
    expect(await usersAndAccounts("kemal@example.com")).toEqual({ users: 0, accounts: 0 });
    expect(await tokensOf("kemal@example.com")).toHaveLength(1);
    expect(storesSession(await pressConfirm(jar, link))).toBe(true);
    expect(await usersAndAccounts("kemal@example.com")).toEqual({ users: 1, accounts: 1 });
  });

  it("the database staying down after the link was used: the link is gone (nothing can be written back), the reason logged", async () => {
    const jar = new CookieJar();
    const link = await mailedLink(config, mail, jar, "lea@example.com");
    const undo = await db.delayInserts("users", 1);
    try {
      const pending = pressConfirm(jar, link);
      await db.waitForStatement(/INSERT INTO users/);
      db.cut();
      expectErrorPage(await pending);
      await db.waitForStatementToEnd(/INSERT INTO users/);
    } finally {
      db.restore();
      await undo();
    }
    expect(log.errors.some((e) => e.message.includes("could not be restored"))).toBe(true);
    expect(await usersAndAccounts("lea@example.com")).toEqual({ users: 0, accounts: 0 });
    expect(await tokensOf("lea@example.com")).toEqual([]);
    const again = await pressConfirm(jar, link);
    expect(locationOf(again).searchParams.get("error")).toBe("Verification");
  });
});
