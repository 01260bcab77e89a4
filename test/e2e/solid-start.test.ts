/**
 * `@gatehouse/runtime/solid-start` in real SolidStart apps — SolidStart 2 (Vite +
 * Nitro) and SolidStart 1.x (vinxi) — built from `test/e2e/apps/solid-start`,
 * started on 127.0.0.1, and driven over plain HTTP and in headless Chromium.
 * Both versions run the same flows.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar, isCleared, setCookies } from "../helpers.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { http } from "./support/http.js";
import type { RunningServer } from "./support/processes.js";
import { packRuntime } from "./support/runtime-package.js";
import { startSolidStartApp, type SolidStartApp, type SolidStartVersion } from "./support/solid-start-app.js";

const SECRET = "e2e-solid-start-secret-0123456789abcdef01";
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery staple";
const SESSION_COOKIE = "authjs.session-token";
const VERSIONS: SolidStartVersion[] = ["2", "1"];

const apps = new Map<SolidStartVersion, SolidStartApp>();
let tarball: string | undefined;

beforeAll(async () => {
  const started = Date.now();
  const runtime = await packRuntime();
  tarball = runtime;
  const packed = Date.now();
  // Both apps install and build side by side: the installs wait on the network, the builds on the CPU.
  const results = await Promise.allSettled(VERSIONS.map((version) => startSolidStartApp(version, runtime, SECRET)));
  for (const result of results) if (result.status === "fulfilled") apps.set(result.value.version, result.value);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  const timings = [...apps.values()].map((app) => `v${app.version}: install ${app.timings.install} s, build ${app.timings.build} s`);
  console.log(`[e2e] SolidStart apps ready in ${(Date.now() - started) / 1000} s (pack ${(packed - started) / 1000} s; ${timings.join("; ")})`);
}, 600_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.stop()));
  if (tarball && !process.env.KEEP_E2E_APPS) rmSync(dirname(tarball), { recursive: true, force: true });
});

async function csrfToken(server: RunningServer, jar: CookieJar): Promise<string> {
  const body = (await (await http(server, "/api/auth/csrf", { jar })).json()) as { csrfToken: string };
  return body.csrfToken;
}

async function signIn(server: RunningServer, jar: CookieJar, { password = PASSWORD, callbackUrl = "/" } = {}): Promise<Response> {
  const form = { csrfToken: await csrfToken(server, jar), email: EMAIL, password, callbackUrl };
  return http(server, "/api/auth/callback/credentials", { jar, form });
}

async function session(server: RunningServer, jar: CookieJar): Promise<any> {
  return (await http(server, "/api/auth/session", { jar })).json();
}

const sessionCookies = (response: Response) => setCookies(response).filter((c) => c.name === SESSION_COOKIE);

/** The text of the server-rendered `<p id=...>`, without Solid's hydration markers (`<!--$-->`). */
function paragraph(html: string, id: string): string | undefined {
  const match = html.replace(/<!--.*?-->/g, "").match(new RegExp(`<p[^>]*\\bid="${id}"[^>]*>(.*?)</p>`));
  return match?.[1];
}

describe.each(VERSIONS)("SolidStart %s", (version) => {
  const server = () => apps.get(version)!.server;

  describe("over HTTP", () => {
    it("serves the handler from the catch-all API route: providers with the public callback URL, and a CSRF token", async () => {
      const providers = await (await http(server(), "/api/auth/providers")).json();
      expect(providers.credentials).toMatchObject({
        id: "credentials",
        type: "credentials",
        callbackUrl: `${server().origin}/api/auth/callback/credentials`,
      });
      // SolidStart checks no origins, so the handler keeps its CSRF token check on.
      const csrf = await http(server(), "/api/auth/csrf");
      expect(csrf.status).toBe(200);
      expect((await csrf.json()).csrfToken).toMatch(/^[0-9a-f]{64}$/);
      expect(await session(server(), new CookieJar())).toBeNull();
    });

    it("an unknown action under the prefix answers 400 JSON that names the actions", async () => {
      const response = await http(server(), "/api/auth/nope");
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
      const body = await response.json();
      expect(body.error).toBe("UnknownAction");
      expect(body.message).toContain('Unknown action "nope"');
      expect(body.message).toContain("callback, change-password, csrf");
    });

    it("a credentials POST without the CSRF token is refused (MissingCSRF) and sets no session", async () => {
      const jar = new CookieJar();
      const response = await http(server(), "/api/auth/callback/credentials", { jar, form: { email: EMAIL, password: PASSWORD } });
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
      expect(await session(server(), jar)).toBeNull();
    });

    it("signs in with the token; the server-rendered home page shows the session and re-issues the cookie via getSession(event)", async () => {
      const jar = new CookieJar();
      const response = await signIn(server(), jar, { callbackUrl: "/protected" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`${server().origin}/protected`);
      const [cookie] = sessionCookies(response);
      expect(cookie!.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
      expect(cookie!.attributes.secure).toBeUndefined();
      expect((await session(server(), jar)).user).toEqual({ name: "Ada Lovelace", email: EMAIL });

      const home = await http(server(), "/", { jar });
      expect(home.status).toBe(200);
      expect(paragraph(await home.text(), "who")).toBe("Signed in as Ada Lovelace");
      // session.updateAge 0: every read re-issues the cookie, and the "use server" query set it on the page's response.
      const reissued = sessionCookies(home);
      expect(reissued).toHaveLength(1);
      expect(reissued[0]!.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
      expect(isCleared(reissued[0]!)).toBe(false);

      const anonymous = await http(server(), "/");
      expect(paragraph(await anonymous.text(), "who")).toBe("Not signed in");
      expect(sessionCookies(anonymous)).toEqual([]);
    });

    it("a wrong password redirects to the sign-in page with CredentialsSignin and sets no session", async () => {
      const jar = new CookieJar();
      const response = await signIn(server(), jar, { password: "wrong" });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(location.origin + location.pathname).toBe(`${server().origin}/api/auth/signin`);
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(location.searchParams.get("code")).toBe("credentials");
      expect(sessionCookies(response)).toEqual([]);
      expect(await session(server(), jar)).toBeNull();
    });

    it("page protection: the page's server function redirects visitors without a session, and renders the user otherwise", async () => {
      const anonymous = await http(server(), "/protected");
      expect(anonymous.status).toBe(302);
      // Absolute (on the request's origin), so that the router also loads it after a client-side navigation.
      expect(anonymous.headers.get("location")).toBe(`${server().origin}/api/auth/signin?callbackUrl=%2Fprotected`);
      expect(sessionCookies(anonymous)).toEqual([]);

      const jar = new CookieJar();
      await signIn(server(), jar);
      const page = await http(server(), "/protected", { jar });
      expect(page.status).toBe(200);
      expect(paragraph(await page.text(), "secret")).toBe("Only Ada Lovelace can read this.");
    });

    it("path protection: the middleware answers /account without a session with a 303 to the sign-in page", async () => {
      const anonymous = await http(server(), "/account");
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get("location")).toBe("/api/auth/signin?callbackUrl=%2Faccount");
      expect(anonymous.headers.get("cache-control")).toBe("no-store");
      const deeper = await http(server(), "/account/settings?tab=1");
      expect(deeper.headers.get("location")).toBe("/api/auth/signin?callbackUrl=%2Faccount%2Fsettings%3Ftab%3D1");
      // Only the listed prefix: /accounts is not /account.
      expect((await http(server(), "/accounts")).status).toBe(200);

      const jar = new CookieJar();
      await signIn(server(), jar);
      const page = await http(server(), "/account", { jar });
      expect(page.status).toBe(200);
      expect(paragraph(await page.text(), "account")).toBe("Guarded by the middleware.");
      // The middleware read the session with the event, so the re-issued cookie reaches the response.
      expect(sessionCookies(page)).toHaveLength(1);
    });

    it("signing out (POST /api/auth/signout with the token) clears the cookie; the session is gone", async () => {
      const jar = new CookieJar();
      await signIn(server(), jar);
      expect((await session(server(), jar)).user.email).toBe(EMAIL);
      const response = await http(server(), "/api/auth/signout", { jar, form: { csrfToken: await csrfToken(server(), jar), callbackUrl: "/" } });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`${server().origin}/`);
      const cleared = sessionCookies(response);
      expect(cleared.length).toBeGreaterThan(0);
      expect(cleared.every(isCleared)).toBe(true);
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
      expect(await session(server(), jar)).toBeNull();
      expect(paragraph(await (await http(server(), "/", { jar })).text(), "who")).toBe("Not signed in");
    });
  });

  describe.skipIf(!hasChromium)("in Chromium", () => {
    const { freshPage, shot } = useBrowser(`solid-start-v${version}`);

    const submitCredentials = (page: Page) => page.click("form[action$='/api/auth/callback/credentials'] button[type=submit]");

    it("built-in sign-in page: a wrong password shows the error, the right one lands on the home page with the session", async () => {
      const origin = server().origin;
      const page = await freshPage();
      await page.goto(`${origin}/api/auth/signin?callbackUrl=%2F`);
      await shot(page, "builtin-signin-page");
      await page.fill("input[name=email]", EMAIL);
      await page.fill("input[name=password]", "wrong");
      await submitCredentials(page);
      await page.waitForURL(/\/api\/auth\/signin\?.*error=CredentialsSignin/);
      expect(await page.locator("[role=alert]").innerText()).toContain("Sign in failed");
      await shot(page, "builtin-signin-wrong-password");

      await page.fill("input[name=email]", EMAIL);
      await page.fill("input[name=password]", PASSWORD);
      await submitCredentials(page);
      await page.waitForURL(`${origin}/`);
      expect(await page.locator("#who").innerText()).toBe("Signed in as Ada Lovelace");
      await shot(page, "home-signed-in");
    });

    it("/account sends the visitor to sign in and back; /protected shows the user; the built-in sign-out page signs out", async () => {
      const origin = server().origin;
      const page = await freshPage();
      await page.goto(`${origin}/account`);
      await page.waitForURL(`${origin}/api/auth/signin?callbackUrl=%2Faccount`);
      await shot(page, "account-redirects-to-signin");
      await page.fill("input[name=email]", EMAIL);
      await page.fill("input[name=password]", PASSWORD);
      await submitCredentials(page);
      await page.waitForURL(`${origin}/account`);
      expect(await page.locator("#account").innerText()).toBe("Guarded by the middleware.");
      await shot(page, "account-signed-in");

      await page.goto(`${origin}/protected`);
      expect(await page.locator("#secret").innerText()).toBe("Only Ada Lovelace can read this.");
      await shot(page, "protected-signed-in");
      // A client-side navigation runs the page's server function over /_server, with the cookie.
      await page.goto(`${origin}/`);
      await page.click("nav a:has-text('Protected')");
      await page.waitForURL(`${origin}/protected`);
      await expect.poll(() => page.locator("#secret").innerText(), { timeout: 20_000 }).toBe("Only Ada Lovelace can read this.");

      await page.goto(`${origin}/api/auth/signout`);
      await shot(page, "builtin-signout-page");
      await page.click("form[action$='/api/auth/signout'] button[type=submit]");
      await page.waitForURL(`${origin}/`);
      expect(await page.locator("#who").innerText()).toBe("Not signed in");
      expect((await page.context().cookies(origin)).map((c) => c.name)).not.toContain(SESSION_COOKIE);
      await shot(page, "signed-out");

      await page.goto(`${origin}/protected`);
      await page.waitForURL(`${origin}/api/auth/signin?callbackUrl=%2Fprotected`);
      await shot(page, "protected-redirects-to-signin");
      // After a client-side navigation the server function's redirect loads the built-in page too.
      await page.goto(`${origin}/`);
      await page.click("nav a:has-text('Protected')");
      await page.waitForURL(`${origin}/api/auth/signin?callbackUrl=%2Fprotected`);
      await expect.poll(() => page.locator("form[action$='/api/auth/callback/credentials'] input[name=email]").count(), { timeout: 20_000 }).toBe(1);
      await shot(page, "protected-client-navigation-to-signin");
    });

    it("the client module signs in without navigating (redirect: false), reports a refusal, and signs out", async () => {
      const origin = server().origin;
      const page = await freshPage();
      await page.goto(`${origin}/client`);
      // The fieldset is disabled until the page has hydrated; fill and click wait for it.
      await page.fill("input[name=email]", EMAIL);
      await page.fill("input[name=password]", "wrong");
      await page.click("button:has-text('Sign in (client)')");
      await expect.poll(() => page.locator("#outcome").innerText(), { timeout: 15_000 }).toBe("refused: CredentialsSignin (credentials)");
      expect(page.url()).toBe(`${origin}/client`);
      await shot(page, "client-refused");

      await page.fill("input[name=password]", PASSWORD);
      await page.click("button:has-text('Sign in (client)')");
      await expect.poll(() => page.locator("#outcome").innerText(), { timeout: 15_000 }).toBe("signed in");
      expect(page.url()).toBe(`${origin}/client`);
      await shot(page, "client-signed-in");

      await page.goto(`${origin}/`);
      expect(await page.locator("#who").innerText()).toBe("Signed in as Ada Lovelace");
      await shot(page, "client-home-signed-in");

      await page.goto(`${origin}/client`);
      await page.click("#client-signout");
      await page.waitForURL(`${origin}/`);
      await expect.poll(() => page.locator("#who").innerText(), { timeout: 20_000 }).toBe("Not signed in");
      expect((await page.context().cookies(origin)).map((c) => c.name)).not.toContain(SESSION_COOKIE);
      await shot(page, "client-signed-out");
    });
  });
});
