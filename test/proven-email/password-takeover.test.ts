/**
 * Pre-account takeover with password accounts, through the handler: Mallory
 * claims Ada's address first (a password sign-up, a provider that does not
 * vouch for it, a passkey sign-up), then Ada proves the address through the
 * password screens (a reset link mailed to her, the confirmation of her own
 * sign-up) or an email link. Ada must end up in an account Mallory has no way
 * into: her password refused, her IdP login landing nowhere near Ada's user,
 * her passkey signing nobody in, her earlier session (JWT or database) reading
 * null. And Mallory's claim must never lock Ada out of her address. The
 * reverse orders: an address Ada holds is out of reach of every claim. Every
 * mail a claim causes goes to Ada's mailbox, never to Mallory; spending the
 * mails of her address stops her password mails, not her email link.
 *
 * Real parts: oidc-provider (Mallory's account there says Ada's address with
 * `email_verified: false`), an SMTP server on 127.0.0.1, the software
 * authenticator. On the memory adapter and PostgreSQL (PGlite), JWT and
 * database sessions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AdapterUser, AuthConfig } from "@gatehouse/runtime";
import { linkIn, startMailServer, type MailServer, type ReceivedMail } from "../email/support/smtp.js";
import { call, CookieJar, locationOf, ORIGIN, setCookies, storesSession } from "../helpers.js";
import type { OidcServer } from "../oauth/support/oidc-server.js";
import { confirmSignUp, forgotPassword, nextMail, passwordProvider, resetPassword, signIn, signUp } from "../password-accounts/support/flow.js";
import { openStores, type Stores } from "../password-accounts/support/stores.js";
import { fetchOptions, newAuthenticator, postCallback, signIn as passkeySignIn } from "../webauthn/support/flow.js";
import {
  ADA,
  PROVIDER_IDS,
  sessionEmail,
  signInWithEmailLink,
  signInWithIdp,
  signUpWithPasskey,
  startTakeoverIdp,
  takeoverApp,
  type TakeoverApp,
} from "./support/world.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const ADAS_PASSWORD = "ada's own long passphrase";
const MALLORYS_PASSWORD = "mallory's chosen password";
const GRACE = "grace@example.test";

let idp: OidcServer;
let mail: MailServer;
let stores: Stores;

beforeAll(async () => {
  [idp, mail, stores] = await Promise.all([startTakeoverIdp(), startMailServer(), openStores()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([idp?.close(), mail?.close(), stores?.close()]);
});
beforeEach(() => {
  mail.messages.length = 0;
});

describe.each(["memory", "PostgreSQL (PGlite)"])("on %s", (storeName) => {
  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    let adapter: Adapter;
    let app: TakeoverApp;
    let config: AuthConfig;

    beforeEach(async () => {
      adapter = await stores.stores.find((s) => s.name === storeName)!.fresh();
      // The takeover app (both IdP entries, email links, passkeys) with the Password provider added.
      app = takeoverApp(idp, mail, adapter, { session: { strategy } });
      config = { ...app.config, providers: [...(app.config.providers ?? []), passwordProvider(mail)] };
    });

    // --- Steps ---------------------------------------------------------------------------------

    /** The next mail after `before`, which must be addressed to Ada alone and carry `subject`. */
    async function mailToAda(before: number, subject: string): Promise<{ message: ReceivedMail; link: URL }> {
      const { message, link } = await nextMail(mail, before);
      expect(message.to).toEqual([ADA]);
      expect(message.subject).toBe(subject);
      return { message, link };
    }

    /** Mallory's password sign-up with Ada's address: an unproven user holding it, a confirmation mailed to Ada. */
    async function mallorysPasswordClaim() {
      const jar = new CookieJar();
      const before = mail.messages.length;
      const response = await signUp(config, jar, ADA, MALLORYS_PASSWORD, { name: "Mallory" });
      expect(locationOf(response).pathname).toBe("/auth/verify-request");
      expect(storesSession(response)).toBe(false);
      const { link: confirmation } = await mailToAda(before, "Confirm your email address for localhost:3000");
      const user = await adapter.getUserByEmail!(ADA);
      expect(user).toMatchObject({ email: ADA, name: "Mallory", emailVerified: null });
      return { jar, user: user!, confirmation };
    }

    /** Mallory's sign-in through the IdP that does not vouch for Ada's address: a user holding it, Mallory signed in. */
    async function mallorysOAuthClaim() {
      const { jar } = await signInWithIdp(config, "mallory");
      expect(await sessionEmail(config, jar)).toBe(ADA);
      const user = await adapter.getUserByEmail!(ADA);
      expect(user).toMatchObject({ email: ADA, emailVerified: null });
      expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" })).toMatchObject({ id: user!.id });
      return { jar, user: user! };
    }

    /** Mallory's passkey sign-up with Ada's address: a user holding it, Mallory signed in. */
    async function mallorysPasskeyClaim() {
      const mallory = await signUpWithPasskey(config);
      expect(storesSession(mallory.response)).toBe(true);
      expect(await sessionEmail(config, mallory.jar)).toBe(ADA);
      const user = await adapter.getUserByEmail!(ADA);
      expect(user!.emailVerified).toBeNull();
      expect(await adapter.listAuthenticatorsByUserId!(user!.id)).toHaveLength(1);
      return { ...mallory, user: user! };
    }

    /**
     * Ada's password sign-up while another user holds her address: the same answer as a sign-up
     * with a free address (Grace's, made alongside), and a mail to Ada saying she has an account,
     * with a link to choose a new password. Returns that link.
     */
    async function adasSignUpOnATakenAddress(): Promise<URL> {
      const holder = await adapter.getUserByEmail!(ADA);
      const before = mail.messages.length;
      const free = await signUp(config, new CookieJar(), GRACE, "grace's own long passphrase");
      const taken = await signUp(config, new CookieJar(), ADA, ADAS_PASSWORD, { name: "Ada" });
      expect(taken.status).toBe(302);
      expect(taken.status).toBe(free.status);
      expect(taken.headers.get("location")).toBe(free.headers.get("location"));
      expect(setCookies(taken).map((c) => c.name)).toEqual(setCookies(free).map((c) => c.name));
      expect(storesSession(taken)).toBe(false);

      const messages = (await mail.waitFor(before + 2)).slice(before);
      expect(messages.map((m) => m.to).sort()).toEqual([[ADA], [GRACE]]);
      const toAda = messages.find((m) => m.to[0] === ADA)!;
      expect(toAda.subject).toBe("You already have an account at localhost:3000");
      const link = linkIn(toAda);
      expect(link.pathname).toBe("/auth/reset-password");
      expect(link.searchParams.get("email")).toBe(ADA);
      // Nothing changed: the same user holds the address, still unproven, and Ada's typed password is not its password.
      expect(await adapter.getUserByEmail!(ADA)).toMatchObject({ id: holder!.id, emailVerified: null });
      expect(locationOf(await signIn(config, new CookieJar(), ADA, ADAS_PASSWORD)).searchParams.get("code")).toBe("credentials");
      return link;
    }

    /** Ada asks for a reset link for her address; returns it from her mailbox. */
    async function adaForgotPassword(jar = new CookieJar()): Promise<URL> {
      const before = mail.messages.length;
      const response = await forgotPassword(config, jar, ADA);
      expect(Object.fromEntries(locationOf(response).searchParams)).toEqual({ provider: "password", type: "password-reset" });
      expect(storesSession(response)).toBe(false);
      return (await mailToAda(before, "Choose a new password for localhost:3000")).link;
    }

    /** Ada sets her password through `link`: signed in as the user that held the address, now proven. */
    async function adaResets(link: URL, heldBy: AdapterUser, jar = new CookieJar()) {
      const response = await resetPassword(config, jar, link, ADAS_PASSWORD);
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(storesSession(response)).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      const user = await adapter.getUserByEmail!(ADA);
      // The same user (its id, so the app's rows, stay), now proven.
      expect(user).toMatchObject({ id: heldBy.id, email: ADA, emailVerified: expect.any(Date) });
      return { jar, user: user! };
    }

    /** A password sign-in refused as a wrong password would be (not `unconfirmed`: that would mean it matched). */
    async function expectPasswordRefused(password: string, extra: Record<string, string> = {}) {
      const jar = new CookieJar();
      const response = await signIn(config, jar, ADA, password, extra);
      const location = locationOf(response);
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(location.searchParams.get("code")).toBe("credentials");
      expect(storesSession(response)).toBe(false);
      expect(await sessionEmail(config, jar)).toBeNull();
    }

    /** Ada is not locked out: her password signs her in, in a new browser, as `userId`. */
    async function expectAdaSignsIn(userId: string) {
      const jar = new CookieJar();
      const response = await signIn(config, jar, ADA, ADAS_PASSWORD);
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      expect((await adapter.getUserByEmail!(ADA))!.id).toBe(userId);
    }

    /**
     * Mallory has no way left into Ada's user `userId`: her earlier session reads null, her
     * password is refused, her IdP login is `OAuthAccountNotLinked` on both entries (so it lands
     * in no user, Ada's least of all), her passkey (if she made one) signs nobody in.
     */
    async function expectMalloryLockedOut(userId: string, mallory: { jar: CookieJar; authenticator?: ReturnType<typeof newAuthenticator> }) {
      expect(await sessionEmail(config, mallory.jar)).toBeNull();
      await expectPasswordRefused(MALLORYS_PASSWORD);
      for (const provider of PROVIDER_IDS) {
        const again = await signInWithIdp(config, "mallory", provider);
        expect(again.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
        expect(storesSession(again.callback)).toBe(false);
        expect(await sessionEmail(config, again.jar)).toBeNull();
        expect(await adapter.getUserByAccount!({ provider, providerAccountId: "mallory" })).toBeNull();
      }
      expect(await adapter.listAuthenticatorsByUserId!(userId)).toEqual([]);
      if (mallory.authenticator) {
        const jar = new CookieJar();
        const { response } = await passkeySignIn(config, jar, mallory.authenticator);
        expect(storesSession(response)).toBe(false);
        expect(await sessionEmail(config, jar)).toBeNull();
      }
      expect(await adapter.getUser!(userId)).toMatchObject({ email: ADA, emailVerified: expect.any(Date) });
    }

    // --- A claim first, then Ada ---------------------------------------------------------------

    it("1. Mallory's password sign-up: she cannot sign in; the confirmation link without the password confirms nothing; Ada's reset gives her the account", async () => {
      const mallory = await mallorysPasswordClaim();

      // Mallory cannot sign in: the address is unconfirmed (a new confirmation goes to Ada, not to her).
      const attempt = await signIn(config, mallory.jar, ADA, MALLORYS_PASSWORD);
      expect(locationOf(attempt).searchParams.get("code")).toBe("unconfirmed");
      expect(storesSession(attempt)).toBe(false);
      expect(await sessionEmail(config, mallory.jar)).toBeNull();
      await mailToAda(1, "Confirm your email address for localhost:3000");

      // Ada opens the confirmation link: the page asks for a password she does not know; opening it confirms nothing.
      const ada = new CookieJar();
      const page = await call(config, `${mallory.confirmation.pathname}${mallory.confirmation.search}`, { jar: ada });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Enter your password to confirm your email address.");
      const guessed = await confirmSignUp(config, ada, mallory.confirmation, "ada's best guess at it");
      expect(locationOf(guessed).searchParams.get("code")).toBe("credentials");
      expect(storesSession(guessed)).toBe(false);
      expect(await sessionEmail(config, ada)).toBeNull();
      expect((await adapter.getUserByEmail!(ADA))!.emailVerified).toBeNull();

      // "Forgot password": the link comes to Ada's mailbox, and the reset hands her the user, stripped.
      const link = await adaForgotPassword(ada);
      const { user } = await adaResets(link, mallory.user, ada);
      expect(app.logs.warnings).toContain("unproven-user-adopted");

      await expectMalloryLockedOut(user.id, mallory);
      // The confirmation link with Mallory's password does nothing either.
      await expectPasswordRefused(MALLORYS_PASSWORD, { confirm: mallory.confirmation.searchParams.get("confirm")! });
      await expectAdaSignsIn(user.id);
      expect(await sessionEmail(config, ada)).toBe(ADA);
    });

    it("1b. Mallory's password sign-up, then Ada's own sign-up: the account-exists mail's link hands her the account", async () => {
      const mallory = await mallorysPasswordClaim();
      const link = await adasSignUpOnATakenAddress();
      const { jar, user } = await adaResets(link, mallory.user);
      await expectMalloryLockedOut(user.id, mallory);
      await expectAdaSignsIn(user.id);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("2. Mallory's password sign-up, then Ada's email link: Mallory's password is gone; Ada then sets one through forgot-password", async () => {
      const mallory = await mallorysPasswordClaim();
      const ada = await signInWithEmailLink(config, mail);
      expect(ada.location.href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      const adopted = await adapter.getUserByEmail!(ADA);
      expect(adopted).toMatchObject({ id: mallory.user.id, emailVerified: expect.any(Date) });
      expect(app.logs.warnings).toContain("unproven-user-adopted");
      // Adopted: the password row went with everything else Mallory set up.
      expect(await adapter.getUserPassword!(adopted!.id)).toBeNull();
      await expectMalloryLockedOut(adopted!.id, mallory);
      await expectPasswordRefused(MALLORYS_PASSWORD, { confirm: mallory.confirmation.searchParams.get("confirm")! });

      // Ada chooses a password of her own.
      const link = await adaForgotPassword();
      const { user } = await adaResets(link, adopted!);
      expect(await adapter.getUserPassword!(user.id)).not.toBeNull();
      await expectAdaSignsIn(user.id);
      await expectPasswordRefused(MALLORYS_PASSWORD);
    });

    it("2b. Mallory's password sign-up, then Ada through a provider that vouches for the address: the password is gone with the claim", async () => {
      const mallory = await mallorysPasswordClaim();
      const ada = await signInWithIdp(config, "ada");
      expect(ada.location.href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      const adopted = await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "ada" });
      expect(adopted).toMatchObject({ id: mallory.user.id, email: ADA, emailVerified: expect.any(Date) });
      expect(await adapter.getUserPassword!(adopted!.id)).toBeNull();
      await expectMalloryLockedOut(adopted!.id, mallory);
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
    });

    it("3. Mallory's unverified OIDC claim, then Ada's password sign-up: account-exists mail, reset; Mallory's link and session gone", async () => {
      const mallory = await mallorysOAuthClaim();
      const link = await adasSignUpOnATakenAddress();
      // Until Ada proves the address, the claim stands (Mallory's session lives).
      expect(await sessionEmail(config, mallory.jar)).toBe(ADA);

      const { user } = await adaResets(link, mallory.user);
      expect(app.logs.warnings).toContain("unproven-user-adopted");
      expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" })).toBeNull();
      await expectMalloryLockedOut(user.id, mallory);
      await expectAdaSignsIn(user.id);
    });

    it("4. Mallory's passkey sign-up, then Ada's password sign-up: account-exists mail, reset; the passkey signs nobody in", async () => {
      const mallory = await mallorysPasskeyClaim();
      const link = await adasSignUpOnATakenAddress();
      expect(await sessionEmail(config, mallory.jar)).toBe(ADA);

      const { user } = await adaResets(link, mallory.user);
      expect(app.logs.warnings).toContain("unproven-user-adopted");
      await expectMalloryLockedOut(user.id, mallory);
      await expectAdaSignsIn(user.id);
    });

    // --- Ada first, then a claim ---------------------------------------------------------------

    describe("5. the reverse orders: once Ada signed up and confirmed, no claim reaches her user", () => {
      /** Ada signs up and confirms; her browser's jar and her user. */
      async function adaConfirmed() {
        const jar = new CookieJar();
        const before = mail.messages.length;
        await signUp(config, jar, ADA, ADAS_PASSWORD, { name: "Ada" });
        const { link } = await mailToAda(before, "Confirm your email address for localhost:3000");
        const confirmed = await confirmSignUp(config, jar, link, ADAS_PASSWORD);
        expect(locationOf(confirmed).href).toBe(`${ORIGIN}/`);
        expect(await sessionEmail(config, jar)).toBe(ADA);
        const user = await adapter.getUserByEmail!(ADA);
        expect(user!.emailVerified).toBeInstanceOf(Date);
        return { jar, user: user! };
      }

      it("Mallory's password sign-up: the same answer as a free address, Ada gets the mail, Ada's password unchanged, Mallory's refused", async () => {
        const ada = await adaConfirmed();
        const hash = await adapter.getUserPassword!(ada.user.id);
        const before = mail.messages.length;
        const free = await signUp(config, new CookieJar(), GRACE, "grace's own long passphrase");
        const mallory = new CookieJar();
        const taken = await signUp(config, mallory, ADA, MALLORYS_PASSWORD, { name: "Mallory" });
        expect(taken.status).toBe(free.status);
        expect(taken.headers.get("location")).toBe(free.headers.get("location"));
        expect(setCookies(taken).map((c) => c.name)).toEqual(setCookies(free).map((c) => c.name));
        expect(storesSession(taken)).toBe(false);

        const messages = (await mail.waitFor(before + 2)).slice(before);
        expect(messages.map((m) => m.to).sort()).toEqual([[ADA], [GRACE]]);
        expect(messages.find((m) => m.to[0] === ADA)!.subject).toBe("You already have an account at localhost:3000");

        expect(await adapter.getUserPassword!(ada.user.id)).toBe(hash);
        expect(await adapter.getUserByEmail!(ADA)).toMatchObject({ id: ada.user.id, name: "Ada", emailVerified: ada.user.emailVerified });
        await expectPasswordRefused(MALLORYS_PASSWORD);
        expect(await sessionEmail(config, mallory)).toBeNull();
        await expectAdaSignsIn(ada.user.id);
        expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      });

      it("Mallory's unverified OIDC claim: OAuthAccountNotLinked on both entries, nothing linked to Ada's user", async () => {
        const ada = await adaConfirmed();
        for (const provider of PROVIDER_IDS) {
          const mallory = await signInWithIdp(config, "mallory", provider);
          expect(mallory.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
          expect(storesSession(mallory.callback)).toBe(false);
          expect(await sessionEmail(config, mallory.jar)).toBeNull();
          expect(await adapter.getUserByAccount!({ provider, providerAccountId: "mallory" })).toBeNull();
        }
        expect(await sessionEmail(config, ada.jar)).toBe(ADA);
        await expectAdaSignsIn(ada.user.id);
      });

      it("Mallory's passkey sign-up with Ada's address does not reach Ada's user", async () => {
        const ada = await adaConfirmed();
        // The usual sign-up cannot register: for a taken address the options say "authenticate".
        const inferred = await fetchOptions(config, new CookieJar(), { email: ADA });
        expect(inferred.body.action).toBe("authenticate");
        await expect(signUpWithPasskey(config)).rejects.toThrow();
        // Asking to register outright is refused.
        const outright = await fetchOptions(config, new CookieJar(), { email: ADA, action: "register" });
        expect(outright.response.status).toBe(400);
        expect(outright.body.error).toBe("InvalidRequest");
        // Mallory's passkey (made for an account of her own) answering the options for Ada's address
        // signs her into her own account, never Ada's.
        const own = await signUpWithPasskey(config, "mallory@evil.test");
        const mallory = new CookieJar();
        const { response } = await passkeySignIn(config, mallory, own.authenticator, ADA);
        expect(storesSession(response)).toBe(true);
        expect(await sessionEmail(config, mallory)).toBe("mallory@evil.test");
        expect(await adapter.listAuthenticatorsByUserId!(ada.user.id)).toEqual([]);
        expect(await sessionEmail(config, ada.jar)).toBe(ADA);
        await expectAdaSignsIn(ada.user.id);
      });

      it("Mallory's passkey registration begun while the address was free, finished after Ada signed up: refused, nothing stored", async () => {
        const mallory = new CookieJar();
        const authenticator = newAuthenticator();
        const { body } = await fetchOptions(config, mallory, { email: ADA });
        expect(body.action).toBe("register");
        const { response: data } = authenticator.register(body.options);

        const ada = await adaConfirmed();
        const response = await postCallback(config, mallory, "register", data);
        expect(locationOf(response).searchParams.get("error")).toBe("AccountNotLinked");
        expect(storesSession(response)).toBe(false);
        expect(await sessionEmail(config, mallory)).toBeNull();
        expect(await adapter.listAuthenticatorsByUserId!(ada.user.id)).toEqual([]);
        const { response: signInResponse } = await passkeySignIn(config, new CookieJar(), authenticator);
        expect(storesSession(signInResponse)).toBe(false);
        await expectAdaSignsIn(ada.user.id);
      });
    });

    it("6. Ada signed up but has not confirmed: Mallory's unverified OIDC claim is refused; Ada's confirmation still works", async () => {
      const before = mail.messages.length;
      await signUp(config, new CookieJar(), ADA, ADAS_PASSWORD, { name: "Ada" });
      const { link } = await mailToAda(before, "Confirm your email address for localhost:3000");
      const held = await adapter.getUserByEmail!(ADA);
      expect(held).toMatchObject({ name: "Ada", emailVerified: null });

      for (const provider of PROVIDER_IDS) {
        const mallory = await signInWithIdp(config, "mallory", provider);
        expect(mallory.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
        expect(storesSession(mallory.callback)).toBe(false);
        expect(await sessionEmail(config, mallory.jar)).toBeNull();
        expect(await adapter.getUserByAccount!({ provider, providerAccountId: "mallory" })).toBeNull();
      }
      // Nor does a passkey sign-up with the address get in.
      await expect(signUpWithPasskey(config)).rejects.toThrow();
      expect(await adapter.listAuthenticatorsByUserId!(held!.id)).toEqual([]);

      const ada = new CookieJar();
      const confirmed = await confirmSignUp(config, ada, link, ADAS_PASSWORD);
      expect(locationOf(confirmed).href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, ada)).toBe(ADA);
      expect(await adapter.getUserByEmail!(ADA)).toMatchObject({ id: held!.id, name: "Ada", emailVerified: expect.any(Date) });
      // Nothing to take from anyone: her own account is confirmed, not adopted.
      expect(app.logs.warnings).not.toContain("unproven-user-adopted");
      await expectMalloryLockedOut(held!.id, { jar: new CookieJar() });
      await expectAdaSignsIn(held!.id);
    });

    it("7. a reset link for an unproven holder goes to the address only: Mallory asking for one gets nothing; Ada can use it", async () => {
      const mallory = await mallorysPasswordClaim();
      const before = mail.messages.length;
      const response = await forgotPassword(config, mallory.jar, ADA);
      expect(response.status).toBe(302);
      expect(Object.fromEntries(locationOf(response).searchParams)).toEqual({ provider: "password", type: "password-reset" });
      expect(storesSession(response)).toBe(false);

      const { message, link } = await mailToAda(before, "Choose a new password for localhost:3000");
      const token = link.searchParams.get("token")!;
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      // Nothing of the link reaches Mallory's browser: not the redirect, not a cookie, not the body.
      expect(response.headers.get("location")).not.toContain(token);
      expect(response.headers.get("set-cookie") ?? "").not.toContain(token);
      expect(await response.text()).not.toContain(token);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mail.messages.slice(before)).toEqual([message]);
      // Every mail this claim caused went to Ada's mailbox alone.
      expect(mail.messages.every((m) => m.to.length === 1 && m.to[0] === ADA)).toBe(true);

      const { user } = await adaResets(link, mallory.user);
      await expectMalloryLockedOut(user.id, mallory);
      await expectAdaSignsIn(user.id);
    });

    it("8. Mallory spending the mails of Ada's address (5 an hour) stops Ada's password mails, not her email link", async () => {
      const mallory = await mallorysPasswordClaim();
      // Four more mails to Ada's address from Mallory's browser: the hour's quota of the address is spent.
      for (let i = 0; i < 4; i++) await forgotPassword(config, mallory.jar, ADA);
      await mail.waitFor(5);
      const refused = await forgotPassword(config, new CookieJar(), ADA);
      expect(refused.status).toBe(429);
      expect(storesSession(refused)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mail.messages).toHaveLength(5);
      expect(mail.messages.every((m) => m.to.length === 1 && m.to[0] === ADA)).toBe(true);

      // Ada still proves her address with an email link (its own count), and the claim is handed over stripped.
      const ada = await signInWithEmailLink(config, mail);
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      const adopted = await adapter.getUserByEmail!(ADA);
      expect(adopted).toMatchObject({ id: mallory.user.id, emailVerified: expect.any(Date) });
      await expectMalloryLockedOut(adopted!.id, mallory);
    });
  });
});
