/**
 * Verified sign-up through the handler: a password signs in only once its
 * address is confirmed through the mailed link, and only by someone who knows
 * the password (the link alone proves nothing but the mailbox). A taken
 * address gets the same answer as a free one; the mail tells the owner.
 * Memory adapter and PostgreSQL (PGlite), JWT and database sessions, a real
 * SMTP server.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { call, captureLogger, CookieJar, locationOf, ORIGIN, recordAdapterCalls, SECRET, setCookies, storesSession } from "../helpers.js";
import { confirmedUser, confirmSignUp, nextMail, passwordProvider, post, sessionEmail, signIn, signUp } from "./support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "./support/world.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("./support/quick-scrypt.js"));

const ADA = "ada@example.test";
const PASSWORD = "correct horse battery";

const world = usePasswordWorld();

let logs: ReturnType<typeof captureLogger>;

eachStoreAndStrategy(
  world,
  (adapter, strategy) => {
    logs = captureLogger();
    return { secret: SECRET, trustHost: true, logger: logs.logger, adapter, session: { strategy }, providers: [passwordProvider(world.mail)] };
  },
  (current) => {
    let adapter: Adapter;
    let config: AuthConfig;
    const store = () => current().store;

    beforeEach(() => {
      ({ adapter, config } = current());
    });

    it("a sign-up mails a confirmation link and shows 'check your email'; it signs nobody in", async () => {
      const jar = new CookieJar();
      const response = await signUp(config, jar, " Ada@Example.test ", PASSWORD, { name: "Ada" });
      expect(response.status).toBe(302);
      const location = locationOf(response);
      expect(location.pathname).toBe("/auth/verify-request");
      expect(Object.fromEntries(location.searchParams)).toEqual({ provider: "password", type: "sign-up" });
      expect(storesSession(response)).toBe(false);

      const { message, link } = await nextMail(world.mail, 0);
      expect(message.to).toEqual([ADA]);
      expect(message.subject).toBe("Confirm your email address for localhost:3000");
      expect(message.text).toContain("enter the password you chose");
      expect(link.origin).toBe(ORIGIN);
      expect(link.pathname).toBe("/auth/signin");
      expect(link.searchParams.get("email")).toBe(ADA);
      expect(link.searchParams.get("confirm")).toMatch(/^[0-9a-f]{64}$/);

      const user = await adapter.getUserByEmail!(ADA);
      expect(user).toMatchObject({ email: ADA, name: "Ada", emailVerified: null });
      expect(await sessionEmail(config, jar)).toBeNull();
    });

    it("the link opens the sign-in page asking for the password, with the address filled in", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      const { link } = await nextMail(world.mail, 0);
      const page = await call(config, `${link.pathname}${link.search}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Enter your password to confirm your email address.");
      expect(html).toContain(`name="confirm" value="${link.searchParams.get("confirm")}"`);
      expect(html).toContain(`value="${ADA}"`);
    });

    it("before confirmation the right password is refused (code=unconfirmed) and a new link is mailed", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      await nextMail(world.mail, 0);
      const jar = new CookieJar();
      const response = await signIn(config, jar, ADA, PASSWORD);
      expect(response.status).toBe(302);
      const location = locationOf(response);
      expect(location.pathname).toBe("/auth/signin");
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(location.searchParams.get("code")).toBe("unconfirmed");
      expect(storesSession(response)).toBe(false);
      const { message, link } = await nextMail(world.mail, 1);
      expect(message.subject).toBe("Confirm your email address for localhost:3000");
      // The new link confirms, as the first one does.
      const confirmed = await confirmSignUp(config, jar, link, PASSWORD);
      expect(locationOf(confirmed).href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a wrong password is refused with no hint that the account waits for confirmation, and nothing is mailed", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      await nextMail(world.mail, 0);
      const response = await signIn(config, new CookieJar(), ADA, "not the password");
      const location = locationOf(response);
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(location.searchParams.get("code")).toBe("credentials");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(world.mail.messages).toHaveLength(1);
    });

    it("link + password confirms the address and signs in; later sign-ins need only the password", async () => {
      const { jar, confirmed } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      expect(locationOf(confirmed).href).toBe(`${ORIGIN}/`);
      expect(storesSession(confirmed)).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      const user = await adapter.getUserByEmail!(ADA);
      expect(user?.emailVerified).toBeInstanceOf(Date);

      const again = new CookieJar();
      const response = await signIn(config, again, ADA, PASSWORD);
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(await sessionEmail(config, again)).toBe(ADA);
    });

    it("the link with a wrong password confirms nothing and stays usable", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      const { link } = await nextMail(world.mail, 0);
      const wrong = await confirmSignUp(config, new CookieJar(), link, "someone else's guess");
      expect(locationOf(wrong).searchParams.get("code")).toBe("credentials");
      expect((await adapter.getUserByEmail!(ADA))?.emailVerified).toBeNull();
      const jar = new CookieJar();
      await confirmSignUp(config, jar, link, PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("an expired link confirms nothing: code=confirm-link-invalid and a new link", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      const { link } = await nextMail(world.mail, 0);
      await store().expireLinks(adapter);
      const response = await confirmSignUp(config, new CookieJar(), link, PASSWORD);
      expect(locationOf(response).searchParams.get("code")).toBe("confirm-link-invalid");
      expect(storesSession(response)).toBe(false);
      expect((await adapter.getUserByEmail!(ADA))?.emailVerified).toBeNull();
      const { link: fresh } = await nextMail(world.mail, 1);
      const jar = new CookieJar();
      await confirmSignUp(config, jar, fresh, PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a link is used once; a link for another address confirms nothing", async () => {
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      await signUp(config, new CookieJar(), "grace@example.test", "another good password");
      const [ada, grace] = [(await nextMail(world.mail, 0)).link, (await nextMail(world.mail, 1)).link];
      // Grace's token with Ada's address and password.
      const crossed = await signIn(config, new CookieJar(), ADA, PASSWORD, { confirm: grace.searchParams.get("confirm")! });
      expect(locationOf(crossed).searchParams.get("code")).toBe("confirm-link-invalid");
      await confirmSignUp(config, new CookieJar(), ada, PASSWORD);
      // Used: Ada is confirmed, so the token is not even looked at; Grace's own link still works.
      const jar = new CookieJar();
      await confirmSignUp(config, jar, grace, "another good password");
      expect(await sessionEmail(config, jar)).toBe("grace@example.test");
    });

    it("the link's token is stored only as a hash, under an identifier for this purpose", async () => {
      const recorded: { identifier: string; token: string }[] = [];
      const create = adapter.createVerificationToken!.bind(adapter);
      adapter.createVerificationToken = (token) => {
        recorded.push(token);
        return create(token);
      };
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      const { link } = await nextMail(world.mail, 0);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.identifier).toBe(`gatehouse:confirm-sign-up:${ADA}`);
      expect(recorded[0]!.token).toMatch(/^[0-9a-f]{64}$/);
      expect(recorded[0]!.token).not.toBe(link.searchParams.get("confirm"));
      // Nor does an email sign-in link's endpoint take it (the purposes are apart).
    });

    it("a taken address gets the same answer; the mail tells the owner and offers a new password; nothing changes", async () => {
      await confirmedUser(config, world.mail, ADA, PASSWORD);
      const before = world.mail.messages.length;
      const freeAnswer = await signUp(config, new CookieJar(), "grace@example.test", "another good password");
      const takenAnswer = await signUp(config, new CookieJar(), ADA, "mallory's password");
      expect(takenAnswer.status).toBe(freeAnswer.status);
      expect(takenAnswer.headers.get("location")).toBe(freeAnswer.headers.get("location"));
      expect(setCookies(takenAnswer).map((c) => c.name)).toEqual(setCookies(freeAnswer).map((c) => c.name));

      const messages = await world.mail.waitFor(before + 2);
      const toAda = messages.slice(before).find((m) => m.to[0] === ADA)!;
      expect(toAda.subject).toBe("You already have an account at localhost:3000");
      expect(toAda.text).toContain("/auth/reset-password?");
      // Mallory's password does nothing; Ada's works.
      const mallory = await signIn(config, new CookieJar(), ADA, "mallory's password");
      expect(locationOf(mallory).searchParams.get("error")).toBe("CredentialsSignin");
      expect(await sessionEmail(config, (await confirmedUserSignIn(config, ADA, PASSWORD)))).toBe(ADA);
    });

    describe("refuses bad input with a code, storing and mailing nothing", () => {
      const cases: [string, Record<string, string>, string][] = [
        ["an address that is not one", { email: "ada at example", password: PASSWORD }, "invalid-email"],
        ["two addresses in one", { email: "ada@example.test,mallory@evil.test", password: PASSWORD }, "invalid-email"],
        ["no address", { password: PASSWORD }, "invalid-email"],
        ["a name with NUL (PostgreSQL refused it: a 500)", { email: ADA, password: PASSWORD, name: "A\u0000da" }, "invalid-name"],
        ["a name with a right-to-left override", { email: ADA, password: PASSWORD, name: "Ada\u202e" }, "invalid-name"],
        ["a name over 100 characters (the account page's rule, for every name)", { email: ADA, password: PASSWORD, name: "a".repeat(101) }, "name-too-long"],
        ["a short password", { email: ADA, password: "short" }, "short-password"],
        ["no password", { email: ADA }, "short-password"],
        ["a password over 1024 characters", { email: ADA, password: "x".repeat(1025) }, "long-password"],
      ];
      it.each(cases)("%s", async (_, form, code) => {
        const { adapter: recordedAdapter, writes } = recordAdapterCalls(adapter);
        const recordedConfig = { ...config, adapter: recordedAdapter };
        const response = await post(recordedConfig, new CookieJar(), "/auth/signup", form);
        expect(response.status).toBe(302);
        const location = locationOf(response);
        expect(location.pathname).toBe("/auth/signup");
        expect(location.searchParams.get("error")).toBe("PasswordSignUp");
        expect(location.searchParams.get("code")).toBe(code);
        expect(writes).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(world.mail.messages).toHaveLength(0);
      });

      it("without the CSRF token", async () => {
        const { adapter: recordedAdapter, writes } = recordAdapterCalls(adapter);
        const response = await call({ ...config, adapter: recordedAdapter }, "/auth/signup", { form: { email: ADA, password: PASSWORD } });
        expect(response.status).toBe(302);
        expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
        expect(writes).toEqual([]);
      });
    });
  },
);

/** Signs in with a password in a new browser; returns its jar. */
async function confirmedUserSignIn(config: AuthConfig, email: string, password: string): Promise<CookieJar> {
  const jar = new CookieJar();
  await signIn(config, jar, email, password);
  return jar;
}
