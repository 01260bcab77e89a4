/**
 * The built-in pages in a real browser (Debian Chromium through playwright-core),
 * with JavaScript turned off: the sign-in and sign-out forms must work as plain
 * HTML, carrying the CSRF token and cookie on their own.
 */
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { credentialsConfig } from "../helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
// Locally a missing browser skips these tests (install Debian's `chromium` to run
// them); in CI test/ci-environment.test.ts fails instead.

/** A tiny app: the auth handler under /auth, and a home page that shows who is signed in. */
function startApp(config: AuthConfig): Promise<Server> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const { port } = server.address() as AddressInfo;
    const origin = `http://localhost:${port}`;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    let response: Response;
    if (req.url!.startsWith("/auth/")) {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      response = await Auth(new Request(`${origin}${req.url}`, { method: req.method, headers, body }), config);
    } else {
      const session = await (await Auth(new Request(`${origin}/auth/session`, { headers }), config)).json();
      const who = session?.user?.name ? `Signed in as ${session.user.name}` : "Not signed in";
      response = new Response(`<!DOCTYPE html><title>Home</title><p id="who">${who}</p><p id="path">${req.url}</p>`, {
        headers: { "content-type": "text/html" },
      });
    }
    for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
    res.setHeader("set-cookie", response.headers.getSetCookie());
    res.writeHead(response.status);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
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
