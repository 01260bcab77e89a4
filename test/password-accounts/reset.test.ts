/**
 * "Forgot password" through the handler: the answer is the same for every
 * address (a mail goes either way), the link works once, for at most an hour,
 * only for the password it was issued for; setting a new password ends every
 * session of the user (JWT and database) and every other reset link. Memory
 * adapter and PostgreSQL (PGlite), a real SMTP server.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { call, captureLogger, CookieJar, locationOf, ORIGIN, recordAdapterCalls, SECRET, setCookies, storesSession } from "../helpers.js";
import { confirmedUser, forgotPassword, nextMail, passwordProvider, post, resetPassword, sessionEmail, signIn } from "./support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "./support/world.js";
import { Passkey } from "@gatehouse/runtime/providers";
import { fetchOptions } from "../webauthn/support/flow.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("./support/quick-scrypt.js"));

const ADA = "ada@example.test";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

const world = usePasswordWorld();

eachStoreAndStrategy(
  world,
  (adapter, strategy) => ({ secret: SECRET, trustHost: true, logger: captureLogger().logger, adapter, session: { strategy }, providers: [passwordProvider(world.mail)] }),
  (current) => {
    let adapter: Adapter;
    let config: AuthConfig;
    const store = () => current().store;

    beforeEach(() => {
      ({ adapter, config } = current());
    });

    /** Ada with a confirmed account; returns the session jar of that sign-in. */
    async function ada(): Promise<CookieJar> {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      return jar;
    }

    /** Asks for a reset link for `email` and returns it. */
    async function resetLink(email = ADA): Promise<URL> {
      const before = world.mail.messages.length;
      const response = await forgotPassword(config, new CookieJar(), email);
      expect(response.status).toBe(302);
      return (await nextMail(world.mail, before)).link;
    }

    it("the same answer for an address with an account and one without; each gets its own mail", async () => {
      await ada();
      const before = world.mail.messages.length;
      const known = await forgotPassword(config, new CookieJar(), ADA);
      const unknown = await forgotPassword(config, new CookieJar(), "nobody@example.test");
      expect(known.status).toBe(302);
      expect(unknown.status).toBe(known.status);
      expect(unknown.headers.get("location")).toBe(known.headers.get("location"));
      expect(Object.fromEntries(locationOf(known).searchParams)).toEqual({ provider: "password", type: "password-reset" });
      expect(setCookies(unknown).map((c) => c.name)).toEqual(setCookies(known).map((c) => c.name));

      const messages = (await world.mail.waitFor(before + 2)).slice(before);
      const toAda = messages.find((m) => m.to[0] === ADA)!;
      expect(toAda.subject).toBe("Choose a new password for localhost:3000");
      expect(toAda.text).toContain("The link works for 1 hour.");
      const link = new URL(/https?:\/\/\S+/.exec(toAda.text)![0]);
      expect(link.pathname).toBe("/auth/reset-password");
      expect(link.searchParams.get("email")).toBe(ADA);
      expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
      const toNobody = messages.find((m) => m.to[0] === "nobody@example.test")!;
      expect(toNobody.subject).toBe("No account at localhost:3000");
      expect(toNobody.text).toContain("/auth/signup?email=nobody%40example.test");
      expect(toNobody.text).not.toContain("token=");
    });

    it("opening the link shows the form and uses nothing up", async () => {
      await ada();
      const link = await resetLink();
      for (let i = 0; i < 2; i++) {
        const page = await call(config, `${link.pathname}${link.search}`);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(`name="token" value="${link.searchParams.get("token")}"`);
        expect(html).toContain("Setting a new password signs you out everywhere else.");
      }
      const jar = new CookieJar();
      expect(storesSession(await resetPassword(config, jar, link, NEW_PASSWORD))).toBe(true);
    });

    it("a reset sets the password, signs in, and ends every other session", async () => {
      const elsewhere = await ada();
      const laptop = new CookieJar();
      await signIn(config, laptop, ADA, PASSWORD);
      expect(await sessionEmail(config, laptop)).toBe(ADA);

      const link = await resetLink();
      const jar = new CookieJar();
      const response = await resetPassword(config, jar, link, NEW_PASSWORD);
      expect(response.status).toBe(302);
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(storesSession(response)).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);

      expect(await sessionEmail(config, elsewhere)).toBeNull();
      expect(await sessionEmail(config, laptop)).toBeNull();
      const old = await signIn(config, new CookieJar(), ADA, PASSWORD);
      expect(locationOf(old).searchParams.get("error")).toBe("CredentialsSignin");
      const fresh = new CookieJar();
      await signIn(config, fresh, ADA, NEW_PASSWORD);
      expect(await sessionEmail(config, fresh)).toBe(ADA);
    });

    it("a link works once, and a reset ends every other outstanding link", async () => {
      await ada();
      const first = await resetLink();
      const second = await resetLink();
      await resetPassword(config, new CookieJar(), first, NEW_PASSWORD);
      for (const link of [first, second]) {
        const again = await resetPassword(config, new CookieJar(), link, "yet another passphrase");
        expect(storesSession(again)).toBe(false);
        const location = locationOf(again);
        expect(location.pathname).toBe("/auth/forgot-password");
        expect(location.searchParams.get("code")).toBe("invalid-link");
      }
      const jar = new CookieJar();
      await signIn(config, jar, ADA, NEW_PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("an expired link sets nothing", async () => {
      await ada();
      const link = await resetLink();
      await store().expireLinks(adapter);
      const response = await resetPassword(config, new CookieJar(), link, NEW_PASSWORD);
      expect(locationOf(response).searchParams.get("code")).toBe("invalid-link");
      const jar = new CookieJar();
      await signIn(config, jar, ADA, PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a too-short new password goes back to the form with the link intact", async () => {
      await ada();
      const link = await resetLink();
      const response = await resetPassword(config, new CookieJar(), link, "short");
      const location = locationOf(response);
      expect(location.pathname).toBe("/auth/reset-password");
      expect(location.searchParams.get("code")).toBe("short-password");
      expect(location.searchParams.get("token")).toBe(link.searchParams.get("token"));
      expect(location.searchParams.get("email")).toBe(ADA);
      const jar = new CookieJar();
      await resetPassword(config, jar, link, NEW_PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a token with another address, a made-up token, or none sets nothing", async () => {
      await ada();
      await confirmedUser(config, world.mail, "grace@example.test", PASSWORD);
      const link = await resetLink("grace@example.test");
      const attempts = [
        { email: ADA, token: link.searchParams.get("token")!, password: NEW_PASSWORD },
        { email: ADA, token: "0".repeat(64), password: NEW_PASSWORD },
        { email: ADA, token: "", password: NEW_PASSWORD },
        { email: "not an address", token: link.searchParams.get("token")!, password: NEW_PASSWORD },
      ];
      for (const form of attempts) {
        const response = await post(config, new CookieJar(), "/auth/reset-password", form);
        expect(locationOf(response).searchParams.get("code")).toBe("invalid-link");
        expect(storesSession(response)).toBe(false);
      }
      const jar = new CookieJar();
      await signIn(config, jar, ADA, PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      // Grace's link is still hers.
      const graceJar = new CookieJar();
      await resetPassword(config, graceJar, link, NEW_PASSWORD);
      expect(await sessionEmail(config, graceJar)).toBe("grace@example.test");
    });

    it("the link's token is stored hashed, under an identifier tied to the current password", async () => {
      await ada();
      const recorded: { identifier: string; token: string; expires: Date }[] = [];
      const create = adapter.createVerificationToken!.bind(adapter);
      adapter.createVerificationToken = (token) => {
        recorded.push(token);
        return create(token);
      };
      const link = await resetLink();
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.identifier).toMatch(new RegExp(`^gatehouse:reset-password:${ADA}:[0-9a-f]{32}$`));
      expect(recorded[0]!.token).not.toBe(link.searchParams.get("token"));
      const lifetime = new Date(recorded[0]!.expires).valueOf() - Date.now();
      expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
      expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);
    });

    it("a user with no password (an email-link user) can set one through the link", async () => {
      const user = await adapter.createUser!({ id: "", email: ADA, emailVerified: new Date(), name: "Ada" } as never);
      expect(await adapter.getUserPassword!(user.id)).toBeNull();
      const jar = new CookieJar();
      await resetPassword(config, jar, await resetLink(), NEW_PASSWORD);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      const again = new CookieJar();
      await signIn(config, again, ADA, NEW_PASSWORD);
      expect(await sessionEmail(config, again)).toBe(ADA);
    });

    describe("refuses bad input, storing and mailing nothing", () => {
      it("an address that is not one", async () => {
        const { adapter: recorded, writes } = recordAdapterCalls(adapter);
        const response = await post({ ...config, adapter: recorded }, new CookieJar(), "/auth/forgot-password", { email: "ada@@example" });
        const location = locationOf(response);
        expect(location.pathname).toBe("/auth/forgot-password");
        expect(location.searchParams.get("error")).toBe("PasswordReset");
        expect(location.searchParams.get("code")).toBe("invalid-email");
        expect(writes).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(world.mail.messages).toHaveLength(0);
      });

      it("without the CSRF token (forgot and reset)", async () => {
        await ada();
        const link = await resetLink();
        const before = world.mail.messages.length;
        const { adapter: recorded, writes } = recordAdapterCalls(adapter);
        const recordedConfig = { ...config, adapter: recorded };
        const forgot = await call(recordedConfig, "/auth/forgot-password", { form: { email: ADA } });
        const reset = await call(recordedConfig, "/auth/reset-password", {
          form: { email: ADA, token: link.searchParams.get("token")!, password: NEW_PASSWORD },
        });
        for (const response of [forgot, reset]) expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
        expect(writes).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(world.mail.messages).toHaveLength(before);
      });
    });
  },
);

describe("a JWT a reset ended is signed out everywhere, not only on session reads", () => {
  it("it cannot ask to register a passkey for the account (the options treat it as signed out)", async () => {
    const adapter = await world.stores.stores.find((s) => s.name === "memory")!.fresh();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      adapter,
      session: { strategy: "jwt" },
      experimental: { enableWebAuthn: true },
      providers: [passwordProvider(world.mail), Passkey()],
    };
    const { jar: stolen } = await confirmedUser(config, world.mail, ADA, PASSWORD);
    const signedIn = await fetchOptions(config, stolen, { action: "register" });
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.body.action).toBe("register");

    const before = world.mail.messages.length;
    await forgotPassword(config, new CookieJar(), ADA);
    await resetPassword(config, new CookieJar(), (await nextMail(world.mail, before)).link, NEW_PASSWORD);
    // (No session read here: its answer would clear the cookie in this jar, which an attacker keeps.)
    // Signed out: a register request naming nobody is refused, never options for Ada's account.
    const after = await fetchOptions(config, stolen, { action: "register" });
    expect(after.response.status).toBe(400);
    expect(JSON.stringify(after.body)).not.toContain(ADA);
  });
});
