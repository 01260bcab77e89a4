/**
 * `auth-init --yes` in real SolidStart apps — SolidStart 2 (Vite + Nitro) on
 * PGlite and 1.x (vinxi) on a fresh database of the PostgreSQL server
 * (`--adapter postgres`; PGlite too when DATABASE_URL is unset), copies of the
 * CLI's fixture apps — with this checkout's runtime: the generated code
 * type-checks, builds, starts as the next steps say, and lets a person sign up,
 * confirm the address through the mailed link, sign out and sign in again,
 * reset a forgotten password, and take back an address someone else signed up
 * with, in headless Chromium; every app mails through a real SMTP server on
 * 127.0.0.1 of its own (in production the app serves nothing without one).
 * The same pages work as plain form posts to the auth handler (no JavaScript),
 * and the middleware guards /protected. The SolidStart 2 app is made with
 * `--providers credentials,keycloak,email,passkey` and also signs in with
 * Keycloak against a real OpenID provider (oidc-provider on 127.0.0.1), twice,
 * as one user, with a mailed sign-in link, and with passkeys on Chromium's
 * virtual authenticator. Last, each app is stopped as a process manager stops
 * it (support/shutdown.ts): its built server, run with node, exits with code 0
 * within a few seconds of SIGTERM (and of SIGINT on PGlite), its database
 * closed (the PGlite folder opens again in another process).
 */
import { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../helpers.js";
import { linkIn } from "../email/support/smtp.js";
import { claimedAddressTakenBack, EMAIL, NAME, resetForgottenPassword, signUpOutAndIn, signUpWithTakenEmail, tooManyWrongPasswords, VICTIM_EMAIL } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { http } from "./support/http.js";
import { LOGIN, PROVIDER, PROVIDER_EMAIL, signInWithProviderTwice, signInWithTakenEmail, startProviderFor, UNPROVEN_LOGIN, type AppProvider } from "./support/oauth-flow.js";
import { checkAuthPages } from "./support/accessibility.js";
import { lastWayInRefused, manageAccount, providerOnlyUserCannotDisconnect, renamePasskey } from "./support/account-page-flow.js";

/** The provider-only user's address: its provider does not vouch for it. */
const UNPROVEN_EMAIL = `${UNPROVEN_LOGIN}@example.test`;
import { LINK_EMAIL, PASSKEY_EMAIL, passkeySignUpOutAndIn, signInWithEmailLink, startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { freePort, run, type RunningServer } from "./support/processes.js";
import { expectCleanStop, shutdownSignals, type ShutdownAdapter } from "./support/shutdown.js";
import { startBuiltSolidStart, startCliSolidStartApp, type CliSolidStartApp, type SolidStartVersion } from "./support/solid-start-app.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";

const VERSIONS: SolidStartVersion[] = ["2", "1"];
const CONFIG: Record<SolidStartVersion, string> = { "2": "vite.config.ts", "1": "app.config.ts" };
/** The app that also signs in with Keycloak, email links and passkeys; 1.x keeps `--yes`'s defaults (credentials only). */
const OAUTH_VERSION: SolidStartVersion = "2";
const AUTH_PATH = "/api/auth";
/** Every user by email, with whether a password hash is stored (the runtime's `user_passwords`). */
const USERS_SQL = `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id ORDER BY u.email`;

/** The 1.x app runs on the PostgreSQL server when there is one: each framework is tested on both databases. */
const serverUrl = process.env.DATABASE_URL;
const POSTGRES_VERSION: SolidStartVersion | undefined = serverUrl ? "1" : undefined;
let database: TestDatabase | undefined;

const apps = new Map<SolidStartVersion, CliSolidStartApp>();
let provider: AppProvider | undefined;
/** Each app's own SMTP server: sign-up and password reset mail their links, and in production the app serves nothing without one. */
const mails = new Map<SolidStartVersion, AppMail>();

/** The address the plain-form-posts test signs up with. */
const noJsEmail = (version: SolidStartVersion) => `nojs-v${version}@example.com`;

/** The OAuth app's port comes first: the provider must know its callback URL before it starts. */
async function startApp(version: SolidStartVersion): Promise<CliSolidStartApp> {
  const mail = await startMailFor();
  mails.set(version, mail);
  if (version === POSTGRES_VERSION) {
    database = await createTestDatabase(serverUrl!, "solid_start");
    // The server gets the app's database: the test run's DATABASE_URL (the server's admin database) would win over .env.
    const initArgs = ["--adapter", "postgres", "--database-url", database.url];
    return startCliSolidStartApp(version, { initArgs, env: { ...mail.env, DATABASE_URL: database.url } });
  }
  if (version !== OAUTH_VERSION) return startCliSolidStartApp(version, { env: mail.env });
  const port = await freePort();
  provider = await startProviderFor(`http://localhost:${port}`, AUTH_PATH);
  const initArgs = ["--providers", `credentials,${PROVIDER.id},email,passkey`];
  return startCliSolidStartApp(version, { initArgs, port, env: { ...provider.env, ...mail.env } });
}

beforeAll(async () => {
  const started = Date.now();
  // Both apps install and build side by side: the installs wait on the network, the builds on the CPU.
  const results = await Promise.allSettled(VERSIONS.map((version) => startApp(version)));
  for (const result of results) if (result.status === "fulfilled") apps.set(result.value.version, result.value);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  const timings = [...apps.values()].map((app) => `v${app.version}: auth-init ${app.timings.init} s, build ${app.timings.build} s`);
  console.log(`[e2e] auth-init's SolidStart apps ready in ${(Date.now() - started) / 1000} s (${timings.join("; ")})`);
}, 600_000);

afterAll(async () => {
  // Removing the two apps' folders (node_modules and all) takes more than the 10 s a hook gets by default.
  await Promise.all([...apps.values()].map((app) => app.stop()));
  await provider?.server.close();
  await Promise.all([...mails.values()].map((mail) => mail.server.close()));
  await database?.drop();
}, 120_000);

/** The text of an HTML attribute value as Solid's server renderer escapes it. */
function unescapeAttribute(value: string): string {
  return value.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** The form posting to `action` in a server-rendered page: its action, CSRF token and every hidden field (the token among them). */
function form(html: string, action: RegExp): { action: string; csrfToken: string; fields: Record<string, string> } {
  const found = new RegExp(`<form[^>]*action="(${action.source}[^"]*)"[^>]*>(.*?)</form>`, "s").exec(html);
  const fields: Record<string, string> = {};
  for (const [input] of (found?.[2] ?? "").matchAll(/<input\b[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(input)?.[1];
    if (name !== undefined && /\stype="hidden"/.test(input)) fields[name] = unescapeAttribute(/\svalue="([^"]*)"/.exec(input)?.[1] ?? "");
  }
  const csrfToken = fields.csrfToken;
  if (!found || !csrfToken || !/^[0-9a-f]{64}$/.test(csrfToken)) throw new Error(`no form posting to ${action} with a CSRF token in:\n${html.slice(0, 2000)}`);
  return { action: unescapeAttribute(found[1]!), csrfToken, fields };
}

/** A redirect's target, which must be a page of the app's own origin. */
function redirectedTo(response: Response, origin: string): URL {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!, origin);
  expect(location.origin).toBe(origin);
  return location;
}

async function sessionUser(server: RunningServer, jar: CookieJar): Promise<{ name?: string; email?: string } | undefined> {
  const session = (await (await http(server, "/api/auth/session", { jar })).json()) as { user?: { name?: string; email?: string } } | null;
  return session?.user;
}

describe.each(VERSIONS)("auth-init --yes in a SolidStart %s app", (version) => {
  const app = () => apps.get(version)!;
  const server = () => app().server;
  const mail = () => mails.get(version)!.server;

  it("wrote what it said, with this checkout's runtime, and ends with next steps that say how to run the build", () => {
    const { initOutput, dir } = app();
    expect(initOutput).toContain("created src/auth.ts");
    expect(initOutput).toContain("created src/routes/api/auth/[...solidauth].ts");
    for (const page of ["signup", "forgot-password", "reset-password"]) expect(initOutput).toContain(`created src/routes/${page}.tsx`);
    expect(initOutput).toContain(`updated ${CONFIG[version]}`);
    expect(initOutput).toContain("Next steps:");
    // The test starts the server with exactly this command.
    expect(initOutput).toContain("`node --env-file=.env .output/server/index.mjs`");
    expect(initOutput).toContain("in production, set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM: without them the server stops with an error naming them as soon as it loads its auth config.");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
    const driver = version === POSTGRES_VERSION ? "pg" : "@electric-sql/pglite";
    expect(pkg.dependencies[driver]).toBeDefined();
    if (version === POSTGRES_VERSION) expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(new RegExp(`^DATABASE_URL="?${database!.url.replace(/[.?*+^$()[\]{}|\\]/g, "\\$&")}"?$`, "m"));
  });

  it("the generated code type-checks (tsc --noEmit)", async () => {
    await run("npx", ["tsc", "--noEmit", "-p", "."], { cwd: app().dir, timeoutMs: 120_000 });
  }, 120_000);

  it("the middleware answers /protected without a session with a 303 to the sign-in page", async () => {
    const response = await http(server(), "/protected");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin?callbackUrl=%2Fprotected");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("without JavaScript: sign-up, the mailed confirmation and sign-in are plain form posts to the handler; a post without the page's CSRF token is refused", async () => {
    const { origin } = server();
    const email = noJsEmail(version);
    const password = "a long enough password";
    const mailsTo = () => mail().messages.filter((message) => message.to.includes(email));

    // A post from another site: no CSRF cookie, a made-up token. Refused before anything is looked at.
    const anonymous = new CookieJar();
    const signUpPage = form(await (await http(server(), "/signup", { jar: anonymous })).text(), /\/api\/auth\/signup/);
    expect(signUpPage.action).toBe("/api/auth/signup");
    const forged = await http(server(), signUpPage.action, { form: { email, password, csrfToken: "0".repeat(64), callbackUrl: "/protected" } });
    const forgedTo = redirectedTo(forged, origin);
    expect(forgedTo.pathname).toBe("/signin");
    expect(forgedTo.searchParams.get("error")).toBe("MissingCSRF");
    // The page's cookie without the page's token: refused too.
    const tokenless = await http(server(), signUpPage.action, { jar: anonymous, form: { email, password, callbackUrl: "/protected" } });
    expect(redirectedTo(tokenless, origin).searchParams.get("error")).toBe("MissingCSRF");
    // A token of 64 characters that are not hex (multi-byte in UTF-8): refused the same way, never a 500.
    const odd = await http(server(), signUpPage.action, { jar: anonymous, form: { email, password, csrfToken: "é".repeat(64), callbackUrl: "/protected" } });
    expect(redirectedTo(odd, origin).searchParams.get("error")).toBe("MissingCSRF");
    expect(await sessionUser(server(), anonymous)).toBeUndefined();

    // With the page's token: "check your email", a mail with the link, and nobody signed in yet.
    const jar = new CookieJar();
    const page = form(await (await http(server(), "/signup", { jar })).text(), /\/api\/auth\/signup/);
    // Without a destination, the confirmation link would land on the account page.
    expect(page.fields.callbackUrl).toBe("/account");
    const signedUp = await http(server(), page.action, { jar, form: { ...page.fields, name: NAME, email, password, callbackUrl: "/protected" } });
    const checkEmail = redirectedTo(signedUp, origin);
    expect(checkEmail.pathname).toBe("/api/auth/verify-request");
    expect(Object.fromEntries(checkEmail.searchParams)).toEqual({ provider: "password", type: "sign-up" });
    const checkEmailPage = await http(server(), checkEmail.pathname + checkEmail.search, { jar });
    expect(checkEmailPage.status).toBe(200);
    expect(await checkEmailPage.text()).toContain("Check your email");
    expect(await sessionUser(server(), jar)).toBeUndefined();
    // The first mail to the address is a confirmation: the forged posts created no account (a taken address gets "You already have an account").
    await expect.poll(() => mailsTo().length, { timeout: 20_000 }).toBe(1);
    expect(mailsTo()[0]!.subject).toBe(`Confirm your email address for ${new URL(origin).host}`);
    const link = linkIn(mailsTo()[0]!);
    expect(link.origin + link.pathname).toBe(`${origin}/signin`);
    expect(link.searchParams.get("email")).toBe(email);
    expect(link.searchParams.get("callbackUrl")).toBe(`${origin}/protected`);
    const confirm = link.searchParams.get("confirm");
    expect(confirm).toMatch(/^[0-9a-f]{64}$/);

    // The link opens the sign-in page; its form carries the link's token in a hidden field.
    const signInPage = await (await http(server(), link.pathname + link.search, { jar })).text();
    expect(signInPage.replace(/<!--.*?-->/g, "")).toContain("Enter your password to confirm your email address.");
    const confirming = form(signInPage, /\/api\/auth\/callback\/password/);
    expect(confirming.action).toBe("/api/auth/callback/password");
    expect(confirming.fields).toMatchObject({ confirm, callbackUrl: `${origin}/protected` });

    // The right password without the token: refused with the code only the right password gets, and a new link mailed.
    const { confirm: _confirm, ...withoutToken } = confirming.fields;
    const unconfirmed = redirectedTo(await http(server(), confirming.action, { jar, form: { ...withoutToken, email, password } }), origin);
    expect(unconfirmed.pathname).toBe("/signin");
    expect(unconfirmed.searchParams.get("error")).toBe("CredentialsSignin");
    expect(unconfirmed.searchParams.get("code")).toBe("unconfirmed");
    expect(await sessionUser(server(), jar)).toBeUndefined();
    await expect.poll(() => mailsTo().length, { timeout: 20_000 }).toBe(2);
    expect(mailsTo()[1]!.subject).toBe(mailsTo()[0]!.subject);

    // With the link's token: the address is confirmed, signed in, and on to where the sign-up asked to go.
    const confirmed = await http(server(), confirming.action, { jar, form: { ...confirming.fields, email, password } });
    expect(redirectedTo(confirmed, origin).href).toBe(`${origin}/protected`);
    expect(await sessionUser(server(), jar)).toMatchObject({ name: NAME, email });
    const protectedPage = await (await http(server(), "/protected", { jar })).text();
    expect(protectedPage.replace(/<!--.*?-->/g, "")).toContain(`Signed in as ${NAME} (${email}).`);

    // From now on the password alone signs in: a wrong one is refused generically, the right one signs in.
    const fresh = new CookieJar();
    const signIn = form(await (await http(server(), "/signin", { jar: fresh })).text(), /\/api\/auth\/callback\/password/);
    expect(signIn.fields.confirm).toBeUndefined();
    const wrong = redirectedTo(await http(server(), signIn.action, { jar: fresh, form: { ...signIn.fields, email, password: "not the password" } }), origin);
    expect(wrong.pathname).toBe("/signin");
    expect(wrong.searchParams.get("error")).toBe("CredentialsSignin");
    expect(wrong.searchParams.get("code")).toBe("credentials");
    expect(await sessionUser(server(), fresh)).toBeUndefined();
    const right = await http(server(), signIn.action, { jar: fresh, form: { ...signIn.fields, email, password } });
    // No destination on the sign-in page: the account page.
    expect(redirectedTo(right, origin).href).toBe(`${origin}/account`);
    expect((await sessionUser(server(), fresh))?.email).toBe(email);
    // No more mail: a confirmed account's sign-in sends none.
    expect(mailsTo()).toHaveLength(2);
    // Each post hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
  }, 120_000);

  describe.skipIf(!hasChromium)("in Chromium", () => {
    const { freshPage, shot } = useBrowser(`cli-solid-start-v${version}`);

    const account = () => ({ origin: server().origin, returnParam: "callbackUrl", userLine: "main p", home: "/account" }) as const;

    it("sign up, confirm the address through the mailed link, see the protected page, sign out, a wrong password is refused generically, sign in again", async () => {
      await signUpOutAndIn(await freshPage(), shot, account(), mail());
      // Each step hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
    }, 120_000);

    it("signing up again with a taken email answers as for a free one, mails the owner, and signs nobody in", async () => {
      const origin = server().origin;
      const page = await freshPage();
      await signUpWithTakenEmail(page, account(), mail());
      // The refusals are codes in the URL with a fixed message each: the URL's text is never shown.
      await page.goto(`${origin}/signup?error=PasswordSignUp&code=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
      expect(await page.locator("[role=alert]").allInnerTexts()).toEqual(["Could not create the account. Try again."]);
      await page.goto(`${origin}/protected`);
      await page.waitForURL(`${origin}/signin?callbackUrl=%2Fprotected`);
      await shot(page, "taken-email");
    }, 60_000);

    it("forgot password: the mailed link sets a new one and signs in; the other browser's session ends; the link works once", async () => {
      await resetForgottenPassword(await freshPage(), shot, account(), mail());
    }, 180_000);

    it("an address someone else signed up with first: they cannot sign in, and its owner takes it back with a reset", async () => {
      await claimedAddressTakenBack(await freshPage(), shot, account(), mail());
    }, 180_000);

    it("the sixth wrong password for one email address in 15 minutes: the handler's page says too many attempts (429)", async () => {
      const page = await freshPage();
      await tooManyWrongPasswords(page, account(), async () => {
        await expect.poll(() => page.locator("h1").innerText(), { timeout: 20_000 }).toBe("Too many attempts");
        expect(await page.locator(".message").innerText()).toMatch(/^There have been too many sign-in attempts\. Please try again in about 15 minutes\.$/);
        await shot(page, "too-many-attempts");
      });
    }, 120_000);

    it.skipIf(version !== OAUTH_VERSION)("sign in with Keycloak through the provider's login and consent pages, sign out, sign in again as the same person", async () => {
      await signInWithProviderTwice(await freshPage(), shot, account(), provider!.server);
      expect(provider!.server.serverErrors).toEqual([]);
    }, 90_000);

    it.skipIf(version !== OAUTH_VERSION)("Keycloak saying the password account's email without having verified it: refused, back on the app's sign-in page with its message; nobody signed in", async () => {
      await signInWithTakenEmail(await freshPage(), shot, account(), provider!.server);
    }, 60_000);

    it.skipIf(version !== OAUTH_VERSION)("sign in with a link from the mail (through its confirmation page); the used link is refused afterwards", async () => {
      await signInWithEmailLink(await freshPage(), shot, account(), mail());
    }, 90_000);

    it.skipIf(version !== OAUTH_VERSION)("register with a passkey and a new email, sign out, sign in with the passkey by email and without one", async () => {
      const page = await freshPage();
      await passkeySignUpOutAndIn(page, shot, account());
      // On the account page: renamed; it cannot be removed (the only way in).
      await renamePasskey(page, account(), "Work laptop");
      await lastWayInRefused(page, shot, account(), "passkeys");
    }, 120_000);

    it("every page has a title, passes axe-core's WCAG 2.1 A and AA rules, and Tab goes through the form in order", async () => {
      await checkAuthPages(await freshPage(), shot, server().origin, true);
    }, 60_000);

    it("the account page: the name, two browsers and sign out everywhere else, the password, sessions, passkeys, a provider connected and disconnected, deleting the account", async () => {
      const oauth = version === OAUTH_VERSION;
      await manageAccount(await freshPage(), shot, account(), mail(), { passkeys: oauth, provider: oauth ? provider!.server : undefined });
    }, 240_000);

    it.skipIf(version !== OAUTH_VERSION)("the account page never takes away the last way in: a provider-only user cannot disconnect it, and sets a first password by mail", async () => {
      await providerOnlyUserCannotDisconnect(await freshPage(), shot, account(), provider!.server, mail());
    }, 90_000);
  });

  it.skipIf(version !== OAUTH_VERSION)("with Keycloak: the sign-in page's plain form carries the CSRF token; next steps name the callback URL and the keys", async () => {
    const signIn = form(await (await http(server(), "/signin", { jar: new CookieJar() })).text(), /\/api\/auth\/signin\/keycloak/);
    expect(signIn.action).toBe("/api/auth/signin/keycloak");
    expect(app().initOutput).toContain(
      "Register the callback URL http://localhost:5173/api/auth/callback/keycloak for Keycloak, then set AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER in .env.",
    );
    for (const file of [".env", ".env.example"]) expect(readFileSync(join(app().dir, file), "utf8")).toMatch(/^AUTH_KEYCLOAK_ISSUER=$/m);
  });

  /** Every user by email, with whether a password hash is stored, as the tests above leave them. */
  const expectedUsers = () => {
    const browser = [
      { email: EMAIL, hashed: true },
      { email: VICTIM_EMAIL, hashed: true },
      // The account page's own user deleted their account; the provider-only user set a password by mail.
      ...(version === OAUTH_VERSION ? [PROVIDER_EMAIL, LINK_EMAIL, PASSKEY_EMAIL].map((email) => ({ email, hashed: false })) : []),
      ...(version === OAUTH_VERSION ? [{ email: UNPROVEN_EMAIL, hashed: true }] : []),
    ];
    return [{ email: noJsEmail(version), hashed: true }, ...(hasChromium ? browser : [])].sort((a, b) => a.email.localeCompare(b.email));
  };

  it.skipIf(version !== POSTGRES_VERSION)("its database on the PostgreSQL server holds one user per person, a password hash only for those who signed up with a password", async () => {
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      expect((await client.query<{ email: string; hashed: boolean }>(USERS_SQL)).rows).toEqual(expectedUsers());
    } finally {
      await client.end();
    }
  });

  // Last: PGlite allows one process per folder, so the server stops first.
  it.skipIf(version === POSTGRES_VERSION)("after the server stops, its PGlite database holds one user per person (a password hash only for those who signed up with a password), and one keycloak account linked to the Keycloak login's user", async () => {
    await app().server.stop();
    const db = new PGlite(join(app().dir, ".pglite"));
    try {
      expect((await db.query<{ email: string; hashed: boolean }>(USERS_SQL)).rows).toEqual(expectedUsers());
      const accounts = await db.query<{ email: string; providerAccountId: string }>(`SELECT u.email, a."providerAccountId" FROM accounts a JOIN users u ON u.id = a."userId" WHERE a.provider = $1`, [PROVIDER.id]);
      // The provider-only user's link went with the hand-over when they proved their address.
      expect(accounts.rows).toEqual(version === OAUTH_VERSION && hasChromium ? [{ email: PROVIDER_EMAIL, providerAccountId: LOGIN }] : []);
    } finally {
      await db.close();
    }
  }, 60_000);

  // After the PGlite check: a PGlite app's server has stopped, so a server that did start could not share its folder.
  it("in production without a mail server the built server does not start, naming the settings", async () => {
    const env = { AUTH_EMAIL_SERVER: "", AUTH_EMAIL_FROM: "", ...(version === POSTGRES_VERSION ? { DATABASE_URL: database!.url } : {}) };
    const started = await startBuiltSolidStart(app().dir, { nodeArgs: ["--env-file=.env"], env }).catch((error: Error) => error);
    // 1.x (vinxi's Nitro) loads src/auth.ts as it starts; 2 loads it at the first request, so its Nitro
    // plugin (src/lib/server/startup-checks.ts) makes the same check at startup: either way the process exits.
    if (!(started instanceof Error)) await started.stop();
    expect(started).toBeInstanceOf(Error);
    expect((started as Error).message).toMatch(/AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM must be set in production: sign-up and password reset mail their links/);
  }, 90_000);

  // Last: the app's server stops first (PGlite allows one process per folder; stop() is safe to call again in afterAll).
  const adapter: ShutdownAdapter = version === POSTGRES_VERSION ? "postgres" : "pglite";
  it.each(shutdownSignals(adapter))("the built server, run with node as a process manager runs it, exits with code 0 within a few seconds of %s, its database closed", async (signal) => {
    await server().stop();
    const env = { ...(version === OAUTH_VERSION ? provider?.env : {}), ...mails.get(version)!.env };
    await expectCleanStop(app().dir, { framework: "solid-start", adapter, signal, env });
  }, 60_000);
});
