/**
 * The conformance tests of `createUserWithAccount` (a gatehouse extension):
 * user, account and authenticator are stored together, or, when any part is
 * refused, none of them. Part of `runAdapterConformance`, which gives the
 * adapter under test and its helpers; like it, this talks to the adapter only.
 */
import { describe, expect, it } from "vitest";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "@gatehouse/runtime";

type NewUser = Parameters<NonNullable<Adapter["createUserWithAccount"]>>[0];
type NewAccount = Parameters<NonNullable<Adapter["createUserWithAccount"]>>[1];
type NewAuthenticator = Omit<AdapterAuthenticator, "userId">;

export interface CreateUserWithAccountSuite {
  /** Why the adapter lacks the method (Auth.js adapters do): the tests are skipped with this reason. */
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
  noAuthenticators: string | undefined;
  noGetAccount: string | undefined;
}

export function describeCreateUserWithAccount(suite: CreateUserWithAccountSuite): void {
  const { next, userInput, attempt, userFields, noAuthenticators, noGetAccount } = suite;
  const a = () => suite.adapter();
  const withAuthenticators = noAuthenticators ? it.skip : it;
  const withGetAccount = noGetAccount ? it.skip : it;

  const newAccount = (fields: Partial<AdapterAccount> = {}): NewAccount => ({
    type: "oidc",
    provider: "google",
    providerAccountId: next("google"),
    access_token: "ya29.access",
    refresh_token: "1//refresh",
    expires_at: 1_900_000_000,
    id_token: "eyJhbGciOiJSUzI1NiJ9.e30.signature",
    scope: "openid email",
    token_type: "Bearer",
    ...fields,
  });

  /** A passkey sign-up's account and authenticator: the account's providerAccountId is the credential id. */
  function passkey(credentialID = next("credential")): { account: NewAccount; authenticator: NewAuthenticator } {
    return {
      account: { type: "webauthn", provider: "passkey", providerAccountId: credentialID },
      authenticator: {
        credentialID,
        providerAccountId: credentialID,
        credentialPublicKey: "pQECAyYgASFYIG1vY2sta2V5",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: true,
        transports: "internal",
      },
    };
  }

  const keyOf = (account: NewAccount) => ({ provider: account.provider, providerAccountId: account.providerAccountId });

  const title = "createUserWithAccount (gatehouse extension)";
  (suite.skip ? describe.skip : describe)(suite.skip ? `${title} (skipped: ${suite.skip})` : title, () => {
    it("creates the user and links the account; returns the user with its id; the reads find both", async () => {
      const input = userInput();
      const account = newAccount();
      const user = await a().createUserWithAccount(input as NewUser, account);
      expect(typeof user.id).toBe("string");
      expect(user.id).not.toBe("");
      expect(userFields(user)).toEqual({ ...userFields(input), id: user.id });
      expect(userFields(await a().getUser(user.id))).toEqual(userFields(user));
      expect(userFields(await a().getUserByEmail(input.email))).toEqual(userFields(user));
      expect(userFields(await a().getUserByAccount(keyOf(account)))).toEqual(userFields(user));
    });

    withGetAccount(`the account is stored as linkAccount stores it (token_type lowercased)${noGetAccount ? ` (skipped: ${noGetAccount})` : ""}`, async () => {
      const account = newAccount();
      const user = await a().createUserWithAccount(userInput() as NewUser, account);
      const stored = await a().getAccount(account.providerAccountId, account.provider);
      expect(stored).toMatchObject({ ...account, userId: user.id, token_type: "bearer" });
      expect(stored?.expires_at).toBe(1_900_000_000);
    });

    it("a given user id is kept or replaced, and the account belongs to the returned user; a userId the account carries is ignored", async () => {
      const other = await a().createUser(userInput());
      const account = { ...newAccount(), userId: other.id } as NewAccount;
      const user = await a().createUserWithAccount({ ...userInput(), id: crypto.randomUUID() }, account);
      expect(user.id).not.toBe(other.id);
      expect((await a().getUser(user.id))?.id).toBe(user.id);
      expect((await a().getUserByAccount(keyOf(account)))?.id).toBe(user.id);
    });

    withAuthenticators(`with an authenticator (passkey sign-up): all three stored, found by getAuthenticator${noAuthenticators ? ` (skipped: ${noAuthenticators})` : ""}`, async () => {
      const input = userInput();
      const { account, authenticator } = passkey();
      const user = await a().createUserWithAccount({ ...input, id: crypto.randomUUID() }, account, authenticator);
      expect(userFields(await a().getUserByEmail(input.email))).toEqual(userFields(user));
      expect((await a().getUserByAccount(keyOf(account)))?.id).toBe(user.id);
      expect(await a().getAuthenticator(authenticator.credentialID)).toMatchObject({ ...authenticator, userId: user.id });
      expect((await a().listAuthenticatorsByUserId(user.id)).map((x) => x.credentialID)).toEqual([authenticator.credentialID]);
    });

    it("a taken email: throws, and neither the account nor the authenticator is stored", async () => {
      const first = await a().createUser(userInput());
      const { account, authenticator } = passkey();
      const args: [NewUser, NewAccount, NewAuthenticator?] = [userInput({ email: first.email, name: "Impostor" }), account];
      if (!noAuthenticators) args.push(authenticator);
      await expect(attempt(() => a().createUserWithAccount(...args))).rejects.toThrow();
      expect(userFields(await a().getUserByEmail(first.email))).toEqual(userFields(first));
      expect(await a().getUserByAccount(keyOf(account))).toBeNull();
      if (!noGetAccount) expect(await a().getAccount(account.providerAccountId, account.provider)).toBeNull();
      if (!noAuthenticators) {
        expect(await a().getAuthenticator(authenticator.credentialID)).toBeNull();
        expect(await a().listAuthenticatorsByUserId(first.id)).toEqual([]);
      }
    });

    it("a provider account linked already: throws, and no user is created", async () => {
      const owner = await a().createUser(userInput());
      const account = newAccount();
      await a().linkAccount({ ...account, userId: owner.id } as AdapterAccount);
      const input = userInput();
      await expect(attempt(() => a().createUserWithAccount(input as NewUser, { ...account, access_token: "other" }))).rejects.toThrow();
      expect(await a().getUserByEmail(input.email)).toBeNull();
      expect((await a().getUserByAccount(keyOf(account)))?.id).toBe(owner.id);
      // The email is still free: nothing of the failed call holds it.
      expect((await a().createUserWithAccount(input as NewUser, newAccount())).email).toBe(input.email);
    });

    withAuthenticators(`a credential id stored already: throws, and neither the user nor the account is stored${noAuthenticators ? ` (skipped: ${noAuthenticators})` : ""}`, async () => {
      const first = passkey();
      const owner = await a().createUserWithAccount(userInput() as NewUser, first.account, first.authenticator);
      // Another account key, the same credential id: only the authenticator insert can fail.
      const account = newAccount();
      const input = userInput();
      await expect(attempt(() => a().createUserWithAccount(input as NewUser, account, { ...first.authenticator, counter: 9 }))).rejects.toThrow();
      expect(await a().getUserByEmail(input.email)).toBeNull();
      expect(await a().getUserByAccount(keyOf(account))).toBeNull();
      if (!noGetAccount) expect(await a().getAccount(account.providerAccountId, account.provider)).toBeNull();
      expect(await a().getAuthenticator(first.authenticator.credentialID)).toMatchObject({ userId: owner.id, counter: 0 });
    });

    it("two concurrent calls for the same new person: exactly one succeeds, and its user owns the account", async () => {
      const email = `${next("race")}@example.com`;
      const account = newAccount();
      const results = await Promise.allSettled(
        ["First", "Second"].map((name) => attempt(() => a().createUserWithAccount(userInput({ email, name }) as NewUser, account))),
      );
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const winner = results.find((r): r is PromiseFulfilledResult<AdapterUser> => r.status === "fulfilled")!.value;
      expect((await a().getUserByEmail(email))?.id).toBe(winner.id);
      expect((await a().getUserByAccount(keyOf(account)))?.id).toBe(winner.id);
    });
  });
}
