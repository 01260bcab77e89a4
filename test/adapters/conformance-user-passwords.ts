/**
 * The conformance tests of the password methods (gatehouse extensions):
 * `createUserWithPassword` stores a user and its hash together, or on a taken
 * email nothing (null, never a throw); `getUserPassword` reads the hash;
 * `setUserPassword` writes it unconditionally, as a compare-and-set or only
 * when there is none, and with `revokeSessions` ends the user's sessions only
 * when it wrote. Races for one email or one hash have exactly one winner. Part
 * of `runAdapterConformance`, which gives the adapter under test and its
 * helpers; like it, this talks to the adapter only (what the SQL adapters
 * store beyond the hash, `updatedAt`, is checked in their own test files).
 */
import { describe, expect, it } from "vitest";
import type { Adapter, AdapterUser } from "@gatehouse/runtime";

export interface UserPasswordsSuite {
  /** Why the adapter lacks the methods (Auth.js adapters do): the tests are skipped with this reason. */
  skip: string | undefined;
  /** The adapter under test (set once the suite's beforeAll ran). */
  adapter(): Required<Adapter>;
  /** A unique value with this prefix. */
  next(prefix: string): string;
  /** A user to create, without an id. */
  userInput(fields?: Partial<AdapterUser>): AdapterUser;
  /** Runs `call` so that a synchronous throw becomes a rejection. */
  attempt<T>(call: () => PromiseLike<T> | T): Promise<T>;
  /** The contract's fields of a user. */
  userFields(user: AdapterUser | null | undefined): Record<string, unknown>;
  /** Asserts `actual` is a `Date` of the same instant as `expected`. */
  expectSameInstant(actual: unknown, expected: Date): void;
  /** Why the adapter lacks `adoptUnprovenUser`: that one test is skipped. */
  noAdoptUnprovenUser: string | undefined;
}

// Millisecond precision on purpose: the instant must be stored as given.
const PROVEN = new Date("2024-02-03T04:05:06.789Z");
const PROVEN_LATER = new Date("2025-06-07T08:09:10.123Z");
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

export function describeUserPasswords(suite: UserPasswordsSuite): void {
  const { next, userInput, attempt, userFields, expectSameInstant, noAdoptUnprovenUser } = suite;
  const a = () => suite.adapter();
  const hash = () => `$scrypt$ln=15,r=8,p=3$${next("salt")}$${next("key")}`;
  const withAdoption = noAdoptUnprovenUser ? it.skip : it;

  /** A user with a password, made by `createUserWithPassword`. */
  async function userWithPassword(fields: Partial<AdapterUser> = {}) {
    const passwordHash = hash();
    const user = await a().createUserWithPassword(userInput(fields), passwordHash);
    expect(user).not.toBeNull();
    return { user: user as AdapterUser, passwordHash };
  }

  async function sessionsOf(userId: string, count: number): Promise<string[]> {
    const tokens = [];
    for (let i = 0; i < count; i++) tokens.push((await a().createSession({ sessionToken: next("session-token"), userId, expires: EXPIRES })).sessionToken);
    return tokens;
  }

  /** Which of `tokens` still find a session. */
  async function liveSessions(tokens: string[]): Promise<string[]> {
    const live = [];
    for (const token of tokens) if (await a().getSessionAndUser(token)) live.push(token);
    return live;
  }

  const title = "password methods (gatehouse extension)";
  (suite.skip ? describe.skip : describe)(suite.skip ? `${title} (skipped: ${suite.skip})` : title, () => {
    describe("createUserWithPassword", () => {
      it("returns the user with the given fields and emailVerified null; the reads find it and its hash", async () => {
        const input = userInput({ name: "Ada", image: null });
        const passwordHash = hash();
        const user = await a().createUserWithPassword(input, passwordHash);
        expect(typeof user?.id).toBe("string");
        expect(user?.id).not.toBe("");
        expect(userFields(user)).toEqual({ ...userFields(input), id: user?.id });
        expect(user?.emailVerified).toBeNull();
        expect(userFields(await a().getUser(user!.id))).toEqual(userFields(user));
        expect(userFields(await a().getUserByEmail(input.email))).toEqual(userFields(user));
        expect(await a().getUserPassword(user!.id)).toBe(passwordHash);
      });

      it("emailVerified given as a Date comes back as that instant; a given id is kept or replaced", async () => {
        const input = { ...userInput({ emailVerified: new Date(PROVEN) }), id: crypto.randomUUID() };
        const user = await a().createUserWithPassword(input, hash());
        expectSameInstant(user?.emailVerified, PROVEN);
        const stored = await a().getUser(user!.id);
        expect(userFields(stored)).toEqual(userFields(user));
        expectSameInstant(stored?.emailVerified, PROVEN);
      });

      it("a taken email: null, nothing written; the holder and its password are unchanged", async () => {
        const { user: holder, passwordHash } = await userWithPassword();
        const intruderId = crypto.randomUUID();
        const result = await a().createUserWithPassword({ ...userInput({ email: holder.email, name: "Impostor" }), id: intruderId }, hash());
        expect(result).toBeNull();
        expect(userFields(await a().getUserByEmail(holder.email))).toEqual(userFields(holder));
        expect(await a().getUserPassword(holder.id)).toBe(passwordHash);
        expect(await a().getUser(intruderId)).toBeNull();
        expect(await a().getUserPassword(intruderId)).toBeNull();
      });

      it("the email of a user without a password (an OAuth sign-up, say): null, and that user gets no password", async () => {
        const holder = await a().createUser(userInput());
        expect(await a().createUserWithPassword(userInput({ email: holder.email }), hash())).toBeNull();
        expect(userFields(await a().getUserByEmail(holder.email))).toEqual(userFields(holder));
        expect(await a().getUserPassword(holder.id)).toBeNull();
      });

      it("a taken id (with a free email): throws, and writes nothing", async () => {
        const { user: holder, passwordHash } = await userWithPassword();
        const input = { ...userInput(), id: holder.id };
        // An adapter that assigns its own ids may create the user instead; one that keeps them must refuse.
        const created = await attempt(() => a().createUserWithPassword(input, hash())).catch(() => "threw" as const);
        if (created === "threw") expect(await a().getUserByEmail(input.email)).toBeNull();
        else expect(created?.id).not.toBe(holder.id);
        expect(userFields(await a().getUser(holder.id))).toEqual(userFields(holder));
        expect(await a().getUserPassword(holder.id)).toBe(passwordHash);
      });

      it("concurrent sign-ups for one email: exactly one user, the others null", async () => {
        const email = `${next("race")}@example.com`;
        const attempts = ["First", "Second", "Third", "Fourth"].map((name) => ({
          input: { ...userInput({ email, name }), id: crypto.randomUUID() },
          passwordHash: hash(),
        }));
        const results = await Promise.all(attempts.map(({ input, passwordHash }) => a().createUserWithPassword(input, passwordHash)));
        const winners = results.flatMap((user, i) => (user ? [{ user, passwordHash: attempts[i]!.passwordHash }] : []));
        expect(winners).toHaveLength(1);
        const [{ user, passwordHash }] = winners as [{ user: AdapterUser; passwordHash: string }];
        expect(userFields(await a().getUserByEmail(email))).toEqual(userFields(user));
        expect(await a().getUserPassword(user.id)).toBe(passwordHash);
        for (const { input } of attempts) if (input.id !== user.id) expect(await a().getUser(input.id)).toBeNull();
      });
    });

    describe("getUserPassword", () => {
      it("null for an unknown user and for a user without a password", async () => {
        expect(await a().getUserPassword(crypto.randomUUID())).toBeNull();
        const user = await a().createUser(userInput());
        expect(await a().getUserPassword(user.id)).toBeNull();
      });
    });

    describe("setUserPassword", () => {
      it("without `previous`: inserts a first password, then replaces it", async () => {
        const user = await a().createUser(userInput());
        const first = hash();
        expect(await a().setUserPassword(user.id, first)).toBe(true);
        expect(await a().getUserPassword(user.id)).toBe(first);
        const second = hash();
        expect(await a().setUserPassword(user.id, second, {})).toBe(true);
        expect(await a().getUserPassword(user.id)).toBe(second);
      });

      it("`previous` a string: writes only while the stored hash equals it", async () => {
        const { user, passwordHash } = await userWithPassword();
        const stale = hash();
        expect(await a().setUserPassword(user.id, hash(), { previous: stale })).toBe(false);
        expect(await a().getUserPassword(user.id)).toBe(passwordHash);
        const rehashed = hash();
        expect(await a().setUserPassword(user.id, rehashed, { previous: passwordHash })).toBe(true);
        expect(await a().getUserPassword(user.id)).toBe(rehashed);
        // The hash it replaced is no longer current.
        expect(await a().setUserPassword(user.id, hash(), { previous: passwordHash })).toBe(false);
        expect(await a().getUserPassword(user.id)).toBe(rehashed);
        // A user without a password has no hash to equal.
        const other = await a().createUser(userInput());
        expect(await a().setUserPassword(other.id, hash(), { previous: passwordHash })).toBe(false);
        expect(await a().getUserPassword(other.id)).toBeNull();
      });

      it("`previous` null: writes only while the user has no password", async () => {
        const user = await a().createUser(userInput());
        const first = hash();
        expect(await a().setUserPassword(user.id, first, { previous: null })).toBe(true);
        expect(await a().getUserPassword(user.id)).toBe(first);
        expect(await a().setUserPassword(user.id, hash(), { previous: null })).toBe(false);
        expect(await a().getUserPassword(user.id)).toBe(first);
      });

      it("concurrent compare-and-sets from one hash: exactly one writes, and its hash is stored", async () => {
        const { user, passwordHash } = await userWithPassword();
        const candidates = [hash(), hash(), hash(), hash()];
        const results = await Promise.all(candidates.map((candidate) => a().setUserPassword(user.id, candidate, { previous: passwordHash })));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await a().getUserPassword(user.id)).toBe(candidates[results.indexOf(true)]);
      });

      it("concurrent first passwords (`previous` null): exactly one writes, and its hash is stored", async () => {
        const user = await a().createUser(userInput());
        const candidates = [hash(), hash(), hash()];
        const results = await Promise.all(candidates.map((candidate) => a().setUserPassword(user.id, candidate, { previous: null })));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await a().getUserPassword(user.id)).toBe(candidates[results.indexOf(true)]);
      });

      it("an unknown user: false in every mode, never a throw, and no password appears for it", async () => {
        const nobody = crypto.randomUUID();
        for (const options of [undefined, {}, { previous: null }, { previous: hash() }, { revokeSessions: true }, { previous: null, revokeSessions: true }]) {
          expect(await attempt(() => a().setUserPassword(nobody, hash(), options))).toBe(false);
        }
        expect(await a().getUserPassword(nobody)).toBeNull();
        expect(await a().getUser(nobody)).toBeNull();
      });

      it("revokeSessions: when it writes, every session of the user ends and no one else's", async () => {
        const { user, passwordHash } = await userWithPassword();
        const bystander = await a().createUser(userInput());
        const mine = await sessionsOf(user.id, 3);
        const theirs = await sessionsOf(bystander.id, 2);
        const reset = hash();
        expect(await a().setUserPassword(user.id, reset, { previous: passwordHash, revokeSessions: true })).toBe(true);
        expect(await a().getUserPassword(user.id)).toBe(reset);
        expect(await liveSessions(mine)).toEqual([]);
        expect(await liveSessions(theirs)).toEqual(theirs);
        // Unconditional writes revoke too; the user can sign in again afterwards.
        const again = await sessionsOf(user.id, 1);
        expect(await a().setUserPassword(user.id, hash(), { revokeSessions: true })).toBe(true);
        expect(await liveSessions(again)).toEqual([]);
        expect(await liveSessions(theirs)).toEqual(theirs);
      });

      it("revokeSessions when the condition fails: nothing is written and no session ends", async () => {
        const { user, passwordHash } = await userWithPassword();
        const mine = await sessionsOf(user.id, 2);
        expect(await a().setUserPassword(user.id, hash(), { previous: hash(), revokeSessions: true })).toBe(false);
        expect(await a().setUserPassword(user.id, hash(), { previous: null, revokeSessions: true })).toBe(false);
        expect(await a().getUserPassword(user.id)).toBe(passwordHash);
        expect(await liveSessions(mine)).toEqual(mine);
      });

      it("without revokeSessions: sessions stay", async () => {
        const { user, passwordHash } = await userWithPassword();
        const mine = await sessionsOf(user.id, 2);
        expect(await a().setUserPassword(user.id, hash(), { previous: passwordHash })).toBe(true);
        expect(await a().setUserPassword(user.id, hash(), { revokeSessions: false })).toBe(true);
        expect(await liveSessions(mine)).toEqual(mine);
      });
    });

    describe("the password goes with its user", () => {
      it("deleteUser removes it; a new user with the same id has none", async () => {
        const { user } = await userWithPassword();
        const { user: bystander, passwordHash } = await userWithPassword();
        await a().deleteUser(user.id);
        expect(await a().getUserPassword(user.id)).toBeNull();
        expect(await a().getUserPassword(bystander.id)).toBe(passwordHash);
        const reborn = await a().createUser({ ...userInput(), id: user.id });
        expect(await a().getUserPassword(reborn.id)).toBeNull();
      });

      withAdoption(`adoptUnprovenUser removes it; another user's stays${noAdoptUnprovenUser ? ` (skipped: ${noAdoptUnprovenUser})` : ""}`, async () => {
        const { user } = await userWithPassword();
        const { user: bystander, passwordHash } = await userWithPassword();
        const adopted = await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: PROVEN_LATER });
        expect(adopted?.revoked).toBe(true);
        expect(await a().getUserPassword(user.id)).toBeNull();
        expect(await a().getUserPassword(bystander.id)).toBe(passwordHash);
        // The prover sets their own password next.
        expect(await a().setUserPassword(user.id, hash(), { previous: null })).toBe(true);
      });

      withAdoption(`adoptUnprovenUser of a proven user keeps it${noAdoptUnprovenUser ? ` (skipped: ${noAdoptUnprovenUser})` : ""}`, async () => {
        const { user, passwordHash } = await userWithPassword({ emailVerified: PROVEN });
        expect((await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: PROVEN_LATER }))?.revoked).toBe(false);
        expect(await a().getUserPassword(user.id)).toBe(passwordHash);
      });
    });
  });
}
