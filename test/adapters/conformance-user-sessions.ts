/**
 * The conformance tests of a user's sessions (gatehouse extensions):
 * `createSession` keeps when a session was created and its browser's
 * `User-Agent`; `listSessionsByUserId` lists a user's sessions, oldest first;
 * `revokeUserSessions` deletes them (but one) and moves the user's session
 * version, which `getUserSessionVersion` reads and `setUserPassword` with
 * `revokeSessions` moves too. Part of `runAdapterConformance`; like it, this
 * talks to the adapter only.
 */
import { describe, expect, it } from "vitest";
import type { Adapter, AdapterSession, AdapterUser } from "@gatehouse/runtime";

export interface UserSessionsSuite {
  /** Why the adapter lacks the methods (Auth.js adapters do): the tests are skipped with this reason. */
  skip: string | undefined;
  /** Why the adapter lacks the password methods: the tests of `setUserPassword`'s revocation are skipped. */
  noUserPasswords: string | undefined;
  adapter(): Required<Adapter>;
  next(prefix: string): string;
  userInput(fields?: Partial<AdapterUser>): AdapterUser;
}

const EXPIRES = new Date("2031-05-06T07:08:09.123Z");
/** How far apart the adapter's clock (a database server's) and the test's may be. */
const CLOCK_SKEW_MS = 60_000;

export function describeUserSessions(suite: UserSessionsSuite): void {
  const { next, userInput } = suite;
  const a = () => suite.adapter();
  const withPasswords = suite.noUserPasswords ? it.skip : it;

  /** Creates a session, a few milliseconds after the last one: "oldest first" may order those of one millisecond either way. */
  async function newSession(userId: string, userAgent?: string): Promise<AdapterSession> {
    await new Promise((resolve) => setTimeout(resolve, 3));
    return a().createSession({ sessionToken: next("session-token"), userId, expires: EXPIRES, userAgent });
  }

  async function sessionsOf(userId: string, count: number): Promise<string[]> {
    const tokens = [];
    for (let i = 0; i < count; i++) tokens.push((await newSession(userId)).sessionToken);
    return tokens;
  }

  const tokensOf = (sessions: AdapterSession[]) => sessions.map((session) => session.sessionToken);

  /** Which of `tokens` still find a session. */
  async function liveSessions(tokens: string[]): Promise<string[]> {
    const live = [];
    for (const token of tokens) if (await a().getSessionAndUser(token)) live.push(token);
    return live;
  }

  const title = "a user's sessions and session version (gatehouse extension)";
  (suite.skip ? describe.skip : describe)(suite.skip ? `${title} (skipped: ${suite.skip})` : title, () => {
    it("createSession keeps when the session was created and its User-Agent (at most 512 characters; none for an empty one)", async () => {
      const user = await a().createUser(userInput());
      const before = Date.now();
      const agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0";
      const created = await newSession(user.id, agent);
      expect(created.userAgent).toBe(agent);
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(Math.abs(created.createdAt!.getTime() - before)).toBeLessThan(CLOCK_SKEW_MS);
      await newSession(user.id, "x".repeat(2000));
      await newSession(user.id, "");
      await newSession(user.id);
      const listed = await a().listSessionsByUserId(user.id);
      expect(listed.map((session) => session.userAgent)).toEqual([agent, "x".repeat(512), null, null]);
      for (const session of listed) {
        expect(session.userId).toBe(user.id);
        expect(session.expires.getTime()).toBe(EXPIRES.getTime());
        expect(Math.abs(session.createdAt!.getTime() - before)).toBeLessThan(CLOCK_SKEW_MS);
      }
    });

    it("getSessionAndUser's session carries when it was created (an account page asks for a recent sign-in)", async () => {
      const user = await a().createUser(userInput());
      const before = Date.now();
      const created = await newSession(user.id);
      const found = await a().getSessionAndUser(created.sessionToken);
      expect(found?.session.createdAt).toBeInstanceOf(Date);
      expect(Math.abs(found!.session.createdAt!.getTime() - before)).toBeLessThan(CLOCK_SKEW_MS);
    });

    it("listSessionsByUserId: the user's sessions only, oldest first; none for an unknown user; a deleted one is gone", async () => {
      const user = await a().createUser(userInput());
      const other = await a().createUser(userInput());
      const mine = await sessionsOf(user.id, 3);
      await sessionsOf(other.id, 2);
      expect(tokensOf(await a().listSessionsByUserId(user.id))).toEqual(mine);
      await a().deleteSession(mine[1]!);
      expect(tokensOf(await a().listSessionsByUserId(user.id))).toEqual([mine[0], mine[2]]);
      expect(await a().listSessionsByUserId(crypto.randomUUID())).toEqual([]);
    });

    it("getUserSessionVersion: 0 for a new user, null for an unknown or deleted one", async () => {
      const user = await a().createUser(userInput());
      expect(await a().getUserSessionVersion(user.id)).toBe(0);
      expect(await a().getUserSessionVersion(crypto.randomUUID())).toBeNull();
      await a().deleteUser(user.id);
      expect(await a().getUserSessionVersion(user.id)).toBeNull();
    });

    it("revokeUserSessions ends every session of the user and moves its version; another user's stay", async () => {
      const user = await a().createUser(userInput());
      const other = await a().createUser(userInput());
      const mine = await sessionsOf(user.id, 3);
      const theirs = await sessionsOf(other.id, 2);
      expect(await a().revokeUserSessions(user.id)).toBe(1);
      expect(await liveSessions(mine)).toEqual([]);
      expect(await a().listSessionsByUserId(user.id)).toEqual([]);
      expect(await a().getUserSessionVersion(user.id)).toBe(1);
      expect(await liveSessions(theirs)).toEqual(theirs);
      expect(await a().getUserSessionVersion(other.id)).toBe(0);
      // Again, with no sessions left: the version still moves (it ends JWTs, which are not stored).
      expect(await a().revokeUserSessions(user.id)).toBe(2);
    });

    it("revokeUserSessions with `except` keeps that one session (and only a session of this user)", async () => {
      const user = await a().createUser(userInput());
      const other = await a().createUser(userInput());
      const mine = await sessionsOf(user.id, 3);
      const [theirs] = await sessionsOf(other.id, 1);
      expect(await a().revokeUserSessions(user.id, { except: mine[1] })).toBe(1);
      expect(await liveSessions(mine)).toEqual([mine[1]]);
      // Another user's token as the exception keeps nothing of this user's and touches nothing of theirs.
      await sessionsOf(user.id, 1);
      expect(await a().revokeUserSessions(user.id, { except: theirs })).toBe(2);
      expect(await a().listSessionsByUserId(user.id)).toEqual([]);
      expect(await liveSessions([theirs!])).toEqual([theirs]);
    });

    it("revokeUserSessions of an unknown user: null, and nothing changes", async () => {
      const user = await a().createUser(userInput());
      const mine = await sessionsOf(user.id, 1);
      expect(await a().revokeUserSessions(crypto.randomUUID())).toBeNull();
      expect(await liveSessions(mine)).toEqual(mine);
      expect(await a().getUserSessionVersion(user.id)).toBe(0);
    });

    it("concurrent revocations each get a version of their own", async () => {
      const user = await a().createUser(userInput());
      const versions = await Promise.all([1, 2, 3, 4].map(() => a().revokeUserSessions(user.id)));
      expect([...versions].sort()).toEqual([1, 2, 3, 4]);
      expect(await a().getUserSessionVersion(user.id)).toBe(4);
    });

    withPasswords("setUserPassword with revokeSessions moves the version too; without it, or when it does not write, it does not", async () => {
      const user = await a().createUser(userInput());
      await sessionsOf(user.id, 2);
      expect(await a().setUserPassword(user.id, `$scrypt$${next("hash")}`)).toBe(true);
      expect(await a().getUserSessionVersion(user.id)).toBe(0);
      expect(await a().setUserPassword(user.id, `$scrypt$${next("hash")}`, { previous: "not the stored hash", revokeSessions: true })).toBe(false);
      expect(await a().getUserSessionVersion(user.id)).toBe(0);
      expect(await a().listSessionsByUserId(user.id)).toHaveLength(2);
      expect(await a().setUserPassword(user.id, `$scrypt$${next("hash")}`, { revokeSessions: true })).toBe(true);
      expect(await a().getUserSessionVersion(user.id)).toBe(1);
      expect(await a().listSessionsByUserId(user.id)).toEqual([]);
    });
  });
}
