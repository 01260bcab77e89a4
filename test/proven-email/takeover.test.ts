/**
 * Pre-account takeover, through the handler: Mallory claims Ada's address
 * before Ada signs up (a provider that does not vouch for it, a passkey
 * sign-up), then Ada proves it (a link to her mailbox, a provider that vouches
 * for it). Ada must end up in an account Mallory has no way into (no link,
 * no passkey, no session, JWT or database), and Mallory's claim must never lock
 * Ada out. The reverse orders: a proven address is never reached by a claim.
 * On the memory adapter and on PostgreSQL (PGlite), JWT and database sessions.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { openPGlite } from "../adapters/support/pglite.js";
import { startMailServer, type MailServer } from "../email/support/smtp.js";
import { CookieJar, storesSession } from "../helpers.js";
import type { OidcServer } from "../oauth/support/oidc-server.js";
import { signIn as passkeySignIn } from "../webauthn/support/flow.js";
import {
  ADA,
  sessionEmail,
  signInWithEmailLink,
  signInWithIdp,
  signUpWithPasskey,
  startTakeoverIdp,
  takeoverApp,
} from "./support/world.js";

let idp: OidcServer;
let mail: MailServer;
let pglite: PGlite;

beforeAll(async () => {
  [idp, mail, pglite] = await Promise.all([startTakeoverIdp(), startMailServer(), openPGlite()]);
  await migrate(fromPGlite(pglite));
}, 120_000);
afterAll(async () => {
  await Promise.all([idp?.close(), mail?.close(), pglite?.close()]);
});
beforeEach(() => {
  mail.messages.length = 0;
});

interface Store {
  name: string;
  fresh(): Promise<Adapter>;
}

const stores: Store[] = [
  { name: "memory", fresh: async () => MemoryAdapter() },
  {
    name: "PostgreSQL (PGlite)",
    async fresh() {
      await pglite.exec("TRUNCATE users, accounts, sessions, verification_token, authenticators, user_passwords CASCADE");
      return PostgresAdapter(fromPGlite(pglite));
    },
  },
];

describe.each(stores)("on $name", (store) => {
  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    let adapter: Adapter;
    let app: ReturnType<typeof takeoverApp>;
    let config: AuthConfig;

    beforeEach(async () => {
      adapter = await store.fresh();
      app = takeoverApp(idp, mail, adapter, { session: { strategy } });
      config = app.config;
    });

    /** Mallory's claim through the IdP that does not vouch for Ada's address; she is signed in as its user. */
    async function mallorysOAuthClaim() {
      const mallory = await signInWithIdp(config, "mallory");
      expect(await sessionEmail(config, mallory.jar)).toBe(ADA);
      const claimed = await adapter.getUserByEmail!(ADA);
      expect(claimed).toMatchObject({ email: ADA, emailVerified: null });
      return { jar: mallory.jar, user: claimed! };
    }

    /** Mallory has no way left into the user `userId`. */
    async function expectMalloryLockedOut(malloryJar: CookieJar, userId: string) {
      expect(await sessionEmail(config, malloryJar)).toBeNull();
      expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" })).toBeNull();
      const again = await signInWithIdp(config, "mallory");
      expect(again.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
      expect(storesSession(again.callback)).toBe(false);
      expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" })).toBeNull();
      expect((await adapter.getUser!(userId))!.email).toBe(ADA);
    }

    it("unverified OAuth claim, then Ada's email link: Ada gets the user without Mallory's link or session", async () => {
      const mallory = await mallorysOAuthClaim();
      const ada = await signInWithEmailLink(config, mail);
      expect(ada.location.pathname).toBe("/");
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      const adopted = await adapter.getUserByEmail!(ADA);
      // The same user (its id, so the app's rows, stay), now proven.
      expect(adopted!.id).toBe(mallory.user.id);
      expect(adopted!.emailVerified).toBeInstanceOf(Date);
      expect(app.logs.warnings).toContain("unproven-user-adopted");
      await expectMalloryLockedOut(mallory.jar, adopted!.id);
      // Ada is still signed in after all of it.
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
    });

    it("a provider that says nothing about the address counts as unverified too", async () => {
      const mallory = await signInWithIdp(config, "mallory-silent");
      expect((await adapter.getUserByEmail!(ADA))!.emailVerified).toBeNull();
      await signInWithEmailLink(config, mail);
      expect(await sessionEmail(config, mallory.jar)).toBeNull();
      expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory-silent" })).toBeNull();
    });

    it("unverified OAuth claim, then Ada through a provider that vouches for the address: Ada's link replaces Mallory's", async () => {
      const mallory = await mallorysOAuthClaim();
      const ada = await signInWithIdp(config, "ada");
      expect(ada.location.pathname).toBe("/");
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      const adaUser = await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "ada" });
      expect(adaUser).toMatchObject({ id: mallory.user.id, email: ADA, emailVerified: expect.any(Date) });
      await expectMalloryLockedOut(mallory.jar, adaUser!.id);
    });

    it("passkey sign-up claim, then Ada's email link: Mallory's passkey and session are gone", async () => {
      const mallory = await signUpWithPasskey(config);
      expect(storesSession(mallory.response)).toBe(true);
      expect(await sessionEmail(config, mallory.jar)).toBe(ADA);
      const claimed = await adapter.getUserByEmail!(ADA);
      expect(claimed!.emailVerified).toBeNull();

      await signInWithEmailLink(config, mail);
      expect(await sessionEmail(config, mallory.jar)).toBeNull();
      expect(await adapter.listAuthenticatorsByUserId!(claimed!.id)).toEqual([]);
      // Her passkey signs nobody in any more.
      const again = new CookieJar();
      const { response } = await passkeySignIn(config, again, mallory.authenticator);
      expect(storesSession(response)).toBe(false);
      expect(await sessionEmail(config, again)).toBeNull();
    });

    it("passkey sign-up claim, then Ada through a provider that vouches for the address", async () => {
      const mallory = await signUpWithPasskey(config);
      const ada = await signInWithIdp(config, "ada");
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      expect(await sessionEmail(config, mallory.jar)).toBeNull();
      const again = await passkeySignIn(config, new CookieJar(), mallory.authenticator);
      expect(storesSession(again.response)).toBe(false);
    });

    it("a claim never locks Ada out: her passkey sign-up is refused while Mallory's user holds the address, her email link is not", async () => {
      await mallorysOAuthClaim();
      await expect(signUpWithPasskey(config)).rejects.toThrow();
      const ada = await signInWithEmailLink(config, mail);
      expect(await sessionEmail(config, ada.jar)).toBe(ADA);
    });

    describe("the reverse orders: a proven address is out of a claim's reach", () => {
      it("Ada's email link first: Mallory's unverified OAuth is refused, even where the provider allows email linking", async () => {
        const ada = await signInWithEmailLink(config, mail);
        const adaUser = await adapter.getUserByEmail!(ADA);
        expect(adaUser!.emailVerified).toBeInstanceOf(Date);
        for (const provider of ["oidc", "oidc-linking"] as const) {
          const mallory = await signInWithIdp(config, "mallory", provider);
          expect(mallory.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
          expect(storesSession(mallory.callback)).toBe(false);
          expect(await adapter.getUserByAccount!({ provider, providerAccountId: "mallory" })).toBeNull();
        }
        expect(await sessionEmail(config, ada.jar)).toBe(ADA);
      });

      it("Ada's email link first: Mallory's passkey sign-up with the address is refused", async () => {
        await signInWithEmailLink(config, mail);
        await expect(signUpWithPasskey(config)).rejects.toThrow();
        const adaUser = await adapter.getUserByEmail!(ADA);
        expect(await adapter.listAuthenticatorsByUserId!(adaUser!.id)).toEqual([]);
      });

      it("Ada's verified OAuth first: Mallory's unverified OAuth is refused on both provider entries", async () => {
        await signInWithIdp(config, "ada");
        expect((await adapter.getUserByEmail!(ADA))!.emailVerified).toBeInstanceOf(Date);
        for (const provider of ["oidc", "oidc-linking"] as const) {
          const mallory = await signInWithIdp(config, "mallory", provider);
          expect(mallory.location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
        }
      });

      it("Ada's verified OAuth first, then her email link: the same user, nothing removed", async () => {
        const first = await signInWithIdp(config, "ada");
        const user = await adapter.getUserByEmail!(ADA);
        const link = await signInWithEmailLink(config, mail);
        expect((await adapter.getUserByEmail!(ADA))!.id).toBe(user!.id);
        expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "ada" })).toMatchObject({ id: user!.id });
        expect(await sessionEmail(config, first.jar)).toBe(ADA);
        expect(await sessionEmail(config, link.jar)).toBe(ADA);
        expect(app.logs.warnings).not.toContain("unproven-user-adopted");
      });
    });
  });
});
