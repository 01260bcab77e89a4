/**
 * Deleting one's own account through the handler (`POST delete-account`): the
 * email address typed out, and the current password (or, without one, a
 * sign-in in the last ten minutes). Then the user and everything kept with it
 * are gone, every browser is signed out, and the address is free again.
 * Memory adapter and PostgreSQL (PGlite), JWT and database sessions; a
 * passwordless user signs up with a passkey (software authenticator).
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { Passkey } from "@gatehouse/runtime/providers";
import { call, CookieJar, isCleared, locationOf, ORIGIN, sessionSetCookies } from "../helpers.js";
import { confirmedUser, passwordProvider, post, sessionEmail, signIn } from "../password-accounts/support/flow.js";
import { eachStoreAndStrategy, usePasswordWorld } from "../password-accounts/support/world.js";
import { newAuthenticator, signUp as passkeySignUp } from "../webauthn/support/flow.js";

import { ACCOUNT_PAGE, accountConfig, ADA, PASSWORD } from "./support/config.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const world = usePasswordWorld();

afterEach(() => {
  vi.useRealTimers();
});

let deleted: unknown[] = [];

eachStoreAndStrategy(
  world,
  (adapter, strategy) => {
    deleted = [];
    return accountConfig(adapter, strategy, {
      experimental: { enableWebAuthn: true },
      providers: [passwordProvider(world.mail), Passkey()],
      events: { deleteUser: ({ user }) => void deleted.push(user) },
    });
  },
  (current) => {
    let adapter: Adapter;
    let config: AuthConfig;
    beforeEach(() => {
      ({ adapter, config } = current());
    });

    const remove = (jar: CookieJar, fields: Record<string, string>) => post(config, jar, "/auth/delete-account", { callbackUrl: ACCOUNT_PAGE, ...fields });
    const codeOf = (response: Response) => locationOf(response).searchParams.get("code");

    async function adaExists() {
      return (await adapter.getUserByEmail!(ADA)) !== null;
    }

    it("the address not typed out (or another one): refused, nothing deleted", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      // A look-alike of the address (an invisible character in it) is not the address.
      for (const confirm of ["", "someone@example.test", "ada@example", "ada\u200b@example.test", "ada\u0000@example.test"]) {
        const response = await remove(jar, { confirm, password: PASSWORD });
        expect(locationOf(response).pathname).toBe("/account");
        expect(locationOf(response).searchParams.get("error")).toBe("AccountDelete");
        expect(codeOf(response)).toBe("confirm-email");
      }
      expect(await adaExists()).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("a stolen session without the password: refused, nothing deleted", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      for (const fields of [{ confirm: ADA }, { confirm: ADA, password: "not the password" }] as Record<string, string>[]) {
        expect(codeOf(await remove(jar, fields))).toBe("wrong-password");
      }
      expect(await adaExists()).toBe(true);
      expect(deleted).toEqual([]);
    });

    it("without the CSRF token: refused, nothing deleted", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const response = await call(config, "/auth/delete-account", { jar, form: { confirm: ADA, password: PASSWORD, callbackUrl: ACCOUNT_PAGE } });
      expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
      expect(await adaExists()).toBe(true);
    });

    it("with the address and the password: the user and all it had are gone, every browser signed out, the address free again", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const laptop = new CookieJar();
      await signIn(config, laptop, ADA, PASSWORD);
      const user = (await adapter.getUserByEmail!(ADA))!;
      const response = await remove(jar, { confirm: " ADA@example.test ", password: PASSWORD, redirectTo: `${ORIGIN}/goodbye` });
      expect(locationOf(response).href).toBe(`${ORIGIN}/goodbye`);
      expect(sessionSetCookies(response).every(isCleared)).toBe(true);
      expect(sessionSetCookies(response)).not.toHaveLength(0);
      expect(deleted).toEqual([expect.objectContaining({ id: user.id, email: ADA })]);
      expect(await adapter.getUser!(user.id)).toBeNull();
      expect(await adapter.getUserPassword!(user.id)).toBeNull();
      expect(await adapter.listSessionsByUserId!(user.id)).toEqual([]);
      expect(await sessionEmail(config, laptop)).toBeNull();
      expect(await sessionEmail(config, jar)).toBeNull();
      // The old password signs nobody in; the address can be signed up for anew.
      expect(codeOf(await signIn(config, new CookieJar(), ADA, PASSWORD))).toBe("credentials");
      await confirmedUser(config, world.mail, ADA, "a different passphrase");
      expect((await adapter.getUserByEmail!(ADA))?.id).not.toBe(user.id);
    });

    it("redirectTo on another site is not followed: the home page", async () => {
      const { jar } = await confirmedUser(config, world.mail, ADA, PASSWORD);
      const response = await remove(jar, { confirm: ADA, password: PASSWORD, redirectTo: "https://evil.example/" });
      expect(locationOf(response).href).toBe(`${ORIGIN}/`);
      expect(await adaExists()).toBe(false);
    });

    it("without a password: allowed within ten minutes of signing in; later, sign in again first", async () => {
      const jar = new CookieJar();
      const { response } = await passkeySignUp(config, jar, newAuthenticator(), ADA);
      expect(response.status).toBe(302);
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60 * 1000 });
      expect(codeOf(await remove(jar, { confirm: ADA }))).toBe("sign-in-again");
      expect(await adaExists()).toBe(true);
      vi.useRealTimers();
      const fresh = new CookieJar();
      await passkeySignUp(config, fresh, newAuthenticator(), "grace@example.test");
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 9 * 60 * 1000 });
      const deletion = await remove(fresh, { confirm: "grace@example.test" });
      expect(codeOf(deletion)).toBeNull();
      expect(await adapter.getUserByEmail!("grace@example.test")).toBeNull();
    });
  },
);
