/**
 * Moving an Auth.js SolidStart app over, end to end: a SolidStart 1.x app on
 * `@auth/solid-start` 0.19.2, written the way its README shows (Credentials +
 * Keycloak against a real OpenID provider on 127.0.0.1, JWT sessions, `getSession`
 * in a server function, `signIn` / `signOut` from its client module), is built and
 * started, and two people sign in to it in two headless Chromium contexts. Then
 * the app is stopped, `auth-init --from authjs --yes` switches it to
 * @gatehouse/runtime, and it is rebuilt and started on the same port: both people
 * reload and are still signed in as themselves (Auth.js's session cookies read as
 * they are), then sign out and in again through the same buttons.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin, snapshotDir } from "../cli/support/cli.js";
import { hasChromium, launchChromium, screenshotFolder } from "./support/browser.js";
import { AUTHJS_SOLID_START_VERSION, buildApp, createAuthjsSolidStartApp, CREDENTIALS_USER, NPM_ENV, startApp, type AuthjsSolidStartApp } from "./support/authjs-solid-start-app.js";
import { LOGIN, PROVIDER_EMAIL, startProviderFor, throughProvider, type AppProvider } from "./support/oauth-flow.js";
import { freePort, run, type RunningServer } from "./support/processes.js";

const SESSION_COOKIE = "authjs.session-token";
const AUTH_PATH = "/api/auth";
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Every file under src/ (relative path -> text). */
const sourceFiles = (dir: string): Record<string, string> => snapshotDir(dir, { under: "src", encoding: "utf8" });

/** The packages Nitro copied next to the built server: they say which auth library the build runs. */
const serverPackage = (dir: string, name: string) => existsSync(join(dir, ".output/server/node_modules", name, "package.json"));

/** A file's text from `marker` on: what follows its imports, as the user wrote it. */
const after = (text: string, marker: string) => text.slice(text.indexOf(marker));

describe.skipIf(!hasChromium)("auth-init --from authjs: an Auth.js SolidStart app moved over, its people still signed in", () => {
  let port: number;
  let provider: AppProvider;
  let app: AuthjsSolidStartApp;
  let server: RunningServer | undefined;
  let browser: Browser;
  let shot: (page: Page, step: string) => Promise<void>;
  /** One browser context per person, kept across the switch: their cookies are the point. */
  const people: { credentials?: { context: BrowserContext; page: Page }; oidc?: { context: BrowserContext; page: Page } } = {};
  /** Session cookie values and `/api/auth/session` users before the switch, per person. */
  const cookiesBefore: Record<string, string> = {};
  const usersBefore: Record<string, unknown> = {};
  let sourcesBefore: Record<string, string>;
  let switched = false;

  const origin = () => `http://localhost:${port}`;
  const requireSwitched = () => {
    if (!switched) throw new Error("The app was not switched to gatehouse (see the `auth-init --from authjs` test above): nothing after the switch can be checked.");
  };
  const userLine = (page: Page) => page.locator("#user").innerText();
  /** The page has hydrated: its buttons run `signIn` / `signOut`. */
  const hydrated = (page: Page) => page.locator("main[data-ready=yes]").waitFor();
  /** `signIn` / `signOut` navigate with `location.href` (often to the same URL): wait for the line to say so. */
  const userLineBecomes = (page: Page, text: string) => page.locator("#user", { hasText: text }).waitFor({ timeout: 20_000 });
  const sessionCookie = async (context: BrowserContext) => (await context.cookies(origin())).find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  /** The user of `GET /api/auth/session` with the context's cookies (Auth.js's JSON; gatehouse must answer the same). */
  const sessionUser = async (context: BrowserContext) => ((await (await context.request.get(`${origin()}${AUTH_PATH}/session`)).json()) as { user?: unknown } | null)?.user;
  const typeCheck = () => run("npx", ["tsc", "--noEmit", "-p", "."], { cwd: app.dir, timeoutMs: 120_000 });

  async function signInWithPassword(page: Page, label: string): Promise<void> {
    await page.goto(`${origin()}/`);
    await hydrated(page);
    expect(await userLine(page)).toBe("Not signed in");
    await page.fill("input[name=email]", CREDENTIALS_USER.email);
    await page.fill("input[name=password]", CREDENTIALS_USER.password);
    await shot(page, `${label}-credentials-form`);
    await page.click("button:has-text('Sign in with password')");
    await userLineBecomes(page, `Signed in as ${CREDENTIALS_USER.email}`);
    expect(page.url()).toBe(`${origin()}/`);
    await shot(page, `${label}-credentials-signed-in`);
  }

  async function signInWithProvider(page: Page, label: string): Promise<void> {
    await page.goto(`${origin()}/`);
    await hydrated(page);
    expect(await userLine(page)).toBe("Not signed in");
    await throughProvider(page, shot, provider.server, LOGIN, label);
    await page.waitForURL(`${origin()}/`);
    await userLineBecomes(page, `Signed in as ${PROVIDER_EMAIL}`);
    await shot(page, `${label}-oidc-signed-in`);
  }

  async function signOut(who: "credentials" | "oidc", label: string): Promise<void> {
    const { context, page } = people[who]!;
    await hydrated(page);
    await page.click("button:has-text('Sign out')");
    await userLineBecomes(page, "Not signed in");
    // Auth.js's name for the destination (\`callbackUrl\`) is honoured, and type-checks.
    expect(page.url()).toBe(`${origin()}/?signed-out=1`);
    expect(await sessionCookie(context)).toBeUndefined();
    expect(await sessionUser(context)).toBeUndefined();
    await shot(page, `${label}-${who}-signed-out`);
  }

  beforeAll(async () => {
    // The provider must know the app's callback URL before the app exists: the port comes first.
    port = await freePort();
    provider = await startProviderFor(`http://localhost:${port}`, AUTH_PATH);
    app = await createAuthjsSolidStartApp(provider.env);
    const buildMs = await buildApp(app.dir);
    server = await startApp(app.dir, port);
    console.log(`[e2e] from-authjs-solid-start: npm install ${seconds(app.installMs)}, build ${seconds(buildMs)}`);
    sourcesBefore = sourceFiles(app.dir);
    browser = await launchChromium();
    shot = screenshotFolder("from-authjs-solid-start");
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.server.close();
    app?.remove();
  }, 60_000);

  describe("before: the Auth.js app", () => {
    it(`runs @auth/solid-start ${AUTHJS_SOLID_START_VERSION}: package.json pins it and the built server carries Auth.js`, () => {
      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      expect(pkg.dependencies["@auth/solid-start"]).toBe(AUTHJS_SOLID_START_VERSION);
      expect(serverPackage(app.dir, "@auth/core")).toBe(true);
      expect(serverPackage(app.dir, "@gatehouse/runtime")).toBe(false);
    });

    it("one person signs in with email and password (Credentials) and sees their email", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      people.credentials = { context, page };
      await signInWithPassword(page, "authjs");
      usersBefore.credentials = await sessionUser(context);
      expect(usersBefore.credentials).toEqual({ name: CREDENTIALS_USER.name, email: CREDENTIALS_USER.email });
      // Read after /api/auth/session, which rolls the cookie.
      cookiesBefore.credentials = (await sessionCookie(context))!;
      expect(cookiesBefore.credentials).toBeTruthy();
    }, 60_000);

    it("another person, in a second browser context, signs in through the OpenID provider's login and consent pages", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      people.oidc = { context, page };
      await signInWithProvider(page, "authjs");
      usersBefore.oidc = await sessionUser(context);
      expect(usersBefore.oidc).toMatchObject({ name: `Test User ${LOGIN}`, email: PROVIDER_EMAIL });
      cookiesBefore.oidc = (await sessionCookie(context))!;
      expect(cookiesBefore.oidc).toBeTruthy();
      expect(provider.server.serverErrors).toEqual([]);
    }, 60_000);

    it("type-checks (tsc --noEmit)", async () => {
      await typeCheck();
    }, 120_000);
  });

  describe("the switch", () => {
    it("auth-init --from authjs --yes rewrites the imports and package.json, keeps .env byte for byte and the rest of every file", async () => {
      await server?.stop();
      server = undefined;
      const started = Date.now();
      const output = await run(process.execPath, [authInitBin, "--from", "authjs", "--yes"], { cwd: app.dir, env: NPM_ENV, timeoutMs: 600_000 });
      console.log(`[e2e] from-authjs-solid-start: auth-init --from authjs (pack + npm install) ${seconds(Date.now() - started)}; it printed:\n${output}`);
      for (const path of ["src/server/auth.ts", "src/routes/index.tsx", "src/routes/about.tsx", "src/routes/api/auth/[...solidauth].ts", "package.json"]) {
        expect(output).toContain(`updated ${path}`);
      }

      const files = sourceFiles(app.dir);
      for (const [path, text] of Object.entries(files)) expect(text, path).not.toContain("@auth/");
      const auth = files["src/server/auth.ts"]!;
      expect(auth).toMatch(/import \{[^}]*\bCredentials\b[^}]*\} from "@gatehouse\/runtime\/providers"/);
      expect(auth).toMatch(/import \{[^}]*\bKeycloak\b[^}]*\} from "@gatehouse\/runtime\/providers"/);
      expect(auth).toMatch(/import type \{ SolidAuthConfig \} from "@gatehouse\/runtime\/solid-start"/);
      expect(files["src/routes/api/auth/[...solidauth].ts"]).toMatch(/import \{ SolidAuth \} from "@gatehouse\/runtime\/solid-start"/);
      for (const page of ["src/routes/index.tsx", "src/routes/about.tsx"]) {
        expect(files[page]).toMatch(/import \{ getSession \} from "@gatehouse\/runtime\/solid-start"/);
        expect(files[page]).toMatch(/import \{ signIn, signOut \} from "@gatehouse\/runtime\/solid-start\/client"/);
      }
      // Everything after the imports (the authorize callback, the Keycloak keys, the pages) as the user wrote it.
      expect(after(auth, "// One fixed person")).toBe(after(sourcesBefore["src/server/auth.ts"]!, "// One fixed person"));
      for (const page of ["src/routes/index.tsx", "src/routes/about.tsx"]) expect(after(files[page]!, "const session")).toBe(after(sourcesBefore[page]!, "const session"));
      // The other files as they were.
      const untouched = (all: Record<string, string>) => Object.fromEntries(Object.entries(all).filter(([path]) => !/^src\/(server\/auth\.ts|routes\/)/.test(path)));
      expect(untouched(files)).toEqual(untouched(sourcesBefore));

      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      for (const name of ["@auth/solid-start", "@auth/core"]) {
        expect(pkg.dependencies?.[name], name).toBeUndefined();
        expect(pkg.devDependencies?.[name], name).toBeUndefined();
      }
      expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
      expect(existsSync(join(app.dir, "node_modules/@gatehouse/runtime/package.json"))).toBe(true);
      expect(existsSync(join(app.dir, "node_modules/@auth/solid-start"))).toBe(false);

      expect(readFileSync(join(app.dir, ".env")).equals(app.envFile)).toBe(true);
      switched = true;
    }, 600_000);

    it("the moved code type-checks against gatehouse's types (tsc --noEmit)", async () => {
      requireSwitched();
      await typeCheck();
    }, 120_000);

    it("the app builds on @gatehouse/runtime (no Auth.js in the built server) and starts on the same port", async () => {
      requireSwitched();
      const buildMs = await buildApp(app.dir);
      expect(serverPackage(app.dir, "@gatehouse/runtime")).toBe(true);
      expect(serverPackage(app.dir, "@auth/core")).toBe(false);
      server = await startApp(app.dir, port);
      console.log(`[e2e] from-authjs-solid-start: rebuild ${seconds(buildMs)}`);
    }, 300_000);
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

    it("the Credentials person signs out and in again through the same buttons", async () => {
      requireSwitched();
      await signOut("credentials", "gatehouse");
      await signInWithPassword(people.credentials!.page, "gatehouse-again");
      expect(await sessionUser(people.credentials!.context)).toEqual(usersBefore.credentials);
    }, 60_000);

    it("the OpenID person signs out and in again through the provider's login and consent pages", async () => {
      requireSwitched();
      await signOut("oidc", "gatehouse");
      // Only the provider's cookies: its session would skip the login form.
      await people.oidc!.context.clearCookies({ domain: new URL(provider.server.issuer).hostname });
      await signInWithProvider(people.oidc!.page, "gatehouse-again");
      expect(await sessionUser(people.oidc!.context)).toEqual(usersBefore.oidc);
      expect(provider.server.serverErrors).toEqual([]);
    }, 60_000);
  });
});
