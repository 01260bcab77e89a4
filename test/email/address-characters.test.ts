/**
 * One canonical form of an email address on every endpoint that takes one
 * (issue 19, item 4), on the memory adapter and PostgreSQL (PGlite), with a
 * real SMTP server. Controls (NUL included), format characters (zero-width,
 * bidi, BOM), line separators, lone surrogates and ideographic full stops in
 * the local part are refused the way each endpoint refuses a bad address,
 * never a 500, with nothing stored or mailed: a mail library would strip or
 * map them, so each spelling was a fresh rate-limit key for one mailbox or a
 * look-alike account, and NUL reached PostgreSQL as a `Configuration` error.
 * The full stops of other scripts in a domain are a full stop: that spelling
 * is the canonical address, looked up, limited and mailed as it.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { Nodemailer, Passkey } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, locationOf, recordAdapterCalls, SECRET, setCookies, storesSession } from "../helpers.js";
import { confirmedUser, nextMail, passwordProvider, sessionEmail, signIn } from "../password-accounts/support/flow.js";
import { usePasswordWorld } from "../password-accounts/support/world.js";
import { bodyOf, REFUSED_SPELLINGS, SAME_MAILBOX_SPELLINGS } from "./support/spellings.js";

// What a hash costs is not this suite's subject: see quick-scrypt.ts.
vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const ADA = "ada@example.com";
const PASSWORD = "correct horse battery";

const world = usePasswordWorld();

/** POST `path` with a fresh CSRF token; a field with a lone surrogate goes as JSON. */
async function post(config: AuthConfig, jar: CookieJar, path: string, fields: Record<string, string>): Promise<Response> {
  const token = await csrfToken(config, jar);
  return call(config, path, { jar, ...bodyOf({ ...fields, csrfToken: token }) });
}

/** Lets a stray message arrive: none must. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe.each(["memory", "PostgreSQL (PGlite)"])("%s", (storeName) => {
  let config: AuthConfig;
  let calls: string[];
  let writes: string[];
  let log: ReturnType<typeof captureLogger>;
  let adapter: Adapter;

  beforeEach(async () => {
    adapter = await world.stores.stores.find((store) => store.name === storeName)!.fresh();
    const recorded = recordAdapterCalls(adapter);
    ({ calls, writes } = recorded);
    log = captureLogger();
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: recorded.adapter,
      experimental: { enableWebAuthn: true },
      providers: [Nodemailer({ server: world.mail.url, from: "no-reply@example.com" }), passwordProvider(world.mail), Passkey()],
    };
  });

  /** Nothing written, nothing mailed, no database failure logged (the refusal itself may be). */
  async function expectNothingDone(): Promise<void> {
    expect(writes).toEqual([]);
    await settle();
    expect(world.mail.messages).toEqual([]);
    expect(log.errors.map((error) => error.name)).not.toContain("AdapterError");
  }

  describe.each(REFUSED_SPELLINGS)("an address with %s", (_what, address) => {
    it("email sign-in: EmailSignin on the sign-in page, no lookup, no token, no mail", async () => {
      const response = await post(config, new CookieJar(), "/auth/signin/email", { email: address });
      expect(response.status).toBe(302);
      expect(locationOf(response).pathname).toBe("/auth/signin");
      expect(locationOf(response).searchParams.get("error")).toBe("EmailSignin");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("a sign-in link whose email was changed to it: Verification, not a 500", async () => {
      const response = await post(config, new CookieJar(), "/auth/callback/email", { email: address, token: "a".repeat(64) });
      expect(response.status).toBe(302);
      expect(locationOf(response).pathname).toBe("/auth/error");
      expect(locationOf(response).searchParams.get("error")).toBe("Verification");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("passkey options: 400 InvalidRequest, no challenge, no lookup", async () => {
      const response = await call(config, `/auth/webauthn-options/passkey?${new URLSearchParams({ email: address })}`);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe("InvalidRequest");
      expect(setCookies(response).map((cookie) => cookie.name)).not.toContain("authjs.challenge");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("password sign-up: invalid-email on the sign-up form, no account, no mail", async () => {
      const response = await post(config, new CookieJar(), "/auth/signup", { email: address, password: PASSWORD });
      expect(response.status).toBe(302);
      expect(locationOf(response).pathname).toBe("/auth/signup");
      expect(locationOf(response).searchParams.get("code")).toBe("invalid-email");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("password sign-in: CredentialsSignin, nothing looked up", async () => {
      const response = await post(config, new CookieJar(), "/auth/callback/password", { email: address, password: PASSWORD });
      expect(response.status).toBe(302);
      expect(locationOf(response).searchParams.get("error")).toBe("CredentialsSignin");
      expect(storesSession(response)).toBe(false);
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("forgot password: invalid-email on its form, no mail", async () => {
      const response = await post(config, new CookieJar(), "/auth/forgot-password", { email: address });
      expect(response.status).toBe(302);
      expect(locationOf(response).pathname).toBe("/auth/forgot-password");
      expect(locationOf(response).searchParams.get("code")).toBe("invalid-email");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });

    it("reset password: invalid-link, nothing looked up", async () => {
      const response = await post(config, new CookieJar(), "/auth/reset-password", { email: address, token: "a".repeat(64), password: PASSWORD });
      expect(response.status).toBe(302);
      expect(locationOf(response).searchParams.get("code")).toBe("invalid-link");
      expect(calls).toEqual([]);
      await expectNothingDone();
    });
  });

  describe.each(SAME_MAILBOX_SPELLINGS)("an address with %s", (_what, address) => {
    it("email sign-in stores the link for the canonical address and mails it there", async () => {
      const response = await post(config, new CookieJar(), "/auth/signin/email", { email: address });
      expect(locationOf(response).pathname).toBe("/auth/verify-request");
      const { message, link } = await nextMail(world.mail, 0);
      expect(message.to).toEqual([ADA]);
      expect(link.searchParams.get("email")).toBe(ADA);
    });

    it("is the account of the canonical address: its password signs in, and a sign-up makes no second account", async () => {
      await confirmedUser(config, world.mail, ADA, PASSWORD);
      world.mail.messages.length = 0;
      const jar = new CookieJar();
      expect(storesSession(await signIn(config, jar, address, PASSWORD))).toBe(true);
      expect(await sessionEmail(config, jar)).toBe(ADA);

      const signUp = await post(config, new CookieJar(), "/auth/signup", { email: address, password: "another password here" });
      expect(locationOf(signUp).pathname).toBe("/auth/verify-request");
      const { message } = await nextMail(world.mail, 0);
      expect(message.to).toEqual([ADA]);
      expect(message.subject).toContain("You already have an account");
    });
  });
});

describe("the password provider's rate limit", () => {
  it("counts a sign-in with another script's full stop as one with the canonical address: the right password is refused once it is over", async () => {
    const adapter = await world.stores.stores.find((store) => store.name === "memory")!.fresh();
    const config: AuthConfig = { secret: SECRET, trustHost: true, logger: captureLogger().logger, adapter, rateLimit: { identifier: 2 }, providers: [passwordProvider(world.mail)] };
    await confirmedUser(config, world.mail, ADA, PASSWORD);
    for (const email of [ADA, "ada@example\uff61com"]) {
      expect(locationOf(await signIn(config, new CookieJar(), email, "wrong password")).searchParams.get("error")).toBe("CredentialsSignin");
    }
    const refused = await signIn(config, new CookieJar(), "ada@example\u3002com", PASSWORD);
    expect(refused.status).toBe(429);
    expect(storesSession(refused)).toBe(false);
  });
});
