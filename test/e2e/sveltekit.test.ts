/**
 * `@gatehouse/runtime/sveltekit` in a real SvelteKit app (sv create + adapter-node),
 * built and started on 127.0.0.1, driven over plain HTTP and in headless Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar, isCleared, setCookies } from "../helpers.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { http } from "./support/http.js";
import { run, type RunningServer } from "./support/processes.js";
import { BASE, startSvelteKitApp, type SvelteKitApp } from "./support/sveltekit-app.js";

const SECRET = "e2e-sveltekit-secret-0123456789abcdef0123";
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery staple";
const SESSION_COOKIE = "authjs.session-token";

let app: SvelteKitApp;

beforeAll(async () => {
  app = await startSvelteKitApp(SECRET);
}, 600_000);

afterAll(async () => {
  await app?.stop();
});

async function session(server: RunningServer, jar: CookieJar, base = ""): Promise<any> {
  return (await http(server, `${base}/auth/session`, { jar })).json();
}

describe("SvelteKit app types", () => {
  it("type-checks with svelte-check: App.Locals.auth(), the form actions and the components' props", async () => {
    const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
    expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
  }, 120_000);
});

describe("SvelteKit over HTTP", () => {
  it("serves the handler's routes from the handle hook; csrf answers 404 (SvelteKit checks origins)", async () => {
    const providers = await (await http(app.root, "/auth/providers")).json();
    expect(providers.credentials).toMatchObject({ id: "credentials", type: "credentials", callbackUrl: `${app.root.origin}/auth/callback/credentials` });
    const csrf = await http(app.root, "/auth/csrf");
    expect(csrf.status).toBe(404);
    expect(await session(app.root, new CookieJar())).toBeNull();
    // A path under /auth that is not an action is the app's own (here: SvelteKit's 404 page).
    const notAction = await http(app.root, "/auth/elsewhere", { headers: { accept: "text/html" } });
    expect(notAction.status).toBe(404);
    expect(notAction.headers.get("content-type")).toContain("text/html");
  });

  it("signs in with credentials on the handler without a CSRF token, and the session shows on a server-rendered page", async () => {
    const jar = new CookieJar();
    const response = await http(app.root, "/auth/callback/credentials", { jar, form: { email: EMAIL, password: PASSWORD, callbackUrl: "/protected" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${app.root.origin}/protected`);
    const cookie = setCookies(response).find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
    expect((await session(app.root, jar)).user).toEqual({ name: "Ada Lovelace", email: EMAIL });

    const home = await (await http(app.root, "/", { jar })).text();
    expect(home).toContain("Signed in as Ada Lovelace");
    const protectedPage = await http(app.root, "/protected", { jar });
    expect(protectedPage.status).toBe(200);
    expect(await protectedPage.text()).toContain("Only Ada Lovelace can read this.");
  });

  it("refuses cross-site POSTs to the handler, whatever the content type, and stores nothing", async () => {
    const jar = new CookieJar();
    const form = { email: EMAIL, password: PASSWORD };
    const evil = { origin: "http://evil.example" };
    // SvelteKit's own check (form content types)...
    const viaForm = await http(app.root, "/auth/callback/credentials", { jar, form, headers: evil });
    expect(viaForm.status).toBe(403);
    // ...and ours, which also covers JSON bodies.
    const viaJson = await http(app.root, "/auth/callback/credentials", { jar, json: form, headers: evil });
    expect(viaJson.status).toBe(403);
    expect(await viaJson.text()).toBe("Cross-site POST to /auth/callback/credentials refused.");
    expect(jar.cookies.size).toBe(0);
  });

  it("page protection: a load without a user redirects 303 to the sign-in route with the page to return to", async () => {
    const response = await http(app.root, "/protected");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin?redirectTo=%2Fprotected");
  });

  it("path protection: a hook sequenced after the auth handle guards /admin", async () => {
    const anonymous = await http(app.root, "/admin");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/signin?redirectTo=%2Fadmin");
    const jar = new CookieJar();
    await http(app.root, "/auth/callback/credentials", { jar, form: { email: EMAIL, password: PASSWORD } });
    const signedIn = await http(app.root, "/admin", { jar });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain("Guarded by the path hook.");
  });

  it("locals.auth() computes the session once per request, however often it is called", async () => {
    const jar = new CookieJar();
    expect(await (await http(app.root, "/api/session-twice", { jar })).json()).toEqual({ same: true, reads: 0, user: null });
    await http(app.root, "/auth/callback/credentials", { jar, form: { email: EMAIL, password: PASSWORD } });
    expect(await (await http(app.root, "/api/session-twice", { jar })).json()).toEqual({
      same: true,
      reads: 1,
      user: { name: "Ada Lovelace", email: EMAIL },
    });
  });

  it("the signIn form action signs in and redirects 303 to redirectTo", async () => {
    const jar = new CookieJar();
    const response = await http(app.root, "/signin", {
      jar,
      headers: { accept: "text/html" },
      form: { providerId: "credentials", email: EMAIL, password: PASSWORD, redirectTo: "/protected" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${app.root.origin}/protected`);
    expect(jar.get(SESSION_COOKIE)).toBeTruthy();
    expect((await session(app.root, jar)).user.email).toBe(EMAIL);
  });

  it("a wrong password in the signIn form action is thrown to the action, which answers fail(400) with the form error", async () => {
    const jar = new CookieJar();
    const response = await http(app.root, "/signin", {
      jar,
      headers: { accept: "text/html" },
      form: { providerId: "credentials", email: EMAIL, password: "wrong", redirectTo: "/protected" },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('<p id="error" role="alert">Invalid email or password.</p>');
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it("the signIn action never redirects off-site: a foreign redirectTo lands on the app", async () => {
    const jar = new CookieJar();
    const response = await http(app.root, "/signin", {
      jar,
      headers: { accept: "text/html" },
      form: { providerId: "credentials", email: EMAIL, password: PASSWORD, redirectTo: "https://evil.example/steal" },
    });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location")!).origin).toBe(app.root.origin);
  });

  it("the signIn action without a provider sends the user to the built-in sign-in page", async () => {
    const response = await http(app.root, "/signin", { headers: { accept: "text/html" }, form: { redirectTo: "/protected" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected");
  });

  it("the signOut form action clears the session and redirects 303", async () => {
    const jar = new CookieJar();
    await http(app.root, "/auth/callback/credentials", { jar, form: { email: EMAIL, password: PASSWORD } });
    const response = await http(app.root, "/signout", { jar, headers: { accept: "text/html" }, form: { redirectTo: "/" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${app.root.origin}/`);
    expect(setCookies(response).filter((c) => c.name === SESSION_COOKIE).every(isCleared)).toBe(true);
    expect(await session(app.root, jar)).toBeNull();
  });

  it("paths.base: the handler, the actions and the protection all live under the base path (config given as a function)", async () => {
    const server = app.based;
    expect((await http(server, `${BASE}/auth/providers`)).status).toBe(200);
    expect((await http(server, "/auth/providers")).status).toBe(404);
    const page = await http(server, `${BASE}/protected`);
    expect(page.headers.get("location")).toBe(`${BASE}/signin?redirectTo=%2Fbase%2Fprotected`);

    const jar = new CookieJar();
    const signIn = await http(server, `${BASE}/signin`, {
      jar,
      headers: { accept: "text/html" },
      form: { providerId: "credentials", email: EMAIL, password: PASSWORD, redirectTo: `${BASE}/protected` },
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("location")).toBe(`${server.origin}${BASE}/protected`);
    expect((await session(server, jar, BASE)).user.email).toBe(EMAIL);
    expect(await (await http(server, `${BASE}/protected`, { jar })).text()).toContain("Only Ada Lovelace can read this.");

    const signOut = await http(server, `${BASE}/signout`, { jar, headers: { accept: "text/html" }, form: {} });
    expect(signOut.status).toBe(303);
    expect(await session(server, jar, BASE)).toBeNull();
  });
});

describe.skipIf(!hasChromium)("SvelteKit in Chromium", () => {
  const { freshPage, shot } = useBrowser("sveltekit");

  it("built-in sign-in page: wrong password shows the error, the right one signs in and the home page shows the session", async () => {
    const origin = app.root.origin;
    const page = await freshPage();
    await page.goto(`${origin}/auth/signin?callbackUrl=%2F`);
    await shot(page, "builtin-signin-page");
    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", "wrong");
    await page.click("form[action$='/auth/callback/credentials'] button[type=submit]");
    await page.waitForURL(/\/auth\/signin\?.*error=CredentialsSignin/);
    expect(await page.locator("[role=alert]").innerText()).toContain("Sign in failed");
    await shot(page, "builtin-signin-wrong-password");

    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", PASSWORD);
    await page.click("form[action$='/auth/callback/credentials'] button[type=submit]");
    await page.waitForURL(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as Ada Lovelace");
    await shot(page, "home-signed-in");
  });

  it("app sign-in route with the SignIn component: error, sign-in, protected page, SignOut component", async () => {
    const origin = app.root.origin;
    const page = await freshPage();
    await page.goto(`${origin}/protected`);
    await page.waitForURL(`${origin}/signin?redirectTo=%2Fprotected`);
    await shot(page, "protected-redirects-to-signin");

    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", "wrong");
    await page.click("button:has-text('Sign in with email')");
    await expect.poll(() => page.locator("#error").count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator("#error").innerText()).toBe("Invalid email or password.");
    await shot(page, "signin-route-wrong-password");

    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", PASSWORD);
    await page.click("button:has-text('Sign in with email')");
    await page.waitForURL(`${origin}/protected`);
    expect(await page.locator("#secret").innerText()).toBe("Only Ada Lovelace can read this.");
    expect(await page.locator("#nav-user").innerText()).toBe(EMAIL);
    await shot(page, "protected-page-signed-in");

    await page.click("nav button:has-text('Sign out')");
    await page.waitForURL(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Not signed in");
    expect((await page.context().cookies(origin)).map((c) => c.name)).not.toContain(SESSION_COOKIE);
    await shot(page, "signed-out");
    await page.goto(`${origin}/protected`);
    await page.waitForURL(/\/signin\?redirectTo=/);
  });

  it("the client module signs in without navigating (redirect: false), reports a refusal, and signs out", async () => {
    const origin = app.root.origin;
    const page = await freshPage();
    await page.goto(`${origin}/client`);
    // The fieldset is disabled until the page has hydrated; fill and click wait for it.
    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", "wrong");
    await page.click("button:has-text('Sign in (client)')");
    await expect.poll(() => page.locator("#outcome").innerText(), { timeout: 15_000 }).toBe("refused: CredentialsSignin (credentials)");
    await shot(page, "client-refused");

    await page.fill("input[name=password]", PASSWORD);
    await page.click("button:has-text('Sign in (client)')");
    await expect.poll(() => page.locator("#outcome").innerText(), { timeout: 15_000 }).toBe("signed in");
    await page.goto(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as Ada Lovelace");
    await shot(page, "client-signed-in");

    await page.goto(`${origin}/client`);
    await page.click("#client-signout");
    await page.waitForURL(`${origin}/`);
    await expect.poll(() => page.locator("#who").innerText(), { timeout: 15_000 }).toBe("Not signed in");
  });

  it("under paths.base the components and the built-in page work the same", async () => {
    const origin = app.based.origin;
    const page = await freshPage();
    await page.goto(`${origin}${BASE}/admin`);
    await page.waitForURL(`${origin}${BASE}/signin?redirectTo=%2Fbase%2Fadmin`);
    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", PASSWORD);
    await page.click("button:has-text('Sign in with email')");
    await page.waitForURL(`${origin}${BASE}/admin`);
    expect(await page.locator("#admin").innerText()).toBe("Guarded by the path hook.");
    await shot(page, "base-path-admin");
  });
});
