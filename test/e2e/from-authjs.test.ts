/**
 * Moving an Auth.js app over, end to end: a SvelteKit app written from the
 * Auth.js guide (`@auth/sveltekit` 1.11.3, Credentials + Keycloak against a real
 * OpenID provider on 127.0.0.1, JWT sessions) is built and started, and two
 * people sign in to it in two headless Chromium contexts. Then the app is
 * stopped, `auth-init --from authjs --yes` switches it to @gatehouse/runtime,
 * and it is rebuilt and started on the same port: both people reload and are
 * still signed in as themselves (the Auth.js session cookies are read as they
 * are), then sign out and in again through the same forms.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin, snapshotDir } from "../cli/support/cli.js";
import { hasChromium, launchChromium, screenshotFolder } from "./support/browser.js";
import { buildApp, createAuthjsSvelteKitApp, CREDENTIALS_USER, startApp, type AuthjsSvelteKitApp } from "./support/authjs-sveltekit-app.js";
import { LOGIN, PROVIDER_EMAIL, startProviderFor, throughProvider, type AppProvider } from "./support/oauth-flow.js";
import { freePort, run, type RunningServer } from "./support/processes.js";

const SESSION_COOKIE = "authjs.session-token";
/** Text only Auth.js's code has (its error links), and text only gatehouse's SvelteKit glue has. */
const AUTHJS_MARK = "errors.authjs.dev";
const GATEHOUSE_MARK = "Cross-site POST to";

/** Every file under src/ (relative path -> text). */
const sourceFiles = (dir: string): Record<string, string> => snapshotDir(dir, { under: "src", encoding: "utf8" });

/**
 * The server code in the app's build: Vite bundles the auth library into it, so
 * the build itself says which one runs (Auth.js's error links, `errors.authjs.dev`;
 * gatehouse's SvelteKit glue, its "Cross-site POST to" refusal).
 */
function serverBuildText(dir: string): string {
  let text = "";
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".js")) text += readFileSync(path, "utf8");
    }
  };
  walk(join(dir, "build/server"));
  return text;
}

describe.skipIf(!hasChromium)("auth-init --from authjs: an Auth.js SvelteKit app moved over, its people still signed in", () => {
  let port: number;
  let provider: AppProvider;
  let app: AuthjsSvelteKitApp;
  let server: RunningServer | undefined;
  let browser: Browser;
  let shot: (page: Page, step: string) => Promise<void>;
  /** One browser context per person, kept across the switch: their cookies are the point. */
  const people: { credentials?: { context: BrowserContext; page: Page }; oidc?: { context: BrowserContext; page: Page } } = {};
  /** Session cookie values and `/auth/session` users before the switch, per person. */
  const cookiesBefore: Record<string, string> = {};
  const usersBefore: Record<string, unknown> = {};
  let sourcesBefore: Record<string, string>;
  let switched = false;
  let initOutput = "";

  const origin = () => `http://localhost:${port}`;
  const requireSwitched = () => {
    if (!switched) throw new Error("The app was not switched to gatehouse (see the `auth-init --from authjs` test above): nothing after the switch can be checked.");
  };
  const userLine = (page: Page) => page.locator("#user").innerText();
  const sessionCookie = async (context: BrowserContext) => (await context.cookies(origin())).find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  /** The user of `GET /auth/session` with the context's cookies (Auth.js's JSON; gatehouse must answer the same). */
  const sessionUser = async (context: BrowserContext) => ((await (await context.request.get(`${origin()}/auth/session`)).json()) as { user?: unknown } | null)?.user;
  const typeCheck = () => run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir, timeoutMs: 180_000 });

  beforeAll(async () => {
    // The provider must know the app's callback URL before the app exists: the port comes first.
    port = await freePort();
    provider = await startProviderFor(`http://localhost:${port}`, "/auth");
    app = await createAuthjsSvelteKitApp("authjs-app", provider.env);
    const buildMs = await buildApp(app.dir);
    server = await startApp(app.dir, port);
    console.log(`[e2e] from-authjs: sv create + npm i @auth/sveltekit ${(app.createMs / 1000).toFixed(1)} s, build ${(buildMs / 1000).toFixed(1)} s`);
    sourcesBefore = sourceFiles(app.dir);
    browser = await launchChromium();
    shot = screenshotFolder("from-authjs");
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.server.close();
    app?.remove();
  });

  describe("before: the Auth.js app", () => {
    it("runs @auth/sveltekit 1.11.3: package.json pins it and the server build holds Auth.js", () => {
      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      expect(pkg.dependencies["@auth/sveltekit"]).toBe("1.11.3");
      const text = serverBuildText(app.dir);
      expect(text).toContain(AUTHJS_MARK);
      expect(text).not.toContain(GATEHOUSE_MARK);
    });

    it("one person signs in with email and password (Credentials) and sees their email", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      people.credentials = { context, page };
      await page.goto(`${origin()}/`);
      expect(await userLine(page)).toBe("Not signed in");
      await page.goto(`${origin()}/signin`);
      await page.fill("input[name=email]", CREDENTIALS_USER.email);
      await page.fill("input[name=password]", CREDENTIALS_USER.password);
      await shot(page, "authjs-credentials-form");
      await page.click("button:has-text('Sign in with password')");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe(`Signed in as ${CREDENTIALS_USER.email}`);
      await shot(page, "authjs-credentials-signed-in");
      usersBefore.credentials = await sessionUser(context);
      expect(usersBefore.credentials).toEqual({ name: CREDENTIALS_USER.name, email: CREDENTIALS_USER.email });
      // Read after /auth/session, which rolls the cookie.
      cookiesBefore.credentials = (await sessionCookie(context))!;
      expect(cookiesBefore.credentials).toBeTruthy();
    }, 60_000);

    it("another person, in a second browser context, signs in through the OpenID provider's login and consent pages", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      people.oidc = { context, page };
      await page.goto(`${origin()}/signin`);
      await throughProvider(page, shot, provider.server, LOGIN, "authjs");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe(`Signed in as ${PROVIDER_EMAIL}`);
      await shot(page, "authjs-oidc-signed-in");
      usersBefore.oidc = await sessionUser(context);
      expect(usersBefore.oidc).toEqual({ name: `Test User ${LOGIN}`, email: PROVIDER_EMAIL, image: `https://example.test/avatars/${LOGIN}.png` });
      cookiesBefore.oidc = (await sessionCookie(context))!;
      expect(cookiesBefore.oidc).toBeTruthy();
      expect(provider.server.serverErrors).toEqual([]);
    }, 60_000);

    it("type-checks with svelte-check (0 errors, 0 warnings)", async () => {
      expect(await typeCheck()).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    }, 180_000);
  });

  describe("the switch", () => {
    it("auth-init --from authjs --yes rewrites the imports and package.json, keeps .env byte for byte and every other file", async () => {
      await server?.stop();
      server = undefined;
      const started = Date.now();
      initOutput = await run(process.execPath, [authInitBin, "--from", "authjs", "--yes"], { cwd: app.dir, timeoutMs: 600_000 });
      console.log(`[e2e] from-authjs: auth-init --from authjs (with install) ${((Date.now() - started) / 1000).toFixed(1)} s; it printed:\n${initOutput}`);

      // A plan or summary naming what changed.
      expect(initOutput).toContain("src/auth.ts");
      expect(initOutput).toContain("package.json");

      const auth = readFileSync(join(app.dir, "src/auth.ts"), "utf8");
      expect(auth).not.toContain("@auth/");
      expect(auth).toMatch(/import \{ SvelteKitAuth \} from ["']@gatehouse\/runtime\/sveltekit["']/);
      expect(auth).toMatch(/import \{[^}]*\bCredentials\b[^}]*\} from ["']@gatehouse\/runtime\/providers["']/);
      expect(auth).toMatch(/import \{[^}]*\bKeycloak\b[^}]*\} from ["']@gatehouse\/runtime\/providers["']/);
      // Everything after the imports (the authorize callback, the session strategy) as the user wrote it.
      const body = (text: string) => text.slice(text.indexOf("// One fixed person"));
      expect(body(auth)).toBe(body(sourcesBefore["src/auth.ts"]!));

      const after = sourceFiles(app.dir);
      for (const [path, text] of Object.entries(after)) expect(text, path).not.toContain("@auth/");
      const { ["src/auth.ts"]: _authAfter, ...othersAfter } = after;
      const { ["src/auth.ts"]: _authBefore, ...othersBefore } = sourcesBefore;
      expect(othersAfter).toEqual(othersBefore);

      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      expect(pkg.dependencies?.["@auth/sveltekit"]).toBeUndefined();
      expect(pkg.devDependencies?.["@auth/sveltekit"]).toBeUndefined();
      expect(pkg.dependencies["@gatehouse/runtime"]).toBeDefined();
      expect(existsSync(join(app.dir, "node_modules/@gatehouse/runtime/package.json"))).toBe(true);

      expect(readFileSync(join(app.dir, ".env")).equals(app.envFile)).toBe(true);
      switched = true;
    }, 600_000);

    it("the app builds on @gatehouse/runtime (no Auth.js left in the server build) and starts on the same port", async () => {
      requireSwitched();
      const buildMs = await buildApp(app.dir);
      const text = serverBuildText(app.dir);
      expect(text).not.toContain(AUTHJS_MARK);
      expect(text).toContain(GATEHOUSE_MARK);
      server = await startApp(app.dir, port);
      console.log(`[e2e] from-authjs: rebuild ${(buildMs / 1000).toFixed(1)} s`);
    }, 300_000);

    it("the moved code type-checks against gatehouse's types with svelte-check (0 errors, 0 warnings)", async () => {
      requireSwitched();
      expect(await typeCheck()).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    }, 180_000);
  });

  describe("after: the same people on gatehouse", () => {
    it("both reload and are still signed in as themselves, without signing in again", async () => {
      requireSwitched();
      const cases = [
        ["credentials", CREDENTIALS_USER.email],
        ["oidc", PROVIDER_EMAIL],
      ] as const;
      for (const [who, email] of cases) {
        const { context, page } = people[who]!;
        // The cookie Auth.js set is what the browser sends.
        expect(await sessionCookie(context)).toBe(cookiesBefore[who]);
        await page.reload();
        expect(page.url()).toBe(`${origin()}/`);
        expect(await userLine(page)).toBe(`Signed in as ${email}`);
        await shot(page, `gatehouse-${who}-still-signed-in`);
        // The same user as Auth.js said, field for field.
        expect(await sessionUser(context)).toEqual(usersBefore[who]);
      }
    }, 60_000);

    it("the Credentials person signs out and in again through the same forms", async () => {
      requireSwitched();
      const { page } = people.credentials!;
      await page.click("button:has-text('Sign out')");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe("Not signed in");
      expect(await sessionCookie(people.credentials!.context)).toBeUndefined();
      await shot(page, "gatehouse-credentials-signed-out");
      await page.goto(`${origin()}/signin`);
      await page.fill("input[name=email]", CREDENTIALS_USER.email);
      await page.fill("input[name=password]", CREDENTIALS_USER.password);
      await page.click("button:has-text('Sign in with password')");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe(`Signed in as ${CREDENTIALS_USER.email}`);
      await shot(page, "gatehouse-credentials-signed-in-again");
    }, 60_000);

    it("the OpenID person signs out and in again through the provider's login and consent pages", async () => {
      requireSwitched();
      const { context, page } = people.oidc!;
      await page.click("button:has-text('Sign out')");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe("Not signed in");
      expect(await sessionCookie(context)).toBeUndefined();
      await shot(page, "gatehouse-oidc-signed-out");
      // Only the provider's cookies: its session would skip the login form.
      await context.clearCookies({ domain: new URL(provider.server.issuer).hostname });
      await page.goto(`${origin()}/signin`);
      await throughProvider(page, shot, provider.server, LOGIN, "gatehouse");
      await page.waitForURL(`${origin()}/`);
      expect(await userLine(page)).toBe(`Signed in as ${PROVIDER_EMAIL}`);
      await shot(page, "gatehouse-oidc-signed-in-again");
      expect(provider.server.serverErrors).toEqual([]);
    }, 60_000);
  });
});
