/**
 * Database sessions read and extended by hundreds of concurrent requests on a
 * PostgreSQL server through a pool of five: every session's rows aged with SQL
 * so an extension is due, then many GETs and `update()` POSTs per session at
 * once (with `updateAge` of an hour, and of 0: a write on every read). Proves:
 * every request answers its own user's session, no session is lost, every
 * stored expiry moved forward to at least the load's start + maxAge and was
 * never seen back before that, no error is logged, and connections stay within
 * the pool, which ends idle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { captureLogger } from "../helpers.js";
import { expectBoundedAndSettled, NEEDS_POSTGRES, openLoadDatabase, SERVER_URL, underWatch, type LoadDatabase } from "./support/database.js";
import {
  ageSessions,
  csrfTokens,
  DAY,
  getSession,
  HOUR,
  sessionConfig,
  signInUsers,
  storedExpiries,
  updateSession,
  watchExpiries,
  type ExpiryHistory,
  type SignedInBrowser,
} from "./support/sessions.js";

/**
 * Once extended, no session's expiry was ever seen back before the load: every
 * value after the aged one is at least the load's start + maxAge, so no request
 * wrote back an expiry it had read before another extended the session.
 * (Extensions racing each other each write their own now + maxAge, last writer
 * wins: between those the stored value may step back by the few milliseconds
 * between the requests' clocks, which this allows.)
 */
function expectNeverBackBeforeTheLoad(history: ExpiryHistory, startedAt: number, maxAge: number): void {
  const floor = startedAt + maxAge * 1000;
  const backwards = [...history.seen].filter(([, seen]) => seen.slice(1).some((value) => value < floor));
  expect(backwards).toEqual([]);
}

describe.skipIf(!SERVER_URL)(`concurrent database session reads and extensions on PostgreSQL (${NEEDS_POSTGRES})`, () => {
  let db: LoadDatabase;
  const log = captureLogger();

  beforeAll(async () => {
    db = await openLoadDatabase("extend");
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });

  /**
   * Ages the browsers' sessions by two hours (an extension is due), then sends
   * every request of `requestsOf` at once while watching connections and expiries.
   */
  async function burst(config: AuthConfig, browsers: SignedInBrowser[], requestsOf: (browser: SignedInBrowser, csrf: string) => Promise<Response>[]) {
    const tokens = browsers.map((browser) => browser.token);
    const csrf = await csrfTokens(config, browsers);
    await ageSessions(db, tokens, 2 * HOUR);
    const aged = await storedExpiries(db, tokens);
    const expiries = await watchExpiries(db, tokens);
    const startedAt = Date.now();
    const { result: responses, peaks } = await underWatch(db, () => Promise.all(browsers.map((browser, i) => Promise.all(requestsOf(browser, csrf[i]!)))));
    const history = await expiries.stop();
    return { tokens, aged, startedAt, responses, peaks, history };
  }

  /** Every answer is the browser's own session, with an expiry later than the aged one. */
  async function expectEveryAnswerSignedIn(browsers: SignedInBrowser[], responses: Response[][], aged: Map<string, Date>) {
    for (const [i, answers] of responses.entries()) {
      const { email, token } = browsers[i]!;
      for (const response of answers) {
        expect(response.status).toBe(200);
        const body = await response.json();
        expect(body?.user?.email).toBe(email);
        expect(new Date(body.expires).valueOf()).toBeGreaterThan(aged.get(token)!.valueOf());
      }
    }
  }

  /** Every row is still there, extended from the load's start by at least `maxAge`. */
  async function expectAllExtended(tokens: string[], startedAt: number, maxAge: number) {
    const stored = await storedExpiries(db, tokens);
    expect(stored.size).toBe(tokens.length);
    const short = [...stored].filter(([, expires]) => expires.valueOf() < startedAt + maxAge * 1000);
    expect(short).toEqual([]);
  }

  it("100 aged sessions, each read four times and updated once at once (updateAge 1h): all extended, none lost", async () => {
    const config = sessionConfig(db.adapter(), log);
    const browsers = await signInUsers(config, "reader", 100);
    const { tokens, aged, startedAt, responses, peaks, history } = await burst(config, browsers, ({ jar }, csrf) => [
      getSession(config, jar),
      getSession(config, jar),
      updateSession(config, jar, csrf, { theme: "dark" }),
      getSession(config, jar),
      getSession(config, jar),
    ]);

    await expectEveryAnswerSignedIn(browsers, responses, aged);
    await expectAllExtended(tokens, startedAt, DAY);
    expectNeverBackBeforeTheLoad(history, startedAt, DAY);
    expect(history.reappeared.size).toBe(0);
    // Afterwards the session reads as before, from the cookie each browser kept.
    for (const { email, jar } of browsers) expect((await (await getSession(config, jar)).json())?.user?.email).toBe(email);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 30_000);

  it("60 sessions read eight times each at once with updateAge 0 (a write on every read): all extended, none back before the load", async () => {
    const config = sessionConfig(db.adapter(), log, { updateAge: 0 });
    const browsers = await signInUsers(config, "eager", 60);
    const { tokens, aged, startedAt, responses, peaks, history } = await burst(config, browsers, ({ jar }) =>
      Array.from({ length: 8 }, () => getSession(config, jar)),
    );

    await expectEveryAnswerSignedIn(browsers, responses, aged);
    await expectAllExtended(tokens, startedAt, DAY);
    expectNeverBackBeforeTheLoad(history, startedAt, DAY);
    expect(history.reappeared.size).toBe(0);

    await expectBoundedAndSettled(db, peaks);
    expect(log.errors).toEqual([]);
    expect(log.warnings).toEqual([]);
  }, 30_000);
});
