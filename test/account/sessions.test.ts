/**
 * The account API through the handler: `GET account` (the user, whether they
 * have a password, their sessions), and the account page's forms
 * `revoke-session`, `revoke-other-sessions` and `update-profile`. Memory
 * adapter and PostgreSQL (PGlite), JWT and database sessions, a real SMTP
 * server for the sign-ups. The attacks come first in each group: another
 * user's session id, a post without the CSRF token, a signed-out post.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { call, captureLogger, CookieJar, csrfToken, locationOf, ORIGIN, SECRET, sessionSetCookies, isCleared } from "../helpers.js";
import { confirmedUser, passwordProvider, post, sessionEmail } from "../password-accounts/support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "../password-accounts/support/world.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
import { ACCOUNT_PAGE, accountConfig, ADA, MALLORY, PASSWORD } from "./support/config.js";

const world = usePasswordWorld();

let events: { name: string; message: any }[] = [];

eachStoreAndStrategy(
  world,
  (adapter, strategy) => {
    events = [];
    return accountConfig(adapter, strategy, {
      providers: [passwordProvider(world.mail)],
      events: {
        signOut: (message) => void events.push({ name: "signOut", message }),
        updateUser: (message) => void events.push({ name: "updateUser", message }),
      },
    });
  },
  (current, strategy) => {
    let adapter: Adapter;
    let config: AuthConfig;
    beforeEach(() => {
      ({ adapter, config } = current());
    });

    /** Signs `email` in from a browser whose User-Agent is `userAgent`; returns its jar. */
    async function signInFrom(email: string, userAgent: string): Promise<CookieJar> {
      const jar = new CookieJar();
      const token = await csrfToken(config, jar);
      const response = await call(config, "/auth/callback/password", { jar, headers: { "user-agent": userAgent }, form: { email, password: PASSWORD, csrfToken: token } });
      expect(response.status).toBe(302);
      expect(locationOf(response).searchParams.get("error")).toBeNull();
      return jar;
    }

    async function account(jar: CookieJar, userAgent = FIREFOX) {
      const response = await call(config, "/auth/account", { jar, headers: { "user-agent": userAgent } });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("no-store");
      return (await response.json()) as any;
    }

    const form = (jar: CookieJar, action: string, fields: Record<string, string> = {}) =>
      post(config, jar, `/auth/${action}`, { callbackUrl: ACCOUNT_PAGE, ...fields });

    describe("GET account", () => {
      it("signed out: null", async () => {
        expect(await account(new CookieJar())).toBeNull();
      });

      it("signed in: the user, that they have a password, and their sessions with their browsers, never a session token", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await adapter.updateUser!({ id: (await adapter.getUserByEmail!(ADA))!.id, name: "Ada Lovelace" });
        const phone = await signInFrom(ADA, SAFARI_PHONE);
        const body = await account(phone, SAFARI_PHONE);
        expect(body.user).toEqual({ name: "Ada Lovelace", email: ADA, emailVerified: expect.any(String), image: null });
        expect(body.hasPassword).toBe(true);
        expect(body.sessionStrategy).toBe(strategy);
        const text = JSON.stringify(body);
        for (const value of [...jar.cookies.values(), ...phone.cookies.values()]) expect(text).not.toContain(value);
        if (strategy === "jwt") {
          // Other browsers' JWTs live in their cookies only: this one is listed.
          expect(body.sessions).toEqual([
            { id: "current", current: true, createdAt: expect.any(String), lastActiveAt: expect.any(String), expires: expect.any(String), userAgent: SAFARI_PHONE, browser: "Safari on iOS" },
          ]);
          return;
        }
        expect(body.sessions).toHaveLength(2);
        const [first, second] = body.sessions;
        // The sign-up's confirmation signed the first browser in (the test's requests carry no User-Agent).
        expect(first).toMatchObject({ current: false, userAgent: null, browser: null });
        expect(second).toMatchObject({ current: true, userAgent: SAFARI_PHONE, browser: "Safari on iOS" });
        for (const session of body.sessions) {
          expect(session.id).toMatch(/^[0-9a-f]{32}$/);
          expect(Date.parse(session.createdAt)).toBeLessThanOrEqual(Date.now());
          expect(Date.parse(session.expires)).toBeGreaterThan(Date.now());
        }
        expect(first.id).not.toBe(second.id);
      });
    });

    describe("POST revoke-session", () => {
      it("another user's session id: that session lives on", async () => {
        await confirmedUser(config, world.mail, ADA, PASSWORD);
        const ada = await signInFrom(ADA, FIREFOX);
        const { jar: mallory } = await confirmedUser(config, world.mail, MALLORY, PASSWORD);
        const adaSession = (await account(ada)).sessions.find((session: any) => session.current);
        events.length = 0;
        const response = await form(mallory, "revoke-session", { sessionId: adaSession.id });
        expect(await sessionEmail(config, ada)).toBe(ADA);
        if (strategy === "jwt") {
          // A JWT session's id is "current" for everyone: Mallory ended her own, and only hers.
          expect(adaSession.id).toBe("current");
          expect(await sessionEmail(config, mallory)).toBeNull();
          return;
        }
        const location = locationOf(response);
        expect(location.pathname).toBe("/account");
        expect(location.searchParams.get("error")).toBe("SessionRevoke");
        expect(location.searchParams.get("code")).toBe("unknown-session");
        expect(await sessionEmail(config, mallory)).toBe(MALLORY);
        expect(events).toEqual([]);
      });

      it("without the CSRF token: refused (MissingCSRF), nothing ends", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        const other = (await account(jar)).sessions[0];
        const response = await call(config, "/auth/revoke-session", { jar, form: { sessionId: other.id, callbackUrl: ACCOUNT_PAGE } });
        expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
        expect(await sessionEmail(config, laptop)).toBe(ADA);
        expect(await sessionEmail(config, jar)).toBe(ADA);
      });

      it("signed out: to the sign-in page, back to the account page after", async () => {
        const response = await form(new CookieJar(), "revoke-session", { sessionId: "current" });
        const location = locationOf(response);
        expect(location.pathname).toBe("/auth/signin");
        expect(location.searchParams.get("callbackUrl")).toBe(ACCOUNT_PAGE);
      });

      it("this browser's own session: signed out here (the cookie cleared), the signOut event fired", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        const own = (await account(jar)).sessions.find((session: any) => session.current);
        events.length = 0;
        const response = await form(jar, "revoke-session", { sessionId: own.id });
        expect(locationOf(response).href).toBe(ACCOUNT_PAGE);
        expect(sessionSetCookies(response).every(isCleared)).toBe(true);
        expect(sessionSetCookies(response)).not.toHaveLength(0);
        expect(await sessionEmail(config, jar)).toBeNull();
        expect(await sessionEmail(config, laptop)).toBe(ADA);
        expect(events.map((event) => event.name)).toEqual(["signOut"]);
      });

      it.runIf(strategy === "database")("another of the user's sessions: it ends, this one stays", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        const listed = (await account(jar)).sessions;
        const theLaptop = listed.find((session: any) => session.userAgent === FIREFOX);
        events.length = 0;
        const response = await form(jar, "revoke-session", { sessionId: theLaptop.id });
        expect(locationOf(response).href).toBe(ACCOUNT_PAGE);
        expect(sessionSetCookies(response)).toEqual([]);
        expect(await sessionEmail(config, laptop)).toBeNull();
        expect(await sessionEmail(config, jar)).toBe(ADA);
        expect((await account(jar)).sessions.map((session: any) => session.id)).toEqual(listed.filter((s: any) => s !== theLaptop).map((s: any) => s.id));
        const adaId = (await adapter.getUserByEmail!(ADA))!.id;
        expect(events).toEqual([{ name: "signOut", message: { session: expect.objectContaining({ userId: adaId, userAgent: FIREFOX }) } }]);
      });

      it("an unknown or missing id: refused, nothing ends", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        for (const fields of [{ sessionId: "0".repeat(32) }, { sessionId: "" }, {}] as Record<string, string>[]) {
          const response = await form(jar, "revoke-session", fields);
          expect(locationOf(response).searchParams.get("code")).toBe("unknown-session");
        }
        expect(await sessionEmail(config, jar)).toBe(ADA);
      });
    });

    describe("POST revoke-other-sessions", () => {
      it("every other browser is signed out at its next request; this one stays", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        const phone = await signInFrom(ADA, SAFARI_PHONE);
        const { jar: mallory } = await confirmedUser(config, world.mail, MALLORY, PASSWORD);
        const response = await form(jar, "revoke-other-sessions");
        expect(locationOf(response).href).toBe(ACCOUNT_PAGE);
        expect(await sessionEmail(config, jar)).toBe(ADA);
        expect(await sessionEmail(config, laptop)).toBeNull();
        expect(await sessionEmail(config, phone)).toBeNull();
        // Another user's sessions are not touched.
        expect(await sessionEmail(config, mallory)).toBe(MALLORY);
        expect((await account(jar)).sessions.map((session: any) => session.current)).toEqual([true]);
        // A later sign-in works as ever.
        expect(await sessionEmail(config, await signInFrom(ADA, FIREFOX))).toBe(ADA);
      });

      it("without the CSRF token: refused, every session lives", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        const response = await call(config, "/auth/revoke-other-sessions", { jar, form: { callbackUrl: ACCOUNT_PAGE } });
        expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
        expect(await sessionEmail(config, laptop)).toBe(ADA);
      });

      it("a session ended elsewhere cannot end the others", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const laptop = await signInFrom(ADA, FIREFOX);
        // The laptop ends every other session: this browser's is one of them.
        await form(laptop, "revoke-other-sessions");
        const response = await form(jar, "revoke-other-sessions");
        expect(locationOf(response).pathname).toBe("/auth/signin");
        expect(await sessionEmail(config, laptop)).toBe(ADA);
      });
    });

    describe("POST update-profile", () => {
      it("sets the name (trimmed), seen in the session and by the updateUser event; empty clears it", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        events.length = 0;
        const response = await form(jar, "update-profile", { name: "  Ada Lovelace " });
        expect(locationOf(response).href).toBe(ACCOUNT_PAGE);
        expect((await account(jar)).user.name).toBe("Ada Lovelace");
        const session = await call(config, "/auth/session", { jar });
        expect((await session.json()).user.name).toBe("Ada Lovelace");
        expect(events).toEqual([{ name: "updateUser", message: { user: expect.objectContaining({ email: ADA, name: "Ada Lovelace" }) } }]);
        await form(jar, "update-profile", { name: "" });
        expect((await account(jar)).user.name).toBeNull();
      });

      it("control and invisible format characters, or over 100 characters: refused, the name unchanged", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        await form(jar, "update-profile", { name: "Ada" });
        const refusals = [
          ["Ada\nLovelace", "invalid-name"],
          ["Ada\u0000", "invalid-name"],
          ["\u202eecalevol adA", "invalid-name"],
          ["Ada\u200b", "invalid-name"],
          ["a".repeat(101), "name-too-long"],
        ] as const;
        for (const [name, code] of refusals) {
          const location = locationOf(await form(jar, "update-profile", { name }));
          expect(location.searchParams.get("error"), name).toBe("ProfileUpdate");
          expect(location.searchParams.get("code"), name).toBe(code);
        }
        expect((await account(jar)).user.name).toBe("Ada");
        // 100 characters (emoji counted as one each) are fine.
        await form(jar, "update-profile", { name: "🦊".repeat(100) });
        expect((await account(jar)).user.name).toBe("🦊".repeat(100));
      });

      it("a callbackUrl on another site is not followed: back to this site", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const response = await post(config, jar, "/auth/update-profile", { name: "Ada", callbackUrl: "https://evil.example/account" });
        expect(locationOf(response).origin).toBe(ORIGIN);
      });

      it("without the CSRF token: refused, the name unchanged", async () => {
        const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
        const response = await call(config, "/auth/update-profile", { jar, form: { name: "Mallory", callbackUrl: ACCOUNT_PAGE } });
        expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
        expect((await account(jar)).user.name).toBeNull();
      });
    });
  },
);

describe("an adapter without the session methods (as Auth.js adapters are)", () => {
  it("GET account answers a configuration error, and the log names the method", async () => {
    const { listSessionsByUserId: _list, ...adapter } = MemoryAdapter();
    const log = captureLogger();
    const config: AuthConfig = { secret: SECRET, trustHost: true, logger: log.logger, adapter, session: { strategy: "database" }, providers: [] };
    const user = await adapter.createUser({ id: "", email: ADA, emailVerified: new Date() });
    await adapter.createSession({ sessionToken: "ada-session", userId: user.id, expires: new Date(Date.now() + 86_400_000) });
    const jar = new CookieJar();
    jar.cookies.set("authjs.session-token", "ada-session");
    const response = await call(config, "/auth/account", { jar });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Configuration", message: expect.any(String) });
    expect(log.errors.map((error) => error.message).join("\n")).toContain("listSessionsByUserId");
  });

  it("without an adapter: a configuration error naming the option", async () => {
    const log = captureLogger();
    const config: AuthConfig = { secret: SECRET, trustHost: true, logger: log.logger, providers: [] };
    const response = await call(config, "/auth/account");
    expect(response.status).toBe(500);
    expect(log.errors.map((error) => error.message).join("\n")).toContain("set `adapter`");
  });
});
