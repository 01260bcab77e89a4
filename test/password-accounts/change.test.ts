/**
 * Changing the password while signed in, through the handler: it asks for the
 * current password, ends every other session (JWT and database) and every
 * outstanding reset link, and keeps this browser signed in. Memory adapter and
 * PostgreSQL (PGlite), a real SMTP server.
 */
import { beforeEach, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { call, captureLogger, CookieJar, locationOf, ORIGIN, recordAdapterCalls, SECRET, storesSession } from "../helpers.js";
import { confirmedUser, forgotPassword, nextMail, passwordProvider, post, resetPassword, sessionEmail, signIn } from "./support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "./support/world.js";
import { followLink, mailedLink } from "../email/support/flow.js";
import { Nodemailer } from "@gatehouse/runtime/providers";

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

    beforeEach(() => {
      ({ adapter, config } = current());
    });

    function change(jar: CookieJar, currentPassword: string, password: string) {
      return post(config, jar, "/auth/change-password", { currentPassword, password, callbackUrl: `${ORIGIN}/account` });
    }

    it("with the current password: set, this browser stays signed in, every other session and reset link ends", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const laptop = new CookieJar();
      await signIn(config, laptop, ADA, PASSWORD);
      const before = world.mail.messages.length;
      await forgotPassword(config, new CookieJar(), ADA);
      const { link } = await nextMail(world.mail, before);

      const response = await change(jar, PASSWORD, NEW_PASSWORD);
      expect(response.status).toBe(302);
      expect(locationOf(response).href).toBe(`${ORIGIN}/account`);
      expect(storesSession(response)).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);
      expect(await sessionEmail(config, laptop)).toBeNull();

      const old = await signIn(config, new CookieJar(), ADA, PASSWORD);
      expect(locationOf(old).searchParams.get("code")).toBe("credentials");
      const fresh = new CookieJar();
      await signIn(config, fresh, ADA, NEW_PASSWORD);
      expect(await sessionEmail(config, fresh)).toBe(ADA);
      // The reset link asked for before the change matches nothing now.
      const reset = await resetPassword(config, new CookieJar(), link, "yet another passphrase");
      expect(locationOf(reset).searchParams.get("code")).toBe("invalid-link");
    });

    it("a wrong current password changes nothing and ends no session", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const user = await adapter.getUserByEmail!(ADA);
      const stored = await adapter.getUserPassword!(user!.id);
      const response = await change(jar, "not the password", NEW_PASSWORD);
      const location = locationOf(response);
      expect(location.pathname).toBe("/account");
      expect(location.searchParams.get("error")).toBe("PasswordChange");
      expect(location.searchParams.get("code")).toBe("wrong-password");
      expect(await adapter.getUserPassword!(user!.id)).toBe(stored);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a too-short new password changes nothing", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const response = await change(jar, PASSWORD, "short");
      expect(locationOf(response).searchParams.get("code")).toBe("short-password");
      const again = new CookieJar();
      await signIn(config, again, ADA, PASSWORD);
      expect(await sessionEmail(config, again)).toBe(ADA);
    });

    it("without a session: sent to sign in, nothing read or written", async () => {
      await confirmedUser(config, world.mail, ADA, PASSWORD);
      const { adapter: recorded, writes } = recordAdapterCalls(adapter);
      const response = await post({ ...config, adapter: recorded }, new CookieJar(), "/auth/change-password", { currentPassword: PASSWORD, password: NEW_PASSWORD });
      expect(locationOf(response).pathname).toBe("/auth/signin");
      expect(writes).toEqual([]);
    });

    it("a user without a password (signed in by an email link) gets no-password: nothing is set", async () => {
      const withLinks = { ...config, providers: [...config.providers!, Nodemailer({ server: world.mail.url, from: "Sign in <no-reply@example.com>" })] };
      const jar = new CookieJar();
      const link = await mailedLink(withLinks, world.mail, jar, ADA);
      await followLink(withLinks, jar, link);
      expect(await sessionEmail(withLinks, jar)).toBe(ADA);
      const user = await adapter.getUserByEmail!(ADA);
      const response = await post(withLinks, jar, "/auth/change-password", { currentPassword: "anything at all", password: NEW_PASSWORD, callbackUrl: `${ORIGIN}/account` });
      expect(locationOf(response).searchParams.get("code")).toBe("no-password");
      expect(await adapter.getUserPassword!(user!.id)).toBeNull();
      expect(await sessionEmail(withLinks, jar)).toBe(ADA);
    });

    it("without the CSRF token: refused, nothing changed", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const response = await call(config, "/auth/change-password", { jar, form: { currentPassword: PASSWORD, password: NEW_PASSWORD } });
      expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
      const again = new CookieJar();
      await signIn(config, again, ADA, PASSWORD);
      expect(await sessionEmail(config, again)).toBe(ADA);
    });
  },
);
