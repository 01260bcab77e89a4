/**
 * `auth-init --yes` in real SolidStart apps — SolidStart 2 (Vite + Nitro) on
 * PGlite and 1.x (vinxi) on a fresh database of the PostgreSQL server
 * (`--adapter postgres`; PGlite too when DATABASE_URL is unset), copies of the
 * CLI's fixture apps — with this checkout's runtime: the generated code type-checks, builds, starts as the next steps
 * say, and lets a person sign up, sign out and sign in again in headless
 * Chromium; the same pages work as plain form posts (no JavaScript), and the
 * middleware guards /protected. The SolidStart 2 app is made with
 * `--providers credentials,keycloak,email,passkey` and also signs in with Keycloak
 * against a real OpenID provider (oidc-provider on 127.0.0.1), twice, as one
 * user, with a link mailed to a real SMTP server on 127.0.0.1, and with
 * passkeys on Chromium's virtual authenticator.
 */
import { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../helpers.js";
import { EMAIL, NAME, signUpOutAndIn, signUpWithTakenEmail, tooManyWrongPasswords } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { http } from "./support/http.js";
import { LOGIN, PROVIDER, PROVIDER_EMAIL, signInWithProviderTwice, signInWithTakenEmail, startProviderFor, type AppProvider } from "./support/oauth-flow.js";
import { LINK_EMAIL, PASSKEY_EMAIL, passkeySignUpOutAndIn, signInWithEmailLink, startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { freePort, run, type RunningServer } from "./support/processes.js";
import { startCliSolidStartApp, type CliSolidStartApp, type SolidStartVersion } from "./support/solid-start-app.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";

const VERSIONS: SolidStartVersion[] = ["2", "1"];
const CONFIG: Record<SolidStartVersion, string> = { "2": "vite.config.ts", "1": "app.config.ts" };
/** The app that also signs in with Keycloak, email links and passkeys; 1.x keeps `--yes`'s defaults (credentials only). */
const OAUTH_VERSION: SolidStartVersion = "2";
const AUTH_PATH = "/api/auth";

/** The 1.x app runs on the PostgreSQL server when there is one: each framework is tested on both databases. */
const serverUrl = process.env.DATABASE_URL;
const POSTGRES_VERSION: SolidStartVersion | undefined = serverUrl ? "1" : undefined;
let database: TestDatabase | undefined;

const apps = new Map<SolidStartVersion, CliSolidStartApp>();
let provider: AppProvider | undefined;
let mail: AppMail | undefined;

/** The OAuth app's port comes first: the provider must know its callback URL before it starts. */
async function startApp(version: SolidStartVersion): Promise<CliSolidStartApp> {
  if (version === POSTGRES_VERSION) {
    database = await createTestDatabase(serverUrl!, "solid_start");
    // The server gets the app's database: the test run's DATABASE_URL (the server's admin database) would win over .env.
    return startCliSolidStartApp(version, { initArgs: ["--adapter", "postgres", "--database-url", database.url], env: { DATABASE_URL: database.url } });
  }
  if (version !== OAUTH_VERSION) return startCliSolidStartApp(version);
  const port = await freePort();
  provider = await startProviderFor(`http://localhost:${port}`, AUTH_PATH);
  mail = await startMailFor();
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
  await Promise.all([...apps.values()].map((app) => app.stop()));
  await provider?.server.close();
  await mail?.server.close();
  await database?.drop();
});

/** The hidden csrfToken and the form's action in a server-rendered page. */
function form(html: string, action: RegExp): { action: string; csrfToken: string } {
  const found = new RegExp(`<form[^>]*action="(${action.source}[^"]*)"[^>]*>(.*?)</form>`, "s").exec(html);
  const csrfToken = /name="csrfToken" value="([0-9a-f]{64})"/.exec(found?.[2] ?? "")?.[1];
  if (!found || !csrfToken) throw new Error(`no form posting to ${action} with a CSRF token in:\n${html.slice(0, 2000)}`);
  return { action: found[1]!.replaceAll("&amp;", "&"), csrfToken };
}

async function sessionUser(server: RunningServer, jar: CookieJar): Promise<{ name?: string; email?: string } | undefined> {
  const session = (await (await http(server, "/api/auth/session", { jar })).json()) as { user?: { name?: string; email?: string } } | null;
  return session?.user;
}

describe.each(VERSIONS)("auth-init --yes in a SolidStart %s app", (version) => {
  const app = () => apps.get(version)!;
  const server = () => app().server;

  it("wrote what it said, with this checkout's runtime, and ends with next steps that say how to run the build", () => {
    const { initOutput, dir } = app();
    expect(initOutput).toContain("created src/auth.ts");
    expect(initOutput).toContain("created src/routes/api/auth/[...solidauth].ts");
    expect(initOutput).toContain(`updated ${CONFIG[version]}`);
    expect(initOutput).toContain("Next steps:");
    // The test starts the server with exactly this command.
    expect(initOutput).toContain("`node --env-file=.env .output/server/index.mjs`");
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

  it("without JavaScript: the sign-up server action and the sign-in form work as plain form posts; a form without the CSRF token is refused", async () => {
    const email = `nojs-v${version}@example.com`;
    const password = "a long enough password";
    // A post from another site: no CSRF cookie, no token. Nobody is created or signed in.
    const anonymous = new CookieJar();
    const signUpPage = form(await (await http(server(), "/signup", { jar: anonymous })).text(), /\/_server/);
    const forged = await http(server(), signUpPage.action, { form: { email, password, csrfToken: "0".repeat(64) }, headers: { referer: `${server().origin}/signup` } });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toBe("/signup?error=expired");
    // A redirect, not a returned result: SolidStart keeps no flash cookie with the submitted form (and password).
    expect(forged.headers.getSetCookie().filter((cookie) => cookie.startsWith("flash="))).toEqual([]);
    expect(await sessionUser(server(), anonymous)).toBeUndefined();

    const jar = new CookieJar();
    const page = form(await (await http(server(), "/signup", { jar })).text(), /\/_server/);
    const signedUp = await http(server(), page.action, { jar, form: { ...page, name: NAME, email, password, callbackUrl: "/protected" }, headers: { referer: `${server().origin}/signup` } });
    expect(signedUp.status).toBe(302);
    expect(signedUp.headers.get("location")).toBe(`${server().origin}/protected`);
    expect(await sessionUser(server(), jar)).toMatchObject({ name: NAME, email });
    const protectedPage = await (await http(server(), "/protected", { jar })).text();
    expect(protectedPage.replace(/<!--.*?-->/g, "")).toContain(`Signed in as ${NAME} (${email}).`);

    const fresh = new CookieJar();
    const signIn = form(await (await http(server(), "/signin", { jar: fresh })).text(), /\/api\/auth\/callback\/credentials/);
    const wrong = await http(server(), signIn.action, { jar: fresh, form: { csrfToken: signIn.csrfToken, email, password: "not the password", callbackUrl: "/" } });
    expect(new URL(wrong.headers.get("location")!).pathname).toBe("/signin");
    expect(new URL(wrong.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin");
    expect(await sessionUser(server(), fresh)).toBeUndefined();
    const right = await http(server(), signIn.action, { jar: fresh, form: { csrfToken: signIn.csrfToken, email, password, callbackUrl: "/" } });
    expect(right.headers.get("location")).toBe(`${server().origin}/`);
    expect((await sessionUser(server(), fresh))?.email).toBe(email);
    // Each post hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
  }, 120_000);

  describe.skipIf(!hasChromium)("in Chromium", () => {
    const { freshPage, shot } = useBrowser(`cli-solid-start-v${version}`);

    const account = () => ({ origin: server().origin, returnParam: "callbackUrl", userLine: "main p" }) as const;

    it("sign up, see the protected page, sign out, a wrong password is refused generically, sign in again", async () => {
      await signUpOutAndIn(await freshPage(), shot, account());
      // Each step hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
    }, 120_000);

    it("signing up again with a taken email shows the generic refusal and signs nobody in", async () => {
      const origin = server().origin;
      const page = await freshPage();
      await signUpWithTakenEmail(page, account());
      // The refusal is a code in the URL (a fixed message per code: the URL's text is never shown).
      expect(page.url()).toBe(`${origin}/signup?error=not-created&callbackUrl=%2F`);
      await page.goto(`${origin}/signup?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
      expect(await page.locator("[role=alert]").count()).toBe(0);
      await page.goto(`${origin}/protected`);
      await page.waitForURL(`${origin}/signin?callbackUrl=%2Fprotected`);
      await shot(page, "taken-email");
    }, 60_000);

    it("the sixth wrong password for one email address in 15 minutes: the handler's page says too many attempts (429)", async () => {
      const page = await freshPage();
      await tooManyWrongPasswords(page, account(), async () => {
        await expect.poll(() => page.locator("h1").innerText()).toBe("Too many attempts");
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
      await signInWithEmailLink(await freshPage(), shot, account(), mail!.server);
    }, 90_000);

    it.skipIf(version !== OAUTH_VERSION)("register with a passkey and a new email, sign out, sign in with the passkey by email and without one", async () => {
      await passkeySignUpOutAndIn(await freshPage(), shot, account());
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

  // Last: PGlite allows one process per folder, so the server stops first.
  it.skipIf(version !== OAUTH_VERSION)("after the server stops, its PGlite database holds one user per person, and one keycloak account linked to the Keycloak login's user", async () => {
    await app().server.stop();
    const db = new PGlite(join(app().dir, ".pglite"));
    try {
      const users = await db.query<{ email: string }>("SELECT email FROM users ORDER BY email");
      expect(users.rows.map((row) => row.email)).toEqual([EMAIL, `nojs-v${version}@example.com`, PROVIDER_EMAIL, LINK_EMAIL, PASSKEY_EMAIL].sort());
      const accounts = await db.query(`SELECT u.email, a."providerAccountId" FROM accounts a JOIN users u ON u.id = a."userId" WHERE a.provider = $1`, [PROVIDER.id]);
      expect(accounts.rows).toEqual([{ email: PROVIDER_EMAIL, providerAccountId: LOGIN }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
