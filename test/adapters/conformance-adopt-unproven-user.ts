/**
 * The conformance tests of `adoptUnprovenUser` (a gatehouse extension): a user
 * whose email nobody had proven is handed to the person who proves it, with
 * nothing its creator set up (accounts of every type, authenticators,
 * sessions) left on it; a user already proven, or with another email, is left
 * alone; of two concurrent calls exactly one revokes. Part of
 * `runAdapterConformance`, which gives the adapter under test and its helpers;
 * like it, this talks to the adapter only (that the password goes too is in
 * conformance-user-passwords.ts, through `getUserPassword`).
 */
import { describe, expect, it } from "vitest";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "@gatehouse/runtime";

export interface AdoptUnprovenUserSuite {
  /** Why the adapter lacks the method (Auth.js adapters do): the tests are skipped with this reason. */
  skip: string | undefined;
  /** The adapter under test (set once the suite's beforeAll ran). */
  adapter(): Required<Adapter>;
  /** A unique value with this prefix. */
  next(prefix: string): string;
  /** A user to create, without an id. */
  userInput(fields?: Partial<AdapterUser>): AdapterUser;
  /** The contract's fields of a user. */
  userFields(user: AdapterUser | null | undefined): Record<string, unknown>;
  /** Asserts `actual` is a `Date` of the same instant as `expected`. */
  expectSameInstant(actual: unknown, expected: Date): void;
  noAuthenticators: string | undefined;
  noGetAccount: string | undefined;
}

// Millisecond precision on purpose: the instant must be stored as given.
const PROVEN_EARLIER = new Date("2024-02-03T04:05:06.789Z");
const PROVEN_NOW = new Date("2025-06-07T08:09:10.123Z");
const PROVEN_ALSO_NOW = new Date("2025-06-07T08:09:10.456Z");
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

type Key = Pick<AdapterAccount, "provider" | "providerAccountId">;

export function describeAdoptUnprovenUser(suite: AdoptUnprovenUserSuite): void {
  const { next, userInput, userFields, expectSameInstant, noAuthenticators, noGetAccount } = suite;
  const a = () => suite.adapter();

  /** What a user has set up: an OIDC account, a passkey (its account and, where supported, its authenticator) and two sessions. */
  async function setUp(userId: string) {
    const oidc: AdapterAccount = {
      userId,
      type: "oidc",
      provider: "google",
      providerAccountId: next("google"),
      access_token: "ya29.access",
      refresh_token: "1//refresh",
      expires_at: 1_900_000_000,
      id_token: "eyJhbGciOiJSUzI1NiJ9.e30.signature",
      scope: "openid email",
      token_type: "bearer",
    };
    const credentialID = next("credential");
    const passkey: AdapterAccount = { userId, type: "webauthn", provider: "passkey", providerAccountId: credentialID };
    await a().linkAccount(oidc);
    await a().linkAccount(passkey);
    if (!noAuthenticators) {
      const authenticator: AdapterAuthenticator = {
        userId,
        credentialID,
        providerAccountId: credentialID,
        credentialPublicKey: "pQECAyYgASFYIG1vY2sta2V5",
        counter: 3,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
        transports: "internal",
      };
      await a().createAuthenticator(authenticator);
    }
    const sessions = [];
    for (let i = 0; i < 2; i++) sessions.push(await a().createSession({ sessionToken: next("session-token"), userId, expires: EXPIRES }));
    return { accounts: [oidc, passkey] as const, credentialID, sessionTokens: sessions.map((s) => s.sessionToken) };
  }
  type SetUp = Awaited<ReturnType<typeof setUp>>;

  const keyOf = (account: AdapterAccount): Key => ({ provider: account.provider, providerAccountId: account.providerAccountId });

  /** Every record of `setUp` is there and belongs to `userId`. */
  async function expectKept(userId: string, records: SetUp): Promise<void> {
    for (const account of records.accounts) {
      expect((await a().getUserByAccount(keyOf(account)))?.id).toBe(userId);
      if (!noGetAccount) expect((await a().getAccount(account.providerAccountId, account.provider))?.userId).toBe(userId);
    }
    for (const token of records.sessionTokens) expect((await a().getSessionAndUser(token))?.session.userId).toBe(userId);
    if (!noAuthenticators) {
      expect((await a().getAuthenticator(records.credentialID))?.userId).toBe(userId);
      expect((await a().listAuthenticatorsByUserId(userId)).map((x) => x.credentialID)).toEqual([records.credentialID]);
    }
  }

  /** No record of `setUp` is left. */
  async function expectGone(userId: string, records: SetUp): Promise<void> {
    for (const account of records.accounts) {
      expect(await a().getUserByAccount(keyOf(account))).toBeNull();
      if (!noGetAccount) expect(await a().getAccount(account.providerAccountId, account.provider)).toBeNull();
    }
    for (const token of records.sessionTokens) expect(await a().getSessionAndUser(token)).toBeNull();
    if (!noAuthenticators) {
      expect(await a().getAuthenticator(records.credentialID)).toBeNull();
      expect(await a().listAuthenticatorsByUserId(userId)).toEqual([]);
    }
  }

  const title = "adoptUnprovenUser (gatehouse extension)";
  (suite.skip ? describe.skip : describe)(suite.skip ? `${title} (skipped: ${suite.skip})` : title, () => {
    it("an unproven user: its accounts (OIDC, passkey), authenticator and sessions are deleted, emailVerified is set; id, name and image stay", async () => {
      const user = await a().createUser(userInput({ name: "Claimed by someone", image: "https://example.com/claimed.png" }));
      const records = await setUp(user.id);
      const bystander = await a().createUser(userInput());
      const bystanderRecords = await setUp(bystander.id);

      const result = await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: new Date(PROVEN_NOW) });
      expect(result?.revoked).toBe(true);
      expect(userFields(result?.user)).toEqual({ ...userFields(user), emailVerified: PROVEN_NOW });
      expectSameInstant(result?.user.emailVerified, PROVEN_NOW);
      const stored = await a().getUser(user.id);
      expect(userFields(stored)).toEqual(userFields(result?.user));
      expectSameInstant(stored?.emailVerified, PROVEN_NOW);
      expect((await a().getUserByEmail(user.email))?.id).toBe(user.id);

      await expectGone(user.id, records);
      // Another user's records are not touched.
      await expectKept(bystander.id, bystanderRecords);
      expect(userFields(await a().getUser(bystander.id))).toEqual(userFields(bystander));

      // The prover's own account is linked next; the one the creator had linked is free again.
      await a().linkAccount(records.accounts[0]);
      expect((await a().getUserByAccount(keyOf(records.accounts[0])))?.id).toBe(user.id);
    });

    it("a user with nothing set up is adopted too, and a second call finds the address proven", async () => {
      const user = await a().createUser(userInput());
      expect(await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: PROVEN_NOW })).toMatchObject({
        revoked: true,
        user: { id: user.id, email: user.email },
      });
      const again = await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: PROVEN_ALSO_NOW });
      expect(again?.revoked).toBe(false);
      expectSameInstant(again?.user.emailVerified, PROVEN_NOW);
    });

    it("a user proven already: revoked false, nothing deleted, emailVerified unchanged", async () => {
      const user = await a().createUser(userInput({ emailVerified: PROVEN_EARLIER }));
      const records = await setUp(user.id);

      const result = await a().adoptUnprovenUser(user.id, { email: user.email, emailVerified: PROVEN_NOW });
      expect(result?.revoked).toBe(false);
      expect(userFields(result?.user)).toEqual(userFields(user));
      expectSameInstant(result?.user.emailVerified, PROVEN_EARLIER);
      expectSameInstant((await a().getUser(user.id))?.emailVerified, PROVEN_EARLIER);
      await expectKept(user.id, records);
    });

    it("a user with another email now: null, and nothing changes", async () => {
      const user = await a().createUser(userInput());
      const records = await setUp(user.id);

      expect(await a().adoptUnprovenUser(user.id, { email: `${next("other")}@example.com`, emailVerified: PROVEN_NOW })).toBeNull();
      expect(userFields(await a().getUser(user.id))).toEqual(userFields(user));
      expect((await a().getUser(user.id))?.emailVerified).toBeNull();
      await expectKept(user.id, records);
    });

    it("an unknown user id: null, and no other user changes", async () => {
      const user = await a().createUser(userInput());
      const records = await setUp(user.id);

      expect(await a().adoptUnprovenUser(crypto.randomUUID(), { email: user.email, emailVerified: PROVEN_NOW })).toBeNull();
      expect(userFields(await a().getUser(user.id))).toEqual(userFields(user));
      await expectKept(user.id, records);
    });

    it("two concurrent calls: exactly one revokes; the other gets the user as the first proved it", async () => {
      const user = await a().createUser(userInput());
      const records = await setUp(user.id);

      const results = await Promise.all(
        [PROVEN_NOW, PROVEN_ALSO_NOW].map((emailVerified) => a().adoptUnprovenUser(user.id, { email: user.email, emailVerified })),
      );
      expect(results.map((result) => result?.revoked).sort()).toEqual([false, true]);
      const winner = results.findIndex((result) => result?.revoked);
      const provenAt = winner === 0 ? PROVEN_NOW : PROVEN_ALSO_NOW;
      for (const result of results) {
        expect(result?.user.id).toBe(user.id);
        expectSameInstant(result?.user.emailVerified, provenAt);
      }
      expectSameInstant((await a().getUser(user.id))?.emailVerified, provenAt);
      await expectGone(user.id, records);
    });
  });
}
