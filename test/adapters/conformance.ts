/**
 * The adapter conformance suite: one set of tests every adapter runs (memory,
 * Postgres on PGlite and on a server, SQLite, the hosted store, Auth.js adapters),
 * so they all keep the same contract. It talks to the adapter only, never to its
 * storage, so the same assertions hold whatever is underneath.
 *
 * Where the contract lets a method return nothing (linkAccount, unlinkAccount,
 * deleteUser, updateSession, deleteSession, createVerificationToken may return
 * `void`/`null`), the suite checks what is returned only when something is, and
 * checks the effect through the read methods; adapters that want the stricter
 * behaviour test it in their own file.
 *
 * @example
 * ```ts
 * const adapter = MemoryAdapter();
 * runAdapterConformance({ name: "memory", setup: () => adapter, reset: () => adapter.clear() });
 * ```
 *
 * Auth.js's shared adapter suite (`packages/utils/adapter.ts` in next-auth), check
 * by check, and the test here that covers it (ours reads back through the adapter
 * where it reads the database):
 * - required / verification-token / "future" methods exist -> "implements every method of the contract"
 * - createUser (stored as given, id kept or assigned) -> "createUser returns the user with a generated id",
 *   "createUser with an id returns a non-empty string id ...", "emailVerified round-trips as a Date"
 * - getUser, getUserByEmail (user, or null) -> "getUser returns the user, ...", "getUserByEmail returns the user, ..."
 * - createSession, getSessionAndUser (whole rows, null for a bad token) -> "createSession returns the session ...",
 *   "getSessionAndUser returns the session and its user, ...", "getSessionAndUser returns both rows whole ..."
 * - updateUser -> "updateUser changes only the given fields and returns the full user"
 * - updateSession -> "updateSession changes expires ..."
 * - linkAccount (every field stored), getAccount (null unless both key parts match) ->
 *   "linkAccount then getUserByAccount and getAccount; every OAuth field round-trips",
 *   "getUserByAccount and getAccount return null for an unknown account; both key parts must match"
 * - getUserByAccount -> the same two tests
 * - deleteSession -> "deleteSession removes only that session; ..."
 * - createVerificationToken, useVerificationToken (once, then null; wrong identifier null; same value stored
 *   again) -> "useVerificationToken returns the token once ...", "a wrong identifier or a wrong token gets null ...",
 *   "a used token can be stored again with the same value, and is used once more"
 * - unlinkAccount -> "unlinkAccount removes the account and leaves the user and its other accounts"
 * - deleteUser (user, its account and session gone) -> "deleteUser of a user with one account and one session removes all three"
 *   (and the full cascade: "deleteUser removes the user and cascades ...")
 * - createAuthenticator, getAuthenticator -> "createAuthenticator returns it with typed fields; getAuthenticator finds it, or null"
 * - listAuthenticatorsByUserId -> "listAuthenticatorsByUserId returns all of a user's authenticators, [] for an unknown user"
 * - updateAuthenticatorCounter -> "updateAuthenticatorCounter returns the updated authenticator and throws for an unknown one"
 * - extra user fields (its CUSTOM_MODEL run: role, phone) -> "extra fields" and "whole rows: columns the app added"
 * Targets: our adapters, and the official `@auth/pg-adapter` (postgres-server.test.ts) and
 * `@auth/unstorage-adapter` (unstorage.test.ts), each also through our handler (test/runtime/database-sessions.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from "@gatehouse/runtime";
import { describeAddedColumns, type AddedColumns } from "./conformance-added-columns.js";
import { describeAdoptUnprovenUser } from "./conformance-adopt-unproven-user.js";
import { describeCreateUserWithAccount } from "./conformance-create-with-account.js";
import { describeUserPasswords } from "./conformance-user-passwords.js";
import { describeSignInMethods } from "./conformance-sign-in-methods.js";
import { describeUserSessions } from "./conformance-user-sessions.js";

export interface ConformanceTarget {
  /** Shown in the describe() title, e.g. "memory", "postgres (PGlite)". */
  name: string;
  /** Called once (beforeAll): returns the adapter under test. */
  setup(): Promise<Adapter> | Adapter;
  /** Called before each test: empty every table / store, so tests are independent. */
  reset(): Promise<void> | void;
  /** Called once (afterAll). */
  teardown?(): Promise<void> | void;
  /**
   * The target's storage, for columns an app adds to its schema (a `role` on
   * users); absent, the tests of added columns are skipped. See
   * `support/added-columns.ts` for the SQL targets.
   */
  addedColumns?: AddedColumns;
  /** What the target's schema cannot do; tests for it are skipped with that reason. */
  limits?: {
    /** Extra (non-standard) fields on users/accounts are not kept. */
    noExtraFields?: string;
    /** The adapter does not implement authenticators (WebAuthn). */
    noAuthenticators?: string;
    /** The adapter has no `getAccount` (Auth.js adapters older than the method): accounts are read through `getUserByAccount` only. */
    noGetAccount?: string;
    /** The adapter returns `token_type` as linked instead of lowercased. */
    tokenTypeAsLinked?: string;
    /** The adapter has no `updateAccount` (a gatehouse extension: Auth.js adapters lack it). */
    noUpdateAccount?: string;
    /** The adapter has no `createUserWithAccount` (a gatehouse extension: Auth.js adapters lack it). */
    noCreateUserWithAccount?: string;
    /** The adapter has no `adoptUnprovenUser` (a gatehouse extension: Auth.js adapters lack it). */
    noAdoptUnprovenUser?: string;
    /** The adapter has no `createUserWithPassword`, `getUserPassword`, `setUserPassword` (gatehouse extensions: Auth.js adapters lack them). */
    noUserPasswords?: string;
    /** The adapter has no `listSessionsByUserId`, `revokeUserSessions`, `getUserSessionVersion` (gatehouse extensions: Auth.js adapters lack them). */
    noUserSessions?: string;
    /** The adapter has no `listAccountsByUserId`, `renameAuthenticator`, `deleteAuthenticator` (gatehouse extensions: Auth.js adapters lack them). */
    noSignInMethods?: string;
    /** `updateUser`, `deleteUser` and the session writes return fixed columns, not the whole row (only the reads return columns the app added). */
    fixedColumnWrites?: string;
    /** A taken email, provider account or credential id is overwritten instead of refused (a key-value store without checks). */
    noUniqueness?: string;
    /** After `updateUser` changes the email, `getUserByEmail` still finds the user by the old one. */
    emailKeptOnUpdate?: string;
    /** `deleteUser` leaves some of the user's accounts, sessions or authenticators behind. */
    partialDeleteUser?: string;
  };
}

const USER_METHODS = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser"] as const;
const ACCOUNT_METHODS = ["linkAccount", "unlinkAccount", "getAccount"] as const;
const SESSION_METHODS = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const;
const TOKEN_METHODS = ["createVerificationToken", "useVerificationToken"] as const;
const AUTHENTICATOR_METHODS = [
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const;

// Millisecond precision on purpose: `expires` and `emailVerified` must come back as the same instant.
const EMAIL_VERIFIED = new Date("2024-02-03T04:05:06.789Z");
const EXPIRES = new Date("2031-05-06T07:08:09.123Z");
const LATER = new Date("2032-01-02T03:04:05.678Z");
const EXPIRES_AT = 1_900_000_000; // seconds, as the contract stores it
const LATER_EXPIRES_AT = 4_102_444_800; // 2100-01-01 in seconds: beyond a 32-bit integer

type AccountUpdate = Parameters<NonNullable<Adapter["updateAccount"]>>[0];

/** The contract's fields of an account, a missing token field as null (a cleared field may be left out or null). */
function accountFields(account: AdapterAccount | null | undefined) {
  expect(account).toBeTruthy();
  const { userId, type, provider, providerAccountId, ...tokens } = account as AdapterAccount;
  return {
    userId,
    type,
    provider,
    providerAccountId,
    access_token: tokens.access_token ?? null,
    refresh_token: tokens.refresh_token ?? null,
    expires_at: tokens.expires_at ?? null,
    id_token: tokens.id_token ?? null,
    scope: tokens.scope ?? null,
    token_type: tokens.token_type ?? null,
    session_state: tokens.session_state ?? null,
  };
}

/** Runs `call` so that a synchronous throw becomes a rejection, like a failed query. */
function attempt<T>(call: () => PromiseLike<T> | T): Promise<T> {
  return new Promise<T>((resolve) => resolve(call()));
}

function expectSameInstant(actual: unknown, expected: Date): void {
  expect(actual).toBeInstanceOf(Date);
  expect((actual as Date).getTime()).toBe(expected.getTime());
}

/** The contract's fields of a user: adapters may return more columns than these. */
function userFields(user: AdapterUser | null | undefined) {
  expect(user).toBeTruthy();
  const { id, email, name, image, emailVerified } = user as AdapterUser;
  return { id, email, name, image, emailVerified };
}

/** Exactly one of two racing calls succeeded; returns the index of the winner. */
function onlyOneSucceeded(results: PromiseSettledResult<unknown>[]): number {
  expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  return results.findIndex((r) => r.status === "fulfilled");
}

function describeUnless(skipReason: string | undefined, title: string, body: () => void): void {
  if (skipReason) describe.skip(`${title} (skipped: ${skipReason})`, body);
  else describe(title, body);
}

export function runAdapterConformance(target: ConformanceTarget): void {
  const noAuthenticators = target.limits?.noAuthenticators;
  const noGetAccount = target.limits?.noGetAccount;
  const noUpdateAccount = target.limits?.noUpdateAccount;
  const noCreateUserWithAccount = target.limits?.noCreateUserWithAccount;
  const noAdoptUnprovenUser = target.limits?.noAdoptUnprovenUser;
  const noUserPasswords = target.limits?.noUserPasswords;
  const noUserSessions = target.limits?.noUserSessions;
  const noUniqueness = target.limits?.noUniqueness;
  /** A test skipped, with the reason in its title, when the target lacks what it checks. */
  const itUnless = (skipReason: string | undefined, title: string, fn: () => Promise<void>) =>
    skipReason ? it.skip(`${title} (skipped: ${skipReason})`, fn) : it(title, fn);
  /** Tests that read an account back field by field need `getAccount`. */
  const itWithGetAccount = (title: string, fn: () => Promise<void>) =>
    noGetAccount ? it.skip(`${title} (skipped: ${noGetAccount})`, fn) : it(title, fn);

  describe(`adapter conformance: ${target.name}`, () => {
    // Methods are called on `a` itself, so adapters that use `this` keep working.
    let a: Required<Adapter>;
    let seq = 0;
    const next = (prefix: string) => `${prefix}-${++seq}`;

    beforeAll(async () => {
      a = (await target.setup()) as Required<Adapter>;
    });
    beforeEach(async () => {
      await target.reset();
    });
    afterAll(async () => {
      await target.teardown?.();
    });

    // No id, as Auth.js core sends it: the adapter (or its database) assigns one.
    const userInput = (fields: Partial<AdapterUser> = {}): AdapterUser =>
      ({
        email: `${next("user")}@example.com`,
        name: "Ada Lovelace",
        image: "https://example.com/ada.png",
        emailVerified: null,
        ...fields,
      }) as AdapterUser;
    const createUser = (fields: Partial<AdapterUser> = {}) => a.createUser(userInput(fields));

    const oauthAccount = (userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount => ({
      userId,
      type: "oauth",
      provider: "github",
      providerAccountId: next("gh"),
      access_token: "gho_access_token",
      refresh_token: "ghr_refresh_token",
      id_token: "eyJhbGciOiJSUzI1NiJ9.e30.signature",
      scope: "read:user user:email",
      session_state: "session-state-1",
      token_type: "bearer",
      expires_at: EXPIRES_AT,
      ...fields,
    });

    const sessionInput = (userId: string, expires = EXPIRES) => ({ sessionToken: next("session-token"), userId, expires });

    /** WebAuthn links an account whose providerAccountId is the credential id, then stores the authenticator. */
    async function createAuthenticator(userId: string, fields: Partial<AdapterAuthenticator> = {}) {
      const credentialID = fields.credentialID ?? next("credential");
      const input: AdapterAuthenticator = {
        userId,
        credentialID,
        providerAccountId: credentialID,
        credentialPublicKey: "pQECAyYgASFYIG1vY2sta2V5",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        transports: "usb,nfc",
        ...fields,
      };
      await a.linkAccount({ userId, type: "webauthn", provider: "passkey", providerAccountId: credentialID });
      return { input, created: await a.createAuthenticator(input) };
    }

    it("implements every method of the contract", () => {
      const methods: (keyof Adapter)[] = [...USER_METHODS, ...ACCOUNT_METHODS, ...SESSION_METHODS, ...TOKEN_METHODS];
      if (!noAuthenticators) methods.push(...AUTHENTICATOR_METHODS);
      if (!noUpdateAccount) methods.push("updateAccount");
      if (!noCreateUserWithAccount) methods.push("createUserWithAccount");
      if (!noAdoptUnprovenUser) methods.push("adoptUnprovenUser");
      if (!noUserPasswords) methods.push("createUserWithPassword", "getUserPassword", "setUserPassword");
      const missing = methods.filter((m) => typeof a[m] !== "function");
      expect(missing).toEqual(noGetAccount ? ["getAccount"] : []);
    });

    describe("users", () => {
      it("createUser returns the user with a generated id", async () => {
        const input = userInput();
        expect("id" in input).toBe(false);
        const user = await a.createUser(input);
        expect(typeof user.id).toBe("string");
        expect(user.id).not.toBe("");
        expect(userFields(user)).toEqual({ ...userFields(input), id: user.id });
        expect(user.emailVerified).toBeNull();
        const other = await createUser();
        expect(other.id).not.toBe(user.id);
      });

      it("createUser with an id returns a non-empty string id (kept or assigned) that getUser finds", async () => {
        const user = await a.createUser({ ...userInput(), id: crypto.randomUUID() });
        expect(typeof user.id).toBe("string");
        expect(user.id).not.toBe("");
        expect(userFields(await a.getUser(user.id))).toEqual(userFields(user));
      });

      it("getUser returns the user, or null for an unknown id", async () => {
        const user = await createUser();
        expect(userFields(await a.getUser(user.id))).toEqual(userFields(user));
        expect(await a.getUser(crypto.randomUUID())).toBeNull();
      });

      it("getUserByEmail returns the user, or null for an unknown email", async () => {
        const user = await createUser();
        await createUser();
        expect(userFields(await a.getUserByEmail(user.email))).toEqual(userFields(user));
        expect(await a.getUserByEmail("nobody@example.com")).toBeNull();
      });

      it("emailVerified round-trips as a Date (same instant)", async () => {
        const user = await createUser({ emailVerified: EMAIL_VERIFIED });
        expectSameInstant(user.emailVerified, EMAIL_VERIFIED);
        expectSameInstant((await a.getUser(user.id))?.emailVerified, EMAIL_VERIFIED);
        expectSameInstant((await a.getUserByEmail(user.email))?.emailVerified, EMAIL_VERIFIED);
      });

      it("updateUser changes only the given fields and returns the full user", async () => {
        const user = await createUser();
        const renamed = await a.updateUser({ id: user.id, name: "Countess of Lovelace" });
        expect(userFields(renamed)).toEqual({ ...userFields(user), name: "Countess of Lovelace" });
        expect(userFields(await a.getUser(user.id))).toEqual(userFields(renamed));

        const verified = await a.updateUser({ id: user.id, emailVerified: EMAIL_VERIFIED, image: null });
        expect(userFields(verified)).toEqual({ ...userFields(renamed), emailVerified: EMAIL_VERIFIED, image: null });
        expectSameInstant(verified.emailVerified, EMAIL_VERIFIED);
        const stored = await a.getUser(user.id);
        expect(userFields(stored)).toEqual(userFields(verified));
        expectSameInstant(stored?.emailVerified, EMAIL_VERIFIED);

        const unverified = await a.updateUser({ id: user.id, emailVerified: null });
        expect(unverified.emailVerified).toBeNull();
        expect((await a.getUser(user.id))?.emailVerified).toBeNull();
      });

      itUnless(target.limits?.emailKeptOnUpdate, "updateUser can change the email, and the user is found by the new one only", async () => {
        const user = await createUser();
        await a.updateUser({ id: user.id, email: "new-address@example.com" });
        expect((await a.getUserByEmail("new-address@example.com"))?.id).toBe(user.id);
        expect(await a.getUserByEmail(user.email)).toBeNull();
      });

      // The least an Auth.js adapter must do (one account, one session); the full cascade is the next test.
      it("deleteUser of a user with one account and one session removes all three", async () => {
        const user = await createUser();
        const account = oauthAccount(user.id);
        await a.linkAccount(account);
        const session = await a.createSession(sessionInput(user.id));
        await a.deleteUser(user.id);
        expect(await a.getUser(user.id)).toBeNull();
        expect(await a.getUserByAccount(account)).toBeNull();
        expect(await a.getSessionAndUser(session.sessionToken)).toBeNull();
      });

      itUnless(target.limits?.partialDeleteUser, "deleteUser removes the user and cascades to its accounts, sessions and authenticators", async () => {
        const user = await createUser();
        const keep = await createUser();
        const account = oauthAccount(user.id);
        const keptAccount = oauthAccount(keep.id);
        await a.linkAccount(account);
        await a.linkAccount(keptAccount);
        const session = await a.createSession(sessionInput(user.id));
        const keptSession = await a.createSession(sessionInput(keep.id));
        const credential = noAuthenticators ? undefined : (await createAuthenticator(user.id)).input.credentialID;
        const keptCredential = noAuthenticators ? undefined : (await createAuthenticator(keep.id)).input.credentialID;

        const deleted = await a.deleteUser(user.id);
        if (deleted) expect(deleted.id).toBe(user.id);

        expect(await a.getUser(user.id)).toBeNull();
        expect(await a.getUserByEmail(user.email)).toBeNull();
        expect(await a.getUserByAccount(account)).toBeNull();
        if (!noGetAccount) expect(await a.getAccount(account.providerAccountId, account.provider)).toBeNull();
        expect(await a.getSessionAndUser(session.sessionToken)).toBeNull();
        if (credential !== undefined) {
          expect(await a.getAuthenticator(credential)).toBeNull();
          expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([]);
        }
        // The other user's data is untouched.
        expect((await a.getUserByAccount(keptAccount))?.id).toBe(keep.id);
        expect((await a.getSessionAndUser(keptSession.sessionToken))?.user.id).toBe(keep.id);
        if (keptCredential !== undefined) expect((await a.getAuthenticator(keptCredential))?.userId).toBe(keep.id);
      });
    });

    describe("accounts", () => {
      itWithGetAccount("linkAccount then getUserByAccount and getAccount; every OAuth field round-trips", async () => {
        const user = await createUser();
        const account = oauthAccount(user.id);
        const linked = await a.linkAccount(account);
        if (linked) expect(linked).toMatchObject(account);

        expect(userFields(await a.getUserByAccount(account))).toEqual(userFields(user));
        const stored = await a.getAccount(account.providerAccountId, account.provider);
        expect(stored).toMatchObject(account);
        expect(stored?.expires_at).toBe(EXPIRES_AT);
        expect(typeof stored?.expires_at).toBe("number");
      });

      const tokenTypeSkip = noGetAccount ?? target.limits?.tokenTypeAsLinked;
      (tokenTypeSkip ? it.skip : it)(`token_type is returned lowercased even when linked as "Bearer"${tokenTypeSkip ? ` (skipped: ${tokenTypeSkip})` : ""}`, async () => {
        const user = await createUser();
        const account = oauthAccount(user.id, { token_type: "Bearer" });
        const linked = await a.linkAccount(account);
        if (linked) expect(linked.token_type).toBe("bearer");
        expect((await a.getAccount(account.providerAccountId, account.provider))?.token_type).toBe("bearer");
      });

      itWithGetAccount("an account without tokens (email sign-in) links and reads back", async () => {
        const user = await createUser();
        const account: AdapterAccount = { userId: user.id, type: "email", provider: "email", providerAccountId: user.email };
        await a.linkAccount(account);
        expect(await a.getAccount(user.email, "email")).toMatchObject(account);
        expect((await a.getUserByAccount(account))?.id).toBe(user.id);
      });

      it("getUserByAccount and getAccount return null for an unknown account; both key parts must match", async () => {
        const user = await createUser();
        const account = oauthAccount(user.id);
        await a.linkAccount(account);
        const otherProvider = { provider: "google", providerAccountId: account.providerAccountId };
        const otherId = { provider: account.provider, providerAccountId: "no-such-account" };
        expect(await a.getUserByAccount(otherProvider)).toBeNull();
        expect(await a.getUserByAccount(otherId)).toBeNull();
        if (noGetAccount) return;
        expect(await a.getAccount(otherProvider.providerAccountId, otherProvider.provider)).toBeNull();
        expect(await a.getAccount(otherId.providerAccountId, otherId.provider)).toBeNull();
      });

      it("one user can have several accounts", async () => {
        const user = await createUser();
        const github = oauthAccount(user.id);
        const google = oauthAccount(user.id, { type: "oidc", provider: "google", access_token: "ya29.google" });
        await a.linkAccount(github);
        await a.linkAccount(google);
        expect((await a.getUserByAccount(github))?.id).toBe(user.id);
        expect((await a.getUserByAccount(google))?.id).toBe(user.id);
        if (noGetAccount) return;
        expect(await a.getAccount(github.providerAccountId, "github")).toMatchObject(github);
        expect(await a.getAccount(google.providerAccountId, "google")).toMatchObject(google);
      });

      it("unlinkAccount removes the account and leaves the user and its other accounts", async () => {
        const user = await createUser();
        const github = oauthAccount(user.id);
        const google = oauthAccount(user.id, { provider: "google" });
        await a.linkAccount(github);
        await a.linkAccount(google);
        const removed = await a.unlinkAccount(github);
        if (removed) expect(removed).toMatchObject({ provider: "github", providerAccountId: github.providerAccountId });

        expect(await a.getUserByAccount(github)).toBeNull();
        if (!noGetAccount) expect(await a.getAccount(github.providerAccountId, "github")).toBeNull();
        expect((await a.getUserByAccount(google))?.id).toBe(user.id);
        expect((await a.getUser(user.id))?.id).toBe(user.id);
      });
    });

    // Read back through getAccount, so an adapter without it skips these too.
    describeUnless(noUpdateAccount ?? noGetAccount, "updateAccount (gatehouse extension)", () => {
      /** Links a GitHub account of a new user; returns both. */
      async function linked(fields: Partial<AdapterAccount> = {}) {
        const user = await createUser();
        const account = oauthAccount(user.id, fields);
        await a.linkAccount(account);
        return { user, account, key: { provider: account.provider, providerAccountId: account.providerAccountId } };
      }
      const stored = (key: { provider: string; providerAccountId: string }) => a.getAccount(key.providerAccountId, key.provider);

      it("changes only the given fields and returns the full account", async () => {
        const { account, key } = await linked();
        const updated = await a.updateAccount({ ...key, access_token: "gho_new_access", expires_at: LATER_EXPIRES_AT });
        const expected = { ...accountFields(account), access_token: "gho_new_access", expires_at: LATER_EXPIRES_AT };
        expect(accountFields(updated)).toEqual(expected);
        expect(accountFields(await stored(key))).toEqual(expected);
      });

      it("null clears a field; undefined keeps it; no field at all returns the account unchanged", async () => {
        const { account, key } = await linked();
        const update: AccountUpdate = { ...key, refresh_token: null, scope: null, id_token: undefined };
        const updated = await a.updateAccount(update);
        const expected = { ...accountFields(account), refresh_token: null, scope: null };
        expect(accountFields(updated)).toEqual(expected);
        expect(accountFields(await stored(key))).toEqual(expected);
        expect(accountFields(await a.updateAccount(key))).toEqual(expected);
      });

      it('token_type is stored and returned lowercased when updated to "Bearer"', async () => {
        const { key } = await linked({ token_type: "dpop" });
        expect((await a.updateAccount({ ...key, token_type: "Bearer" }))?.token_type).toBe("bearer");
        expect((await stored(key))?.token_type).toBe("bearer");
      });

      it("expires_at round-trips as a number of seconds, also beyond 32 bits", async () => {
        const { key } = await linked();
        const updated = await a.updateAccount({ ...key, expires_at: LATER_EXPIRES_AT });
        expect(updated?.expires_at).toBe(LATER_EXPIRES_AT);
        const read = await stored(key);
        expect(read?.expires_at).toBe(LATER_EXPIRES_AT);
        expect(typeof read?.expires_at).toBe("number");
      });

      it("an unknown account gets null and nothing is created; both key parts must match", async () => {
        const { account, key } = await linked();
        const unknown = { provider: "github", providerAccountId: "no-such-account" };
        expect(await a.updateAccount({ ...unknown, access_token: "x" })).toBeNull();
        expect(await a.updateAccount({ ...unknown, access_token: "x" }, { refresh_token: null })).toBeNull();
        expect(await stored(unknown)).toBeNull();
        expect(await a.getUserByAccount(unknown)).toBeNull();
        const otherProvider = { provider: "google", providerAccountId: key.providerAccountId };
        expect(await a.updateAccount({ ...otherProvider, access_token: "x" })).toBeNull();
        expect(await stored(otherProvider)).toBeNull();
        expect(accountFields(await stored(key))).toEqual(accountFields(account));
      });

      it("with a condition that holds (the stored refresh_token), the update happens", async () => {
        const { account, key } = await linked({ refresh_token: "ghr_old" });
        const updated = await a.updateAccount(
          { ...key, access_token: "gho_refreshed", refresh_token: "ghr_new" },
          { refresh_token: "ghr_old" },
        );
        const expected = { ...accountFields(account), access_token: "gho_refreshed", refresh_token: "ghr_new" };
        expect(accountFields(updated)).toEqual(expected);
        expect(accountFields(await stored(key))).toEqual(expected);
      });

      it("with a condition that does not hold, it returns null and changes nothing", async () => {
        const { account, key } = await linked({ refresh_token: "ghr_current" });
        const update: AccountUpdate = { ...key, access_token: "gho_refreshed", refresh_token: "ghr_new", scope: null };
        expect(await a.updateAccount(update, { refresh_token: "ghr_stale" })).toBeNull();
        // An account with a refresh token does not match "no refresh token".
        expect(await a.updateAccount(update, { refresh_token: null })).toBeNull();
        expect(accountFields(await stored(key))).toEqual(accountFields(account));
      });

      it("the condition { refresh_token: null } matches an account without a refresh token", async () => {
        const { account, key } = await linked({ refresh_token: undefined });
        const updated = await a.updateAccount({ ...key, refresh_token: "ghr_first" }, { refresh_token: null });
        const expected = { ...accountFields(account), refresh_token: "ghr_first" };
        expect(accountFields(updated)).toEqual(expected);
        expect(accountFields(await stored(key))).toEqual(expected);
        // Now it has one: the same condition no longer holds.
        expect(await a.updateAccount({ ...key, refresh_token: "ghr_second" }, { refresh_token: null })).toBeNull();
      });

      it("userId and type never change, even when the update carries them", async () => {
        const { user, account, key } = await linked();
        const other = await createUser();
        // Not in the type: a caller passing a whole account (say, the linked one with new tokens) must not move it.
        const update = { ...key, access_token: "gho_new_access", userId: other.id, type: "oidc" } as AccountUpdate;
        const updated = await a.updateAccount(update);
        const expected = { ...accountFields(account), access_token: "gho_new_access" };
        expect(accountFields(updated)).toEqual(expected);
        expect(accountFields(await stored(key))).toEqual(expected);
        expect((await a.getUserByAccount(key))?.id).toBe(user.id);
      });

      it("two concurrent conditional updates with the same condition: exactly one wins", async () => {
        const { account, key } = await linked({ refresh_token: "ghr_shared" });
        // Two servers refreshing the same account at once, each with the refresh token it read.
        const results = await Promise.all(
          ["a", "b"].map((server) =>
            attempt(() =>
              a.updateAccount(
                { ...key, access_token: `gho_from_${server}`, refresh_token: `ghr_from_${server}` },
                { refresh_token: "ghr_shared" },
              ),
            ),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        const expected = { ...accountFields(account), access_token: winners[0]?.access_token, refresh_token: winners[0]?.refresh_token };
        expect(expected.refresh_token).toMatch(/^ghr_from_[ab]$/);
        expect(accountFields(await stored(key))).toEqual(expected);
      });
    });

    describeCreateUserWithAccount({
      skip: noCreateUserWithAccount,
      adapter: () => a,
      next,
      userInput,
      attempt,
      userFields,
      noAuthenticators,
      noGetAccount,
    });

    describeAdoptUnprovenUser({
      skip: noAdoptUnprovenUser,
      adapter: () => a,
      next,
      userInput,
      userFields,
      expectSameInstant,
      noAuthenticators,
      noGetAccount,
    });

    describeUserPasswords({
      skip: noUserPasswords,
      adapter: () => a,
      next,
      userInput,
      attempt,
      userFields,
      expectSameInstant,
      noAdoptUnprovenUser,
    });

    describeUserSessions({ skip: noUserSessions, noUserPasswords, adapter: () => a, next, userInput });

    describeSignInMethods({ skip: target.limits?.noSignInMethods ?? noAuthenticators, adapter: () => a, next, userInput });

    describeAddedColumns({
      columns: target.addedColumns,
      noUserPasswords,
      fixedColumnWrites: target.limits?.fixedColumnWrites,
      adapter: () => a,
      next,
      userInput,
    });

    describe("sessions", () => {
      it("createSession returns the session with expires as a Date", async () => {
        const user = await createUser();
        const input = sessionInput(user.id);
        const session = await a.createSession(input);
        expect(session).toMatchObject({ sessionToken: input.sessionToken, userId: user.id });
        expectSameInstant(session.expires, EXPIRES);
      });

      it("getSessionAndUser returns the session and its user, or null for an unknown token", async () => {
        const user = await createUser({ emailVerified: EMAIL_VERIFIED });
        const { sessionToken } = await a.createSession(sessionInput(user.id));
        const found = await a.getSessionAndUser(sessionToken);
        expect(found?.session).toMatchObject({ sessionToken, userId: user.id });
        expectSameInstant(found?.session.expires, EXPIRES);
        expect(userFields(found?.user)).toEqual(userFields(user));
        expectSameInstant(found?.user.emailVerified, EMAIL_VERIFIED);
        expect(await a.getSessionAndUser("no-such-session-token")).toBeNull();
      });

      it("getSessionAndUser returns both rows whole: all createSession returned (its id too), the user as getUser does", async () => {
        const user = await createUser({ emailVerified: EMAIL_VERIFIED });
        const created = await a.createSession(sessionInput(user.id));
        const found = await a.getSessionAndUser(created.sessionToken);
        expect(found?.session).toMatchObject(created);
        expect(found?.user).toEqual(await a.getUser(user.id));
      });

      it("updateSession changes expires (and returns the session when it returns one)", async () => {
        const user = await createUser();
        const { sessionToken } = await a.createSession(sessionInput(user.id));
        const updated = await a.updateSession({ sessionToken, expires: LATER });
        if (updated) {
          expect(updated).toMatchObject({ sessionToken, userId: user.id });
          expectSameInstant(updated.expires, LATER);
        }
        const found = await a.getSessionAndUser(sessionToken);
        expect(found?.session.userId).toBe(user.id);
        expectSameInstant(found?.session.expires, LATER);
      });

      it("updateSession of an unknown token creates nothing", async () => {
        // Returning null or failing are both fine (core never updates a session it did not find); creating one is not.
        const updated = await attempt(() => a.updateSession({ sessionToken: "no-such-session-token", expires: LATER })).catch(
          () => null,
        );
        expect(updated ?? null).toBeNull();
        expect(await a.getSessionAndUser("no-such-session-token")).toBeNull();
      });

      it("deleteSession removes only that session; deleting it again does not throw", async () => {
        const user = await createUser();
        const session = await a.createSession(sessionInput(user.id));
        const other = await a.createSession(sessionInput(user.id));
        const deleted = await a.deleteSession(session.sessionToken);
        if (deleted) expect(deleted.sessionToken).toBe(session.sessionToken);
        expect(await a.getSessionAndUser(session.sessionToken)).toBeNull();
        await a.deleteSession(session.sessionToken); // sign-out twice (two tabs) must not fail
        expect((await a.getSessionAndUser(other.sessionToken))?.session.sessionToken).toBe(other.sessionToken);
      });
    });

    describe("verification tokens", () => {
      const tokenInput = (identifier = "ada@example.com") => ({ identifier, token: next("hashed-token"), expires: EXPIRES });

      it("useVerificationToken returns the token once (expires as a Date), then null", async () => {
        const input = tokenInput();
        const created = await a.createVerificationToken(input);
        if (created) expect(created).toMatchObject({ identifier: input.identifier, token: input.token });
        const used = await a.useVerificationToken({ identifier: input.identifier, token: input.token });
        expect(used).toMatchObject({ identifier: input.identifier, token: input.token });
        expectSameInstant(used?.expires, EXPIRES);
        expect(await a.useVerificationToken({ identifier: input.identifier, token: input.token })).toBeNull();
      });

      it("a wrong identifier or a wrong token gets null and leaves the token usable", async () => {
        const input = tokenInput();
        await a.createVerificationToken(input);
        expect(await a.useVerificationToken({ identifier: "eve@example.com", token: input.token })).toBeNull();
        expect(await a.useVerificationToken({ identifier: input.identifier, token: "wrong-token" })).toBeNull();
        expect(await a.useVerificationToken(input)).toMatchObject({ identifier: input.identifier, token: input.token });
      });

      it("a used token can be stored again with the same value, and is used once more", async () => {
        const input = tokenInput();
        await a.createVerificationToken(input);
        expect(await a.useVerificationToken(input)).toMatchObject({ token: input.token });
        await a.createVerificationToken({ ...input, expires: LATER });
        const again = await a.useVerificationToken(input);
        expect(again).toMatchObject({ identifier: input.identifier, token: input.token });
        expectSameInstant(again?.expires, LATER);
        expect(await a.useVerificationToken(input)).toBeNull();
      });

      it("tokens of the same identifier are used independently", async () => {
        const first = tokenInput();
        const second = tokenInput();
        await a.createVerificationToken(first);
        await a.createVerificationToken(second);
        expect((await a.useVerificationToken(first))?.token).toBe(first.token);
        expect((await a.useVerificationToken(second))?.token).toBe(second.token);
      });
    });

    describeUnless(noAuthenticators, "authenticators", () => {
      it("createAuthenticator returns it with typed fields; getAuthenticator finds it, or null", async () => {
        const user = await createUser();
        const { input, created } = await createAuthenticator(user.id);
        expect(created).toMatchObject(input);
        const stored = await a.getAuthenticator(input.credentialID);
        expect(stored).toMatchObject(input);
        expect(stored?.counter).toBe(0);
        expect(stored?.credentialBackedUp).toBe(false);
        expect(stored?.transports).toBe("usb,nfc");
        expect(await a.getAuthenticator("no-such-credential")).toBeNull();
      });

      it("credentialBackedUp true and absent transports round-trip (transports as null)", async () => {
        const user = await createUser();
        const { input } = await createAuthenticator(user.id, { credentialBackedUp: true, transports: undefined });
        const stored = await a.getAuthenticator(input.credentialID);
        expect(stored?.credentialBackedUp).toBe(true);
        expect(stored?.transports ?? null).toBeNull();
      });

      itUnless(noUniqueness, "creating a duplicate credentialID throws", async () => {
        const user = await createUser();
        const { input } = await createAuthenticator(user.id);
        await expect(attempt(() => a.createAuthenticator({ ...input, counter: 5 }))).rejects.toThrow();
        expect((await a.getAuthenticator(input.credentialID))?.counter).toBe(0);
      });

      it("listAuthenticatorsByUserId returns all of a user's authenticators, [] for an unknown user", async () => {
        const user = await createUser();
        const other = await createUser();
        const first = await createAuthenticator(user.id);
        const second = await createAuthenticator(user.id, { credentialDeviceType: "multiDevice", credentialBackedUp: true });
        const others = await createAuthenticator(other.id);
        const listed = await a.listAuthenticatorsByUserId(user.id);
        const byId = [...listed].sort((x, y) => x.credentialID.localeCompare(y.credentialID));
        const expected = [first.input, second.input].sort((x, y) => x.credentialID.localeCompare(y.credentialID));
        expect(byId).toHaveLength(2);
        expect(byId[0]).toMatchObject(expected[0] ?? {});
        expect(byId[1]).toMatchObject(expected[1] ?? {});
        const otherListed = await a.listAuthenticatorsByUserId(other.id);
        expect(otherListed).toHaveLength(1);
        expect(otherListed[0]).toMatchObject(others.input);
        expect(await a.listAuthenticatorsByUserId(crypto.randomUUID())).toEqual([]);
      });

      it("updateAuthenticatorCounter returns the updated authenticator and throws for an unknown one", async () => {
        const user = await createUser();
        const { input } = await createAuthenticator(user.id);
        const updated = await a.updateAuthenticatorCounter(input.credentialID, 7);
        expect(updated).toMatchObject({ ...input, counter: 7 });
        expect((await a.getAuthenticator(input.credentialID))?.counter).toBe(7);
        await expect(attempt(() => a.updateAuthenticatorCounter("no-such-credential", 1))).rejects.toThrow();
      });
    });

    describeUnless(target.limits?.noExtraFields, "extra fields", () => {
      it("a user's extra field is kept, also across updateUser", async () => {
        const input = { ...userInput(), role: "admin" };
        const user = (await a.createUser(input)) as AdapterUser & { role?: unknown };
        expect(user.role).toBe("admin");
        expect(((await a.getUser(user.id)) as typeof user | null)?.role).toBe("admin");
        await a.updateUser({ id: user.id, name: "Renamed" });
        expect(((await a.getUserByEmail(user.email)) as typeof user | null)?.role).toBe("admin");
      });

      it("an account's extra field is kept", async () => {
        const user = await createUser();
        const account = oauthAccount(user.id, { refresh_token_expires_in: 15_897_600 });
        await a.linkAccount(account);
        const stored = await a.getAccount(account.providerAccountId, account.provider);
        expect(stored?.refresh_token_expires_in).toBe(15_897_600);
      });

      (noUpdateAccount ? it.skip : it)(
        `an account's extra field is kept across updateAccount${noUpdateAccount ? ` (skipped: ${noUpdateAccount})` : ""}`,
        async () => {
          const user = await createUser();
          const account = oauthAccount(user.id, { refresh_token_expires_in: 15_897_600 });
          await a.linkAccount(account);
          const updated = await a.updateAccount({ ...account, access_token: "gho_new_access" } as AccountUpdate);
          expect(updated?.refresh_token_expires_in).toBe(15_897_600);
          expect((await a.getAccount(account.providerAccountId, account.provider))?.refresh_token_expires_in).toBe(15_897_600);
        },
      );
    });

    describeUnless(noUniqueness, "uniqueness, also under concurrency", () => {
      it("two concurrent createUser with the same email: exactly one succeeds", async () => {
        const email = "race@example.com";
        const results = await Promise.allSettled([
          attempt(() => createUser({ email, name: "First" })),
          attempt(() => createUser({ email, name: "Second" })),
        ]);
        const winner = onlyOneSucceeded(results);
        expect((await a.getUserByEmail(email))?.name).toBe(winner === 0 ? "First" : "Second");
      });

      it("createUser with a taken email throws and leaves the first user", async () => {
        const user = await createUser();
        await expect(attempt(() => createUser({ email: user.email, name: "Impostor" }))).rejects.toThrow();
        expect(userFields(await a.getUserByEmail(user.email))).toEqual(userFields(user));
      });

      it("updateUser to another user's email throws and changes nothing", async () => {
        const user = await createUser();
        const other = await createUser();
        await expect(attempt(() => a.updateUser({ id: other.id, email: user.email }))).rejects.toThrow();
        expect((await a.getUserByEmail(user.email))?.id).toBe(user.id);
        expect((await a.getUser(other.id))?.email).toBe(other.email);
      });

      it("two concurrent linkAccount of the same provider account: exactly one succeeds", async () => {
        const users = [await createUser(), await createUser()];
        const key = { provider: "github", providerAccountId: "contested" };
        const results = await Promise.allSettled(
          users.map((user) => attempt(() => a.linkAccount(oauthAccount(user.id, key)))),
        );
        const winner = onlyOneSucceeded(results);
        expect((await a.getUserByAccount(key))?.id).toBe(users[winner]?.id);
      });

      it("linking a provider account that is already linked throws", async () => {
        const user = await createUser();
        const other = await createUser();
        const account = oauthAccount(user.id);
        await a.linkAccount(account);
        await expect(attempt(() => a.linkAccount({ ...account, userId: other.id }))).rejects.toThrow();
        expect((await a.getUserByAccount(account))?.id).toBe(user.id);
      });
    });

    describe("returned objects are copies", () => {
      it("mutating a user passed in or returned does not change the stored user", async () => {
        const input = userInput({ emailVerified: new Date(EMAIL_VERIFIED) });
        const created = await a.createUser(input);
        // A deep copy: `created.emailVerified` is mutated below.
        const expected = structuredClone(userFields(created));
        input.name = "changed input";
        input.emailVerified?.setTime(0);
        created.name = "changed result";
        created.emailVerified?.setTime(0);
        const fetched = await a.getUser(expected.id);
        expect(userFields(fetched)).toEqual(expected);
        if (fetched) fetched.name = "changed again";
        expect(userFields(await a.getUser(expected.id))).toEqual(expected);
        expect(userFields(await a.getUserByEmail(expected.email))).toEqual(expected);
      });

      it("mutating a returned session or its user does not change the stored ones", async () => {
        const user = await createUser();
        // A Date of its own: an adapter may return the object it was given, and the test mutates it.
        const created = await a.createSession(sessionInput(user.id, new Date(EXPIRES)));
        created.expires.setTime(0);
        created.userId = "someone-else";
        const found = await a.getSessionAndUser(created.sessionToken);
        expectSameInstant(found?.session.expires, EXPIRES);
        expect(found?.session.userId).toBe(user.id);
        const session = found?.session as AdapterSession;
        session.expires.setTime(0);
        if (found) found.user.name = "changed";
        const again = await a.getSessionAndUser(created.sessionToken);
        expectSameInstant(again?.session.expires, EXPIRES);
        expect(again?.user.name).toBe(user.name);
      });

      itWithGetAccount("mutating a returned account does not change the stored account", async () => {
        const user = await createUser();
        const account = oauthAccount(user.id);
        await a.linkAccount(account);
        const fetched = await a.getAccount(account.providerAccountId, account.provider);
        if (fetched) fetched.access_token = "changed";
        expect((await a.getAccount(account.providerAccountId, account.provider))?.access_token).toBe(account.access_token);
      });
    });
  });
}
