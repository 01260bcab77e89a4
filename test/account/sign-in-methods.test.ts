/**
 * The ways to sign in on the account page, through the handler: the linked
 * and linkable providers and the passkeys in `GET account`; `unlink-account`,
 * `rename-passkey` and `remove-passkey`, which act on the user's own only and
 * never remove the last way in. Passkeys are registered through the handler
 * with a software authenticator; a provider link is stored as the OAuth
 * callback stores it (the OAuth flow itself is tested in test/oauth).
 * Memory adapter and PostgreSQL (PGlite), JWT and database sessions.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { GitHub, Keycloak, Passkey } from "@gatehouse/runtime/providers";
import { call, CookieJar, locationOf } from "../helpers.js";
import { confirmedUser, passwordProvider, post, sessionEmail } from "../password-accounts/support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "../password-accounts/support/world.js";
import { newAuthenticator, signUp as passkeySignUp, fetchOptions, postCallback } from "../webauthn/support/flow.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
import { ACCOUNT_PAGE, accountConfig, ADA, MALLORY, PASSWORD } from "./support/config.js";

const world = usePasswordWorld();

eachStoreAndStrategy(
  world,
  (adapter, strategy) =>
    accountConfig(adapter, strategy, {
      experimental: { enableWebAuthn: true },
      providers: [
        passwordProvider(world.mail),
        GitHub({ clientId: "github-client", clientSecret: "github-secret" }),
        Keycloak({ clientId: "keycloak-client", clientSecret: "keycloak-secret", issuer: "http://127.0.0.1:1/realms/test" }),
        Passkey(),
      ],
    }),
  (current) => {
    let adapter: Adapter;
    let config: AuthConfig;
    beforeEach(() => {
      ({ adapter, config } = current());
    });

    async function account(jar: CookieJar) {
      return (await (await call(config, "/auth/account", { jar })).json()) as any;
    }

    const form = (jar: CookieJar, action: string, fields: Record<string, string>) => post(config, jar, `/auth/${action}`, { callbackUrl: ACCOUNT_PAGE, ...fields });

    /** Where the form came back, and with what refusal. */
    async function outcome(response: Response) {
      const location = locationOf(response);
      return { page: `${location.origin}${location.pathname}`, error: location.searchParams.get("error"), code: location.searchParams.get("code") };
    }

    /** Links a GitHub account to the user, as the OAuth callback stores it. */
    async function linkGitHub(email: string, id = `gh-${email}`) {
      const user = await adapter.getUserByEmail!(email);
      await adapter.linkAccount!({ userId: user!.id, type: "oauth", provider: "github", providerAccountId: id, access_token: "gho_token", token_type: "bearer" });
    }

    /** Registers a passkey for the signed-in user of `jar`, from Chrome on Linux. */
    async function addPasskey(jar: CookieJar) {
      const authenticator = newAuthenticator();
      const { body } = await fetchOptions(config, jar, { action: "register" });
      expect(body.action).toBe("register");
      const { response: data } = authenticator.register(body.options);
      const response = await postCallback(config, jar, "register", data, { headers: { "user-agent": CHROME } });
      expect(response.status).toBe(302);
      return authenticator;
    }

    /** A user who signed up with a passkey only: no password, no provider. */
    async function passkeyOnlyUser(email: string) {
      const jar = new CookieJar();
      const { response } = await passkeySignUp(config, jar, newAuthenticator(), email);
      expect(response.status).toBe(302);
      return jar;
    }

    describe("GET account: signInMethods", () => {
      it("the linked providers, those that can be linked, and the passkeys named after the browser that registered them", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await linkGitHub(ADA);
        await addPasskey(jar);
        const body = await account(jar);
        expect(body.hasPassword).toBe(true);
        expect(body.signInMethods.linked).toEqual([{ provider: "github", name: "GitHub" }]);
        expect(body.signInMethods.linkable).toEqual([{ provider: "keycloak", name: "Keycloak" }]);
        expect(body.signInMethods.emailLink).toBe(false);
        expect(body.signInMethods.passkeys).toEqual([
          { id: expect.any(String), name: "Chrome on Linux", createdAt: expect.any(String), lastUsedAt: null, backedUp: expect.any(Boolean) },
        ]);
        // No token of the linked account is shown.
        expect(JSON.stringify(body)).not.toContain("gho_token");
      });
    });

    describe("POST unlink-account", () => {
      it("Mallory cannot unlink Ada's provider: only her own links are looked at", async () => {
        await confirmedUser(config, world.mail, ADA, PASSWORD);
        await linkGitHub(ADA);
        const { jar: mallory } = await confirmedUser(config, world.mail, MALLORY, PASSWORD);
        expect(await outcome(await form(mallory, "unlink-account", { provider: "github" }))).toEqual({ page: ACCOUNT_PAGE, error: "AccountUnlink", code: "unknown-provider" });
        expect((await adapter.getUserByAccount!({ provider: "github", providerAccountId: `gh-${ADA}` }))?.email).toBe(ADA);
      });

      it("with a password left: unlinked, and GitHub is linkable again", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await linkGitHub(ADA);
        expect(await outcome(await form(jar, "unlink-account", { provider: "github" }))).toEqual({ page: ACCOUNT_PAGE, error: null, code: null });
        expect(await adapter.getUserByAccount!({ provider: "github", providerAccountId: `gh-${ADA}` })).toBeNull();
        expect((await account(jar)).signInMethods.linkable.map((p: any) => p.provider)).toEqual(["github", "keycloak"]);
      });

      it("the last way in: refused, the link stays; once a passkey is added, allowed", async () => {
        const jar = await passkeyOnlyUser(ADA);
        await linkGitHub(ADA);
        const [passkey] = (await account(jar)).signInMethods.passkeys;
        // The passkey goes first (GitHub is left)...
        expect((await outcome(await form(jar, "remove-passkey", { passkeyId: passkey.id }))).code).toBeNull();
        // ...then GitHub is the only way in, and stays.
        expect((await outcome(await form(jar, "unlink-account", { provider: "github" }))).code).toBe("last-sign-in-method");
        expect((await adapter.getUserByAccount!({ provider: "github", providerAccountId: `gh-${ADA}` }))?.email).toBe(ADA);
        await addPasskey(jar);
        expect((await outcome(await form(jar, "unlink-account", { provider: "github" }))).code).toBeNull();
        expect(await adapter.getUserByAccount!({ provider: "github", providerAccountId: `gh-${ADA}` })).toBeNull();
      });

      it("without the CSRF token, or a provider that is not linked: refused, nothing unlinked", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await linkGitHub(ADA);
        const forged = await call(config, "/auth/unlink-account", { jar, form: { provider: "github", callbackUrl: ACCOUNT_PAGE } });
        expect(locationOf(forged).searchParams.get("error")).toBe("MissingCSRF");
        for (const provider of ["keycloak", "password", "passkey", ""]) {
          expect((await outcome(await form(jar, "unlink-account", { provider }))).code, provider).toBe("unknown-provider");
        }
        expect((await adapter.getUserByAccount!({ provider: "github", providerAccountId: `gh-${ADA}` }))?.email).toBe(ADA);
      });
    });

    describe("passkeys", () => {
      it("Mallory cannot rename or remove Ada's passkey, even knowing its id", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await addPasskey(jar);
        const [passkey] = (await account(jar)).signInMethods.passkeys;
        const { jar: mallory } = await confirmedUser(config, world.mail, MALLORY, PASSWORD);
        expect((await outcome(await form(mallory, "rename-passkey", { passkeyId: passkey.id, name: "Mallory's now" }))).code).toBe("unknown-passkey");
        expect((await outcome(await form(mallory, "remove-passkey", { passkeyId: passkey.id }))).code).toBe("unknown-passkey");
        expect((await account(jar)).signInMethods.passkeys).toEqual([passkey]);
      });

      it("rename: the user's own, with the name rules of a display name", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await addPasskey(jar);
        const [passkey] = (await account(jar)).signInMethods.passkeys;
        expect((await outcome(await form(jar, "rename-passkey", { passkeyId: passkey.id, name: " Work laptop " }))).code).toBeNull();
        expect((await account(jar)).signInMethods.passkeys[0].name).toBe("Work laptop");
        expect(await outcome(await form(jar, "rename-passkey", { passkeyId: passkey.id, name: "evil\u202etxt" }))).toEqual({ page: ACCOUNT_PAGE, error: "PasskeyRename", code: "invalid-name" });
        expect((await account(jar)).signInMethods.passkeys[0].name).toBe("Work laptop");
      });

      it("remove: with a password left, the passkey and its account go; it signs nobody in any more", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const authenticator = await addPasskey(jar);
        const [passkey] = (await account(jar)).signInMethods.passkeys;
        expect((await outcome(await form(jar, "remove-passkey", { passkeyId: passkey.id }))).code).toBeNull();
        expect((await account(jar)).signInMethods.passkeys).toEqual([]);
        expect(await adapter.getAuthenticator!(passkey.id)).toBeNull();
        // The removed passkey no longer signs in.
        const other = new CookieJar();
        const { body } = await fetchOptions(config, other, {});
        const refused = await postCallback(config, other, "authenticate", authenticator.authenticate(body.options));
        expect(locationOf(refused).searchParams.get("error")).not.toBeNull();
        expect(await sessionEmail(config, other)).toBeNull();
      });

      it("remove: the only way in (a passkey-only account) is refused", async () => {
        const jar = await passkeyOnlyUser(ADA);
        const [passkey] = (await account(jar)).signInMethods.passkeys;
        expect(await outcome(await form(jar, "remove-passkey", { passkeyId: passkey.id }))).toEqual({ page: ACCOUNT_PAGE, error: "PasskeyRemove", code: "last-sign-in-method" });
        expect(await adapter.getAuthenticator!(passkey.id)).not.toBeNull();
      });
    });
  },
);
