/**
 * The Password provider's configuration, its mail senders, its built-in pages
 * and its mail rate limit, through the handler: wrong settings are clear
 * configuration errors; a missing mail server is an error when a mail is due
 * (never a silent drop) unless development mail is on, which prints the link
 * and keeps the mail in an owner-only file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setEnvDefaults, type Adapter, type AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Password, type PasswordMailMessage } from "@gatehouse/runtime/providers";
import { startMailServer, type MailServer } from "../email/support/smtp.js";
import { call, captureLogger, CookieJar, locationOf, SECRET, storesSession } from "../helpers.js";
import { legacyHash } from "./support/legacy-hash.js";
import { FROM, forgotPassword, nextMail, passwordProvider, sessionEmail, signIn, signUp } from "./support/flow.js";

const ADA = "ada@example.test";
const PASSWORD = "correct horse battery";

let mail: MailServer;
beforeAll(async () => {
  mail = await startMailServer();
});
afterAll(async () => {
  await mail?.close();
});
beforeEach(() => {
  mail.messages.length = 0;
});

function app(providers: AuthConfig["providers"], overrides: Partial<AuthConfig> = {}) {
  const logs = captureLogger();
  const adapter = MemoryAdapter();
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger: logs.logger, adapter, providers, ...overrides };
  return { config, adapter, logs };
}

describe("configuration errors", () => {
  const configurationError = async (config: AuthConfig) => {
    const response = await call(config, "/auth/session");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: "Configuration" });
  };

  it("without an adapter", async () => {
    const logs = captureLogger();
    await configurationError({ secret: SECRET, trustHost: true, logger: logs.logger, providers: [Password({ developmentMail: true })] });
    expect(logs.errors[0]?.message).toContain('The Password provider "password" stores users, password hashes and links, and needs an `adapter`');
  });

  it("with an adapter that lacks the password methods (an Auth.js adapter)", async () => {
    const { createUserWithPassword: _c, getUserPassword: _g, setUserPassword: _s, ...authjsLike } = MemoryAdapter() as Required<Adapter>;
    const { config, logs } = app([Password({ developmentMail: true })], { adapter: authjsLike });
    await configurationError(config);
    expect(logs.errors[0]?.message).toMatch(/lacks createUserWithPassword .*getUserPassword .*setUserPassword/);
  });

  it.each([
    ["two Password providers", [Password({ developmentMail: true }), Password({ id: "password-2", developmentMail: true })], "Two Password providers"],
    ["a reset link longer than an hour", [Password({ developmentMail: true, resetMaxAge: 7200 })], "a reset link may work for at most 3600"],
    ["a minimum password length under 8", [Password({ developmentMail: true, minPasswordLength: 6 })], "it must be between 8 and 1024"],
    ["a confirmation lifetime that is not a number", [Password({ developmentMail: true, confirmMaxAge: "1d" as never })], "confirmMaxAge"],
    ["a sendMail that is not a function", [Password({ sendMail: "smtp" as never })], "sendMail"],
  ])("%s", async (_, providers, message) => {
    const { config, logs } = app(providers as AuthConfig["providers"]);
    await configurationError(config);
    expect(logs.errors[0]?.message).toContain(message);
  });
});

describe("mail", () => {
  it("without a mail server and without development mail, a sign-up is a configuration error and stores nothing; sessions still work", async () => {
    const { config, adapter, logs } = app([Password()]);
    const response = await signUp(config, new CookieJar(), ADA, PASSWORD);
    expect(response.status).toBe(302);
    expect(locationOf(response).searchParams.get("error")).toBe("Configuration");
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("cannot send mail: set AUTH_EMAIL_SERVER");
    expect(await adapter.getUserByEmail!(ADA)).toBeNull();
    expect((await call(config, "/auth/session")).status).toBe(200);
    const forgot = await forgotPassword(config, new CookieJar(), ADA);
    expect(locationOf(forgot).searchParams.get("error")).toBe("Configuration");
  });

  it("a server without a sender address is a configuration error naming AUTH_EMAIL_FROM", async () => {
    const { config, logs } = app([Password({ server: mail.url })]);
    const response = await signUp(config, new CookieJar(), ADA, PASSWORD);
    expect(locationOf(response).searchParams.get("error")).toBe("Configuration");
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("AUTH_EMAIL_FROM");
  });

  it("AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM from the env send the mail", async () => {
    const { config } = app([Password()]);
    const withEnv = setEnvDefaults({ AUTH_EMAIL_SERVER: mail.url, AUTH_EMAIL_FROM: FROM }, config);
    await signUp(withEnv, new CookieJar(), ADA, PASSWORD);
    const { message } = await nextMail(mail, 0);
    expect(message.to).toEqual([ADA]);
    expect(message.from).toBe("no-reply@example.com");
  });

  it("sendMail gets the composed mail; a throw answers mail-not-sent and frees the address again", async () => {
    const sent: PasswordMailMessage[] = [];
    let fail = true;
    const { config, adapter, logs } = app([
      Password({
        from: FROM,
        sendMail(message) {
          if (fail) throw new Error("mail API down");
          sent.push(message);
        },
      }),
    ]);
    const failed = await signUp(config, new CookieJar(), ADA, PASSWORD);
    expect(locationOf(failed).pathname).toBe("/auth/signup");
    expect(locationOf(failed).searchParams.get("code")).toBe("mail-not-sent");
    expect(await adapter.getUserByEmail!(ADA)).toBeNull();
    expect(logs.errors.map((e) => e.message)).toContain("mail API down");

    fail = false;
    await signUp(config, new CookieJar(), ADA, PASSWORD);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: "confirm-sign-up", to: ADA, from: FROM, subject: "Confirm your email address for localhost:3000" });
    expect(sent[0]!.text).toContain(sent[0]!.url);
    expect(sent[0]!.html).toContain("Confirm my address");
    expect(sent[0]!.request).toBeInstanceOf(Request);
  });

  it("the database failing as the link is stored (no verification_token table): not blamed on the mail; the error page, the address free again", async () => {
    const sent: PasswordMailMessage[] = [];
    const adapter = MemoryAdapter();
    const { config, logs } = app([Password({ from: FROM, sendMail: (message) => void sent.push(message) })], {
      adapter: { ...adapter, createVerificationToken: () => Promise.reject(new Error('relation "verification_token" does not exist')) },
    });
    const failed = await signUp(config, new CookieJar(), ADA, PASSWORD);
    expect(locationOf(failed).pathname).toBe("/auth/error");
    expect(locationOf(failed).searchParams.get("error")).toBe("Configuration");
    expect(locationOf(failed).searchParams.get("code")).toBeNull();
    expect(await adapter.getUserByEmail!(ADA)).toBeNull();
    expect(sent).toEqual([]);
    expect(logs.errors.map((e) => e.name)).toContain("AdapterError");
  });

  it("the database failing as a reset is asked for: the error page, not mail-not-sent; nothing mailed", async () => {
    const sent: PasswordMailMessage[] = [];
    const { config, logs } = app([Password({ from: FROM, sendMail: (message) => void sent.push(message) })], {
      adapter: { ...MemoryAdapter(), getUserByEmail: () => Promise.reject(new Error("connection refused")) },
    });
    const answer = await forgotPassword(config, new CookieJar(), ADA);
    expect(locationOf(answer).pathname).toBe("/auth/error");
    expect(locationOf(answer).searchParams.get("error")).toBe("Configuration");
    expect(sent).toEqual([]);
    expect(logs.errors.map((e) => e.name)).toContain("AdapterError");
  });

  describe("development mail", () => {
    let dir: string;
    const cwd = process.cwd();
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "gatehouse-dev-mail-"));
      process.chdir(dir);
    });
    afterEach(() => {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
      vi.restoreAllMocks();
    });

    it("prints the link, keeps the mail in an owner-only file, and the sign-up works end to end", async () => {
      const printed: string[] = [];
      vi.spyOn(console, "info").mockImplementation((line: string) => void printed.push(line));
      const { config } = app([Password({ developmentMail: true })]);
      const response = await signUp(config, new CookieJar(), ADA, PASSWORD);
      expect(locationOf(response).pathname).toBe("/auth/verify-request");
      expect(printed).toHaveLength(1);
      expect(printed[0]).toContain("Development mail: NOT SENT");
      expect(printed[0]).toContain(`To:      ${ADA}`);
      const link = new URL(/Link:\s+(\S+)/.exec(printed[0]!)![1]!);
      expect(link.searchParams.get("confirm")).toMatch(/^[0-9a-f]{64}$/);

      const folder = join(dir, ".gatehouse", "mail");
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const [file] = readdirSync(folder);
      expect(file).toMatch(/-confirm-sign-up-[0-9a-f]{8}\.eml$/);
      expect(statSync(join(folder, file!)).mode & 0o777).toBe(0o600);
      const saved = readFileSync(join(folder, file!), "utf8");
      expect(saved).toContain(`To: ${ADA}\r\n`);
      expect(saved).toContain(link.href);

      const jar = new CookieJar();
      await signIn(config, jar, ADA, PASSWORD, { confirm: link.searchParams.get("confirm")! });
      expect(await sessionEmail(config, jar)).toBe(ADA);
    });

    it("is not used when a server is configured", async () => {
      const info = vi.spyOn(console, "info").mockImplementation(() => {});
      const { config } = app([passwordProvider(mail, { developmentMail: true })]);
      await signUp(config, new CookieJar(), ADA, PASSWORD);
      await nextMail(mail, 0);
      expect(info).not.toHaveBeenCalled();
    });
  });
});

describe("built-in pages and routes", () => {
  it("GET signup, forgot-password and reset-password show their forms with a CSRF token", async () => {
    const { config } = app([passwordProvider(mail)]);
    for (const [path, button] of [
      ["/auth/signup", "Create account"],
      ["/auth/forgot-password", "Email me a reset link"],
      [`/auth/reset-password?email=${encodeURIComponent(ADA)}&token=${"a".repeat(64)}`, "Set new password"],
    ] as const) {
      const jar = new CookieJar();
      const response = await call(config, path, { jar });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(html).toContain(button);
      expect(html).toMatch(/name="csrfToken" value="[^"]+"/);
    }
  });

  it("the built-in sign-in page links to sign-up and forgot-password", async () => {
    const { config } = app([passwordProvider(mail)]);
    const html = await (await call(config, "/auth/signin")).text();
    expect(html).toContain('href="http://localhost:3000/auth/signup"');
    expect(html).toContain('href="http://localhost:3000/auth/forgot-password"');
  });

  it("the app's own pages receive the redirect with the query they read", async () => {
    const { config } = app([passwordProvider(mail)], {
      pages: { signIn: "/signin", signUp: "/signup", forgotPassword: "/forgot", resetPassword: "/reset" },
    });
    const signUpPage = await call(config, "/auth/signup?error=PasswordSignUp&code=short-password&email=ada%40example.test");
    expect(signUpPage.headers.get("location")).toBe("http://localhost:3000/signup?error=PasswordSignUp&code=short-password&email=ada%40example.test");
    const reset = await call(config, `/auth/reset-password?email=ada%40example.test&token=${"b".repeat(64)}`);
    expect(locationOf(reset).pathname).toBe("/reset");
    expect(locationOf(reset).searchParams.get("token")).toBe("b".repeat(64));
    // A refused sign-up goes back to the app's page; the confirmation link opens the app's sign-in page.
    const refused = await signUp(config, new CookieJar(), ADA, "short");
    expect(locationOf(refused).pathname).toBe("/signup");
    await signUp(config, new CookieJar(), ADA, PASSWORD);
    const { link } = await nextMail(mail, 0);
    expect(link.pathname).toBe("/signin");
  });

  it("'check your email' says which mail was sent", async () => {
    const { config } = app([passwordProvider(mail)]);
    const signUpText = await (await call(config, "/auth/verify-request?provider=password&type=sign-up")).text();
    expect(signUpText).toContain("We sent a link to confirm your address.");
    const resetText = await (await call(config, "/auth/verify-request?provider=password&type=password-reset")).text();
    expect(resetText).toContain("If an account uses this address, we sent it a link to choose a new password.");
  });

  it("without a Password provider the paths do not exist (400)", async () => {
    const { config } = app([Password({ developmentMail: true })]);
    const none = { ...config, providers: [] };
    for (const path of ["/auth/signup", "/auth/forgot-password", "/auth/reset-password"]) {
      const response = await call(none, path);
      expect(response.status).toBe(400);
    }
  });
});

describe("the mail rate limit (always on)", () => {
  it("counts mails per address before any lookup: the sixth in an hour is 429 for known and unknown addresses alike", async () => {
    const { config } = app([passwordProvider(mail)]);
    await signUp(config, new CookieJar(), ADA, PASSWORD);
    for (let i = 0; i < 4; i++) expect((await forgotPassword(config, new CookieJar(), ADA)).status).toBe(302);
    const limited = await forgotPassword(config, new CookieJar(), ADA);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect((await forgotPassword(config, new CookieJar(), "nobody@example.test")).status).toBe(302);
    expect((await forgotPassword(config, new CookieJar(), "nobody@example.test")).status).toBe(429);
    // Another address is not held up.
    expect((await forgotPassword(config, new CookieJar(), "grace@example.test")).status).toBe(302);
    // One confirmation, four resets for Ada, five for nobody, one for Grace; the refused ones sent nothing.
    await mail.waitFor(11);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mail.messages).toHaveLength(11);
  });

  it("counts mails per client address, whatever address they go to", async () => {
    const { config } = app([passwordProvider(mail, { mailRateLimit: { ip: 3 } })], {
      rateLimit: { clientAddress: () => "203.0.113.7" },
    });
    for (let i = 0; i < 3; i++) expect((await forgotPassword(config, new CookieJar(), `person${i}@example.test`)).status).toBe(302);
    expect((await forgotPassword(config, new CookieJar(), "person9@example.test")).status).toBe(429);
    expect((await signUp(config, new CookieJar(), "person10@example.test", PASSWORD)).status).toBe(429);
  });

  it("over the limit, the right password of an unconfirmed account is still refused the same way, with no new mail", async () => {
    const { config } = app([passwordProvider(mail, { mailRateLimit: { identifier: 1 } })]);
    await signUp(config, new CookieJar(), ADA, PASSWORD);
    await nextMail(mail, 0);
    const response = await signIn(config, new CookieJar(), ADA, PASSWORD);
    expect(locationOf(response).searchParams.get("code")).toBe("unconfirmed");
    expect(storesSession(response)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail.messages).toHaveLength(1);
  });
});

describe("stored hashes", () => {
  it("a hash in the older form signs in and is replaced by a PHC hash at that sign-in; a wrong password leaves it alone", async () => {
    const { config, adapter } = app([passwordProvider(mail)]);
    const old = await legacyHash(PASSWORD);
    const user = await adapter.createUserWithPassword!({ email: ADA, emailVerified: new Date(), name: "Ada", image: null }, old);
    const wrong = await signIn(config, new CookieJar(), ADA, "not the password");
    expect(locationOf(wrong).searchParams.get("code")).toBe("credentials");
    expect(await adapter.getUserPassword!(user!.id)).toBe(old);

    const jar = new CookieJar();
    await signIn(config, jar, ADA, PASSWORD);
    expect(await sessionEmail(config, jar)).toBe(ADA);
    const replaced = await adapter.getUserPassword!(user!.id);
    expect(replaced).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/);
    const again = new CookieJar();
    await signIn(config, again, ADA, PASSWORD);
    expect(await sessionEmail(config, again)).toBe(ADA);
    expect(await adapter.getUserPassword!(user!.id)).toBe(replaced);
  });

  it("a damaged stored hash refuses the sign-in (never a server error)", async () => {
    const { config, adapter } = app([passwordProvider(mail)]);
    await adapter.createUserWithPassword!({ email: ADA, emailVerified: new Date(), name: null, image: null }, "$scrypt$ln=99,r=8,p=3$AAAA$BBBB");
    const response = await signIn(config, new CookieJar(), ADA, PASSWORD);
    expect(response.status).toBe(302);
    expect(locationOf(response).searchParams.get("code")).toBe("credentials");
  });
});
