/**
 * The conformance tests of a user's ways to sign in as an account page lists
 * and changes them (gatehouse extensions): `listAccountsByUserId`;
 * `renameAuthenticator` and `deleteAuthenticator`, which act on the given
 * user's own passkey only; the passkey's name, registration and last use
 * (`createAuthenticator`, `updateAuthenticatorCounter`). Part of
 * `runAdapterConformance`; like it, this talks to the adapter only.
 */
import { describe, expect, it } from "vitest";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "@gatehouse/runtime";

export interface SignInMethodsSuite {
  /** Why the adapter lacks the methods (Auth.js adapters do): the tests are skipped with this reason. */
  skip: string | undefined;
  adapter(): Required<Adapter>;
  next(prefix: string): string;
  userInput(fields?: Partial<AdapterUser>): AdapterUser;
}

const CLOCK_SKEW_MS = 60_000;

export function describeSignInMethods(suite: SignInMethodsSuite): void {
  const { next, userInput } = suite;
  const a = () => suite.adapter();

  /** A passkey as a registration stores it: its webauthn account, then its authenticator. */
  async function passkey(userId: string, name?: string): Promise<AdapterAuthenticator> {
    const credentialID = next("credential");
    await a().linkAccount({ userId, type: "webauthn", provider: "passkey", providerAccountId: credentialID });
    return a().createAuthenticator({
      userId,
      credentialID,
      providerAccountId: credentialID,
      credentialPublicKey: "pQECAyYgASFYIG1vY2sta2V5",
      counter: 0,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal",
      ...(name === undefined ? {} : { name }),
    });
  }

  const oauth = (userId: string, provider: string): AdapterAccount => ({ userId, type: "oidc", provider, providerAccountId: next(provider), access_token: "at" });
  const keys = (accounts: AdapterAccount[]) => accounts.map((account) => `${account.type}:${account.provider}`);

  const title = "a user's ways to sign in (gatehouse extension)";
  (suite.skip ? describe.skip : describe)(suite.skip ? `${title} (skipped: ${suite.skip})` : title, () => {
    it("listAccountsByUserId: every account of the user, by provider; another user's are not among them", async () => {
      const user = await a().createUser(userInput());
      const other = await a().createUser(userInput());
      await a().linkAccount(oauth(user.id, "keycloak"));
      await a().linkAccount(oauth(user.id, "github"));
      await passkey(user.id);
      await a().linkAccount(oauth(other.id, "github"));
      expect(keys(await a().listAccountsByUserId(user.id))).toEqual(["oidc:github", "oidc:keycloak", "webauthn:passkey"]);
      expect((await a().listAccountsByUserId(user.id)).every((account) => account.userId === user.id)).toBe(true);
      expect(await a().listAccountsByUserId(crypto.randomUUID())).toEqual([]);
    });

    it("a passkey keeps its name and when it was registered; listAuthenticatorsByUserId shows them, and the last use once it signs in", async () => {
      const user = await a().createUser(userInput());
      const before = Date.now();
      const named = await passkey(user.id, "Firefox on Linux");
      await passkey(user.id);
      const listed = await a().listAuthenticatorsByUserId(user.id);
      const mine = listed.find((x) => x.credentialID === named.credentialID)!;
      expect(mine.name).toBe("Firefox on Linux");
      expect(mine.lastUsedAt ?? null).toBeNull();
      expect(Math.abs(mine.createdAt!.getTime() - before)).toBeLessThan(CLOCK_SKEW_MS);
      expect(listed.find((x) => x.credentialID !== named.credentialID)?.name ?? null).toBeNull();
      await a().updateAuthenticatorCounter(named.credentialID, 3);
      const used = (await a().listAuthenticatorsByUserId(user.id)).find((x) => x.credentialID === named.credentialID)!;
      expect(Math.abs(used.lastUsedAt!.getTime() - Date.now())).toBeLessThan(CLOCK_SKEW_MS);
    });

    it("renameAuthenticator renames the user's own passkey; another user's (or none) is null and unchanged", async () => {
      const user = await a().createUser(userInput());
      const mallory = await a().createUser(userInput());
      const key = await passkey(user.id, "Old name");
      expect((await a().renameAuthenticator(user.id, key.credentialID, "Work laptop"))?.name).toBe("Work laptop");
      expect(await a().renameAuthenticator(mallory.id, key.credentialID, "Pwned")).toBeNull();
      expect(await a().renameAuthenticator(user.id, "no-such-credential", "x")).toBeNull();
      expect((await a().listAuthenticatorsByUserId(user.id))[0]?.name).toBe("Work laptop");
      expect((await a().renameAuthenticator(user.id, key.credentialID, null))?.name).toBeNull();
    });

    it("deleteAuthenticator removes the user's own passkey and its webauthn account; another user's (or none) is null and kept", async () => {
      const user = await a().createUser(userInput());
      const mallory = await a().createUser(userInput());
      const kept = await passkey(user.id);
      const removed = await passkey(user.id);
      expect(await a().deleteAuthenticator(mallory.id, kept.credentialID)).toBeNull();
      expect(await a().getAuthenticator(kept.credentialID)).not.toBeNull();
      expect(await a().deleteAuthenticator(user.id, "no-such-credential")).toBeNull();
      expect((await a().deleteAuthenticator(user.id, removed.credentialID))?.credentialID).toBe(removed.credentialID);
      expect(await a().getAuthenticator(removed.credentialID)).toBeNull();
      expect(await a().getUserByAccount({ provider: "passkey", providerAccountId: removed.credentialID })).toBeNull();
      expect((await a().listAuthenticatorsByUserId(user.id)).map((x) => x.credentialID)).toEqual([kept.credentialID]);
      expect((await a().getUserByAccount({ provider: "passkey", providerAccountId: kept.credentialID }))?.id).toBe(user.id);
      expect(await a().deleteAuthenticator(user.id, removed.credentialID)).toBeNull();
    });
  });
}
