/**
 * The built-in pages in a real browser (Debian Chromium through playwright-core),
 * with JavaScript turned off: the sign-in and sign-out forms must work as plain
 * HTML, carrying the CSRF token and cookie on their own.
 */
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { credentialsConfig } from "../helpers.js";
import { htmlPage, startHandlerServer } from "./support/handler-server.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
// Locally a missing browser skips these tests (install Debian's `chromium` to run
// them); in CI test/ci-environment.test.ts fails instead.

/** A tiny app: the auth handler under /auth, and a home page that shows who is signed in. */
function startApp(config: AuthConfig): Promise<Server> {
  return startHandlerServer(async (request, path, origin) => {
    if (path.startsWith("/auth/")) return Auth(request, config);
    const session = await (await Auth(new Request(`${origin}/auth/session`, { headers: request.headers }), config)).json();
    const who = session?.user?.name ? `Signed in as ${session.user.name}` : "Not signed in";
    return htmlPage(`<p id="who">${who}</p><p id="path">${path}</p>`, "Home");
  });
}

describe.skipIf(!hasChromium)("built-in pages in Chromium without JavaScript", () => {
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;

  beforeAll(async () => {
    server = await startApp(credentialsConfig());
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    context = await browser.newContext({ javaScriptEnabled: false });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("a wrong password shows the error on the sign-in page and sets no session", async () => {
    const page = await context.newPage();
    await page.goto(`${origin}/auth/signin?callbackUrl=%2Fdashboard`);
    await page.fill("input[name=username]", "ada");
    await page.fill("input[name=password]", "wrong");
    await page.click("form[action$='/auth/callback/credentials'] button[type=submit]");
    await page.waitForURL(/\/auth\/signin\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("error")).toBe("CredentialsSignin");
    expect(url.searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`);
    expect(await page.locator("[role=alert]").innerText()).toContain("Sign in failed");
    const cookies = await context.cookies(origin);
    expect(cookies.map((c) => c.name)).not.toContain("authjs.session-token");
    await page.close();
  });

  it("signs in with the form, lands on the callback URL, then signs out with the form", async () => {
    const page = await context.newPage();
    await page.goto(`${origin}/auth/signin?callbackUrl=%2Fdashboard`);
    await page.fill("input[name=username]", "ada");
    await page.fill("input[name=password]", "correct horse");
    await page.click("form[action$='/auth/callback/credentials'] button[type=submit]");
    await page.waitForURL(`${origin}/dashboard`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as Ada Lovelace");
    const session = (await context.cookies(origin)).find((c) => c.name === "authjs.session-token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    await page.goto(`${origin}/auth/signout`);
    await page.click("form[action$='/auth/signout'] button[type=submit]");
    await page.waitForURL(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Not signed in");
    expect((await context.cookies(origin)).map((c) => c.name)).not.toContain("authjs.session-token");
    await page.close();
  });
});
