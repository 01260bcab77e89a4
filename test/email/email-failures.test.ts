/**
 * Everything that must not sign anyone in, and must leave nothing behind: bad
 * addresses, refusals, mail servers that say no or are gone, and links that are
 * reused, expired, altered, for another address or made with another secret.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Email, Nodemailer } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, printedDuring, fetchSession, locationOf, OLD_SECRET, ORIGIN, SECRET, storesSession } from "../helpers.js";
import { parseForms } from "../oauth/support/html-forms.js";
import { ledgerAdapter } from "./support/adapter.js";
import { followLink, mailedLink, requestLink } from "./support/flow.js";
import { emailSetup, FROM, useMailServer } from "./support/setup.js";
import { startMailServer } from "./support/smtp.js";

const mail = useMailServer();

afterEach(() => {
  vi.useRealTimers();
});

function setup(overrides: Partial<AuthConfig> = {}, providerOptions: Parameters<typeof Nodemailer>[0] = {}) {
  return emailSetup(mail(), overrides, providerOptions);
}

/** The link's confirmation form posted with `changes` to its fields. */
async function postLink(config: AuthConfig, jar: CookieJar, link: URL, changes: Record<string, string | undefined> = {}): Promise<Response> {
  const page = await call(config, `${link.pathname}${link.search}`, { jar });
  const form = parseForms(await page.text(), link).find((f) => f.method === "post")!;
  const fields: Record<string, string> = { ...form.fields };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete fields[name];
    else fields[name] = value;
  }
  return call(config, new URL(form.action).pathname, { jar, form: fields });
}

function expectErrorPage(response: Response, error: string): void {
  expect(response.status).toBe(302);
  const target = locationOf(response);
  expect(target.pathname).toBe("/auth/error");
  expect(target.searchParams.get("error")).toBe(error);
  expect(storesSession(response)).toBe(false);
}

function expectSignInPageError(response: Response, error: string): void {
  expect(response.status).toBe(302);
  const target = locationOf(response);
  expect(target.pathname).toBe("/auth/signin");
  expect(target.searchParams.get("error")).toBe(error);
  expect(storesSession(response)).toBe(false);
}

describe("asking for a link", () => {
  it.each([
    ["an empty address", ""],
    ["spaces only", "   "],
    ["no @", "not-an-email"],
    ["two @", "a@b@example.com"],
    ["quotes", '"ada"@example.com'],
    ["a second address after a comma", "ada@example.com,eve@evil.example"],
    ["a space inside", "ada lovelace@example.com"],
    ["angle brackets", "<ada@example.com>"],
    ["a domain starting with a dot", "ada@.example.com"],
    ["a local part of 65 characters", `${"a".repeat(65)}@example.com`],
  ])("refuses %s: EmailSignin on the sign-in page, no token, no mail", async (_case, email) => {
    const { config, adapter } = setup();
    const response = await requestLink(config, new CookieJar(), email);
    expectSignInPageError(response, "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
    expect(mail().messages).toEqual([]);
  });

  it("refuses a form without the email field", async () => {
    const { config, adapter } = setup();
    const jar = new CookieJar();
    const response = await call(config, "/auth/signin/email", { jar, form: { csrfToken: await csrfToken(config, jar) } });
    expectSignInPageError(response, "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
  });

  it("refuses a request without the CSRF token: no token, no mail", async () => {
    const { config, adapter } = setup();
    const response = await call(config, "/auth/signin/email", { form: { email: "ada@example.com" } });
    expectSignInPageError(response, "MissingCSRF");
    expect(adapter.liveTokens()).toEqual([]);
    expect(mail().messages).toEqual([]);
  });

  it("stores and sends nothing when signIn refuses the verification request", async () => {
    const { config, adapter } = setup({ callbacks: { signIn: ({ email }) => !email?.verificationRequest } });
    const response = await requestLink(config, new CookieJar(), "ada@example.com");
    expectErrorPage(response, "AccessDenied");
    expect(adapter.liveTokens()).toEqual([]);
    expect(mail().messages).toEqual([]);
  });

  it("follows a redirect returned by signIn, storing and sending nothing", async () => {
    const { config, adapter } = setup({ callbacks: { signIn: () => "/waitlist" } });
    const response = await requestLink(config, new CookieJar(), "ada@example.com");
    expect(locationOf(response).href).toBe(`${ORIGIN}/waitlist`);
    expect(adapter.liveTokens()).toEqual([]);
    expect(mail().messages).toEqual([]);
  });

  it("shows EmailSignin when the mail server refuses the recipient, logs why, and keeps no token", async () => {
    const { config, adapter, log } = setup();
    mail().refuseRecipients(true);
    const response = await requestLink(config, new CookieJar(), "ada@example.com");
    expectSignInPageError(response, "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
    const logged = log.errors.find((e) => e.name === "EmailSignInError")!;
    expect(String((logged.cause as { err?: Error }).err)).toMatch(/550|unavailable/i);
  });

  it("shows EmailSignin when the mail server is down, and keeps no token", async () => {
    const down = await startMailServer();
    await down.close();
    const { config, adapter, log } = setup({}, { server: down.url });
    const response = await requestLink(config, new CookieJar(), "ada@example.com");
    expectSignInPageError(response, "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
    expect(String((log.errors[0]!.cause as { err?: Error }).err)).toMatch(/ECONNREFUSED|connect/i);
  });

  it("shows EmailSignin when a custom sender throws, and keeps no token", async () => {
    const adapter = ledgerAdapter();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      adapter,
      providers: [Email({ from: FROM, sendVerificationRequest: () => Promise.reject(new Error("mail API answered 503")) })],
    };
    expectSignInPageError(await requestLink(config, new CookieJar(), "ada@example.com"), "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
  });

  it("a custom sender needs no `from`: it gets the link and sends it its own way", async () => {
    const sent: string[] = [];
    const adapter = ledgerAdapter();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      adapter,
      providers: [Email({ sendVerificationRequest: ({ identifier, url }) => void sent.push(`${identifier} ${url}`) })],
    };
    const response = await requestLink(config, new CookieJar(), "ada@example.com");
    expect(locationOf(response).pathname).toBe("/auth/verify-request");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^ada@example\.com http:\/\/localhost:3000\/auth\/callback\/email\?token=[0-9a-f]{64}&email=ada%40example\.com$/);
    expect(adapter.liveTokens()).toHaveLength(1);
  });

  it("sends no mail when the token cannot be stored", async () => {
    const { config } = setup({
      adapter: ledgerAdapter({ createVerificationToken: () => Promise.reject(new Error("database is down")) }),
    });
    expectErrorPage(await requestLink(config, new CookieJar(), "ada@example.com"), "Configuration");
    expect(mail().messages).toEqual([]);
  });
});

describe("following a link", () => {
  it("opening the link does not use it: a link scanner's visits leave it working", async () => {
    const { config, adapter } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    for (let i = 0; i < 3; i++) {
      const scanned = await call(config, `${link.pathname}${link.search}`);
      expect(scanned.status).toBe(200);
      expect(storesSession(scanned)).toBe(false);
    }
    expect(adapter.liveTokens()).toHaveLength(1);
    const { result } = await followLink(config, new CookieJar(), link);
    expect(storesSession(result)).toBe(true);
  });

  it("refuses a link used before: Verification, logged as a warning (the visitor's old link, not a server error)", async () => {
    // With debug on, for the refusal's own message at debug level.
    const { config, log } = setup({ debug: true });
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    await followLink(config, new CookieJar(), link);
    const again = await postLink(config, new CookieJar(), link);
    expectErrorPage(again, "Verification");
    expect(log.warnings.filter((code) => code !== "debug-enabled")).toEqual(["email-link-refused"]);
    expect(log.errors).toEqual([]);
    expect(log.debug).toContainEqual({ message: "email link refused", metadata: { message: expect.stringMatching(/already used/) } });
  });

  it("a used link with the default logger: one warning line on the console, no error line, nothing of the token", async () => {
    // The default logger: the config's own left out.
    const { logger: _captured, ...defaults } = setup().config;
    let link!: URL;
    const printed = await printedDuring(async () => {
      link = await mailedLink(defaults, mail(), new CookieJar(), "ada@example.com");
      await followLink(defaults, new CookieJar(), link);
      expectErrorPage(await postLink(defaults, new CookieJar(), link), "Verification");
    });
    expect(printed.errors).toEqual([]);
    expect(printed.warnings).toHaveLength(1);
    const [line] = printed.warnings;
    expect(line).toMatch(/^\[auth\]\[warn\]\[email-link-refused\] A sign-in link from an email was refused \(Verification\)/);
    expect(String(line)).not.toContain(link.searchParams.get("token")!);
  });

  it("signs in only once when the same link is posted twice at the same moment", async () => {
    const { config } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    const jars = [new CookieJar(), new CookieJar()];
    const results = await Promise.all(jars.map((jar) => postLink(config, jar, link)));
    expect(results.filter((r) => storesSession(r))).toHaveLength(1);
    expect(results.map((r) => locationOf(r).pathname).sort()).toEqual(["/", "/auth/error"]);
  });

  it("refuses an expired link, and the expired token is gone", async () => {
    const { config, adapter } = setup({}, { maxAge: 60 });
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expectErrorPage(await postLink(config, new CookieJar(), link), "Verification");
    expect(adapter.liveTokens()).toEqual([]);
    expect(await adapter.getUserByEmail("ada@example.com")).toBeNull();
  });

  it("refuses a link whose email was changed, and the real link still works", async () => {
    const { config } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    expectErrorPage(await postLink(config, new CookieJar(), link, { email: "eve@example.com" }), "Verification");
    expect(storesSession((await followLink(config, new CookieJar(), link)).result)).toBe(true);
  });

  it("refuses an altered token, and the real link still works", async () => {
    const { config } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    const token = link.searchParams.get("token")!;
    const altered = `${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`;
    expectErrorPage(await postLink(config, new CookieJar(), link, { token: altered }), "Verification");
    expect(storesSession((await followLink(config, new CookieJar(), link)).result)).toBe(true);
  });

  it.each([
    ["without a token", { token: undefined }],
    ["without an email", { email: undefined }],
    ["with an empty token", { token: "" }],
    ["with a huge token", { token: "a".repeat(10_000) }],
    ["with an invalid email", { email: "not an email" }],
  ])("refuses a post %s: Verification, a warning", async (_case, changes) => {
    const { config, adapter, log } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    expectErrorPage(await postLink(config, new CookieJar(), link, changes), "Verification");
    expect(adapter.liveTokens()).toHaveLength(1);
    expect(log.warnings).toEqual(["email-link-refused"]);
    expect(log.errors).toEqual([]);
  });

  it("refuses a post without the CSRF token, and keeps the link usable", async () => {
    const { config, adapter } = setup();
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    const response = await call(config, "/auth/callback/email", {
      form: { token: link.searchParams.get("token")!, email: "ada@example.com" },
    });
    expectSignInPageError(response, "MissingCSRF");
    expect(adapter.liveTokens()).toHaveLength(1);
  });

  it("refuses a link opened with nothing in it: Verification", async () => {
    const { config } = setup();
    expectErrorPage(await call(config, "/auth/callback/email"), "Verification");
  });

  it("refuses a link made with a secret the config no longer has", async () => {
    const first = setup();
    const link = await mailedLink(first.config, mail(), new CookieJar(), "ada@example.com");
    const rotatedAway = { ...first.config, secret: OLD_SECRET };
    expectErrorPage(await postLink(rotatedAway, new CookieJar(), link), "Verification");
  });

  it("accepts a link made before the secret was rotated (the old secret is still listed)", async () => {
    const first = setup({ secret: OLD_SECRET });
    const link = await mailedLink(first.config, mail(), new CookieJar(), "ada@example.com");
    const rotated = { ...first.config, secret: [SECRET, OLD_SECRET] };
    expect(storesSession((await followLink(rotated, new CookieJar(), link)).result)).toBe(true);
  });

  it("creates no user when signIn refuses the followed link", async () => {
    const { config, adapter } = setup({ callbacks: { signIn: ({ email }) => email?.verificationRequest === true } });
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    expectErrorPage(await postLink(config, new CookieJar(), link), "AccessDenied");
    expect(adapter.createdUsers()).toEqual([]);
    expect(await adapter.getUserByAccount({ provider: "email", providerAccountId: "ada@example.com" })).toBeNull();
  });
});

describe("confirmLink: false (Auth.js's behaviour)", () => {
  it("signs in on the GET of the link, once", async () => {
    const { config } = setup({}, { confirmLink: false });
    const jar = new CookieJar();
    const link = await mailedLink(config, mail(), jar, "ada@example.com", { callbackUrl: "/home" });
    const opened = await call(config, `${link.pathname}${link.search}`, { jar });
    expect(locationOf(opened).href).toBe(`${ORIGIN}/home`);
    expect(storesSession(opened)).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.com");
    expectErrorPage(await call(config, `${link.pathname}${link.search}`), "Verification");
  });
});

describe("provider options", () => {
  it("uses normalizeIdentifier, generateVerificationToken and the provider's own secret", async () => {
    const { config, adapter } = setup({}, {
      normalizeIdentifier: (id) => id.trim().toUpperCase(),
      generateVerificationToken: () => "fixed-token-for-this-test",
      secret: "a-provider-secret-of-sufficient-length-000",
    });
    const link = await mailedLink(config, mail(), new CookieJar(), " ada@example.com ");
    expect(link.searchParams.get("email")).toBe("ADA@EXAMPLE.COM");
    expect(link.searchParams.get("token")).toBe("fixed-token-for-this-test");
    const [stored] = adapter.liveTokens();
    const expected = Buffer.from(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode("fixed-token-for-this-testa-provider-secret-of-sufficient-length-000")),
    ).toString("hex");
    expect(stored!.token).toBe(expected);
    expect(storesSession((await followLink(config, new CookieJar(), link)).result)).toBe(true);
  });

  it("an app's own normalizeIdentifier gets no invisible character in, nor lets one out: EmailSignin, no token, no mail", async () => {
    const { config, adapter } = setup({}, { normalizeIdentifier: (id) => (id === "ada@example.com" ? "ada\u0000@example.com" : id.trim()) });
    for (const email of ["ada\u0000@example.com", "ada\u200b@example.com", "ada@example.com"]) {
      expectSignInPageError(await requestLink(config, new CookieJar(), email), "EmailSignin");
    }
    expect(adapter.liveTokens()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(mail().messages).toEqual([]);
  });

  it("takes server and from from AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM", async () => {
    const { setEnvDefaults } = await import("@gatehouse/runtime");
    const adapter = ledgerAdapter();
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_EMAIL_SERVER: mail().url, AUTH_EMAIL_FROM: "env-sender@example.com" },
      { adapter, logger: captureLogger().logger, providers: [Nodemailer] },
    );
    await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    expect(mail().messages[0]!.from).toBe("env-sender@example.com");
  });
});

describe("configuration errors", () => {
  it("without an SMTP server, only email sign-in fails (Configuration, naming AUTH_EMAIL_SERVER); sessions still work", async () => {
    const { config, log, adapter } = setup({}, { server: undefined });
    expectErrorPage(await requestLink(config, new CookieJar(), "ada@example.com"), "Configuration");
    expect(log.errors.map((e) => e.message).join("\n")).toContain("AUTH_EMAIL_SERVER");
    expect(adapter.liveTokens()).toEqual([]);
    const session = await call(config, "/auth/session");
    expect(session.status).toBe(200);
  });

  it("without a sender, names AUTH_EMAIL_FROM", async () => {
    const { config, log } = setup({}, { from: undefined });
    expectErrorPage(await requestLink(config, new CookieJar(), "ada@example.com"), "Configuration");
    expect(log.errors.map((e) => e.message).join("\n")).toContain("AUTH_EMAIL_FROM");
  });

  it.each([
    ["an Email provider without sendVerificationRequest", () => ({ providers: [Email({} as never)] }), "sendVerificationRequest"],
    ["no adapter", () => ({ adapter: undefined }), "needs an `adapter`"],
    ["an adapter without useVerificationToken", () => ({ adapter: { ...ledgerAdapter(), useVerificationToken: undefined } }), "useVerificationToken"],
    ["a maxAge of 0", () => ({ providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: FROM, maxAge: 0 })] }), "maxAge"],
  ])("%s is a configuration error naming what to fix", async (_case, change, named) => {
    const { config, log } = setup();
    const broken = { ...config, ...change() } as AuthConfig;
    const response = await call(broken, "/auth/session");
    expect(response.status).toBe(500);
    expect((await response.json()).error).toBe("Configuration");
    expect(log.errors.map((e) => e.message).join("\n")).toContain(named);
  });
});
