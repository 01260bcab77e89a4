/**
 * Sign-outs racing reads, `update()`s and due extensions of the same database
 * sessions on a PostgreSQL server, through a pool of five. Proves: no request
 * fails; a signed-out session's row is gone, never comes back (the extension
 * racing the sign-out is an UPDATE of nothing, not an insert) and its cookie
 * reads as no session from then on; the sessions not signed out are all still
 * there, extended, and readable; many tabs signing out of one session at once
 * all end signed out with exactly one of them ending the row; expired sessions
 * read by many requests at once are deleted once and read as none; no error is
 * logged and the pool ends idle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdapterSession, AuthConfig } from "@gatehouse/runtime";
import { captureLogger, CookieJar, isCleared, locationOf, ORIGIN, sessionSetCookies } from "../helpers.js";
import { expectBoundedAndSettled, NEEDS_POSTGRES, openLoadDatabase, SERVER_URL, underWatch, type LoadDatabase } from "./support/database.js";
import { SESSION_COOKIE } from "./support/browsers.js";
import {
  ageSessions,
  csrfTokens,
  DAY,
  getSession,
  HOUR,
  sessionConfig,
  signInUsers,
  signOut,
  storedExpiries,
  updateSession,
  watchExpiries,
} from "./support/sessions.js";

/** A browser that holds only the given session cookie: an old copy of the cookie, replayed. */
function browserWith(token: string): CookieJar {
  const jar = new CookieJar();
  jar.cookies.set(SESSION_COOKIE, token);
  return jar;
}

/** The response clears the session cookie (and sets no new one). */
function clearsSession(response: Response): boolean {
  const cookies = sessionSetCookies(response);
  return cookies.length > 0 && cookies.every(isCleared);
}

describe.skipIf(!SERVER_URL)(`sign-outs racing session reads and extensions on PostgreSQL (${NEEDS_POSTGRES})`, () => {
  let db: LoadDatabase;
  let config: AuthConfig;
  const log = captureLogger();
  const signOutEvents: (AdapterSession | null | undefined)[] = [];

  beforeAll(async () => {
    db = await openLoadDatabase("signout");
    config = { ...sessionConfig(db.adapter(), log), events: { signOut: (message) => void signOutEvents.push("session" in message ? (message.session as AdapterSession | null) : undefined) } };
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });

  it("100 aged sessions read, updated and extended at once while half of them sign out: the signed-out stay gone, the rest all work", async () => {
    const browsers = await signInUsers(config, "racer", 100);
    const csrf = await csrfTokens(config, browsers);
    const tokens = browsers.map((browser) => browser.token);
    const leaving = new Set(tokens.slice(0, 50));
    await ageSessions(db, tokens, 2 * HOUR);
    const expiries = await watchExpiries(db, tokens);
    const startedAt = Date.now();

    const { result, peaks } = await underWatch(db, () =>
      Promise.all(
        browsers.map(async ({ jar, token }, i) => {
          // The sign-out goes out between the reads: some of them reach the database before it, some after.
          const before = [getSession(config, jar), updateSession(config, jar, csrf[i]!, { step: 1 })];
          const signedOut = leaving.has(token) ? signOut(config, jar, csrf[i]!) : undefined;
          const after = [getSession(config, jar), getSession(config, jar)];
          return { reads: await Promise.all([...before, ...after]), signedOut: await signedOut };
        }),
      ),
    );
    const history = await expiries.stop();

    for (const [i, { reads, signedOut }] of result.entries()) {
      const { email, token } = browsers[i]!;
      for (const read of reads) {
        expect(read.status).toBe(200);
        const body = await read.json();
        // A read that raced the sign-out saw the session or nothing; never someone else, never an error.
        if (leaving.has(token)) expect([email, undefined]).toContain(body?.user?.email);
        else expect(body?.user?.email).toBe(email);
        // And a read that answered no session told the browser to drop the cookie, never to keep it.
        if (body === null) expect(clearsSession(read)).toBe(true);
      }
      if (signedOut) {
        expect(signedOut.status).toBe(302);
        expect(locationOf(signedOut).origin).toBe(ORIGIN);
        expect(clearsSession(signedOut)).toBe(true);
      }
    }

    // Gone, and never seen again once gone: no extension put a signed-out session back.
    const stored = await storedExpiries(db, tokens);
    expect([...leaving].filter((token) => stored.has(token))).toEqual([]);
    expect([...history.reappeared]).toEqual([]);
    // The rest are all there, each extended past the load's start + maxAge.
    const staying = tokens.filter((token) => !leaving.has(token));
    expect(staying.filter((token) => (stored.get(token)?.valueOf() ?? 0) < startedAt + DAY * 1000)).toEqual([]);

    // Afterwards: the old cookie of a signed-out session reads as none, and keeps doing so.
    for (const token of leaving) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await getSession(config, browserWith(token));
        expect(await response.json()).toBeNull();
        expect(clearsSession(response)).toBe(true);
      }
    }
    for (const { jar, token, email } of browsers) {
      const body = await (await getSession(config, jar)).json();
      expect(body?.user?.email).toBe(leaving.has(token) ? undefined : email);
    }
    expect(signOutEvents.filter((session) => session?.sessionToken !== undefined && leaving.has(session.sessionToken))).toHaveLength(50);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 30_000);

  it("one session signed out from 40 tabs at once, amid reads: every tab signed out, the row ended exactly once", async () => {
    const [browser] = await signInUsers(config, "tabs", 1);
    const { jar, token } = browser!;
    const tabs = Array.from({ length: 40 }, () => {
      const tab = new CookieJar();
      for (const [name, value] of jar.cookies) tab.cookies.set(name, value);
      return tab;
    });
    const [csrf] = await csrfTokens(config, [browser!]);
    signOutEvents.length = 0;

    const { result, peaks } = await underWatch(db, () =>
      Promise.all(tabs.map((tab) => Promise.all([signOut(config, tab, csrf!), getSession(config, tab)]))),
    );

    for (const [signedOut, read] of result) {
      expect(signedOut.status).toBe(302);
      expect(clearsSession(signedOut)).toBe(true);
      expect(read.status).toBe(200);
      expect([browser!.email, undefined]).toContain((await read.json())?.user?.email);
    }
    expect(await storedExpiries(db, [token])).toEqual(new Map());
    // Every tab's sign-out fired the event; only the one that deleted the row carries it.
    expect(signOutEvents).toHaveLength(40);
    expect(signOutEvents.filter((session) => session?.sessionToken === token)).toHaveLength(1);
    expect(signOutEvents.filter((session) => session === null)).toHaveLength(39);
    for (const tab of tabs) expect(await (await getSession(config, tab)).json()).toBeNull();

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 20_000);

  it("50 expired sessions, each read by six requests at once: every read answers none and clears the cookie; the rows are deleted", async () => {
    const browsers = await signInUsers(config, "expired", 50);
    const tokens = browsers.map((browser) => browser.token);
    // Past their expiry: aged by more than maxAge.
    await ageSessions(db, tokens, DAY + HOUR);

    const { result, peaks } = await underWatch(db, () =>
      Promise.all(browsers.map(({ token }) => Promise.all(Array.from({ length: 6 }, () => getSession(config, browserWith(token)))))),
    );

    for (const reads of result) {
      for (const read of reads) {
        expect(read.status).toBe(200);
        expect(await read.json()).toBeNull();
        expect(clearsSession(read)).toBe(true);
      }
    }
    expect(await storedExpiries(db, tokens)).toEqual(new Map());

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 20_000);
});
