/**
 * The built-in error pages as a person sees them, in Chromium, with a screenshot
 * each (.e2e-screenshots/error-pages/): the entries a browser lands on when
 * something fails (ServerError, UnknownAction, InvalidRequest, Configuration,
 * RateLimited), and, in development, the page that says how to set up an OAuth
 * provider whose keys are missing, reached by pressing its sign-in button.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth, setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { GitHub } from "@gatehouse/runtime/providers";
import { captureLogger, SECRET } from "../helpers.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { startHandlerServer } from "./support/handler-server.js";

describe.skipIf(!hasChromium)("built-in error pages in Chromium", () => {
  let server: Server;
  let origin: string;
  const { freshPage, shot } = useBrowser("error-pages");

  beforeAll(async () => {
    let config: AuthConfig | undefined;
    server = await startHandlerServer(async (request) => Auth(request, config!));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    // The dev server's env: NODE_ENV=development; GitHub chosen but its keys not set yet.
    config = setEnvDefaults({ NODE_ENV: "development", AUTH_SECRET: SECRET, AUTH_URL: origin }, { providers: [GitHub], logger: captureLogger().logger });
  });

  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  it.each([
    ["ServerError", "Something went wrong"],
    ["UnknownAction", "This link does not work"],
    ["InvalidRequest", "Unable to sign in"],
    ["Configuration", "Server error"],
    ["RateLimited", "Too many attempts"],
  ])("error=%s: %s", async (error, heading) => {
    const page = await freshPage();
    await page.goto(`${origin}/auth/error?error=${error}`);
    expect(await page.locator("h1").innerText()).toBe(heading);
    await shot(page, `error-${error}`);
  });

  it("in development, Sign in with GitHub before its keys are set says what to set and where", async () => {
    const page = await freshPage();
    await page.goto(`${origin}/auth/signin`);
    await page.click("button:has-text('GitHub')");
    await page.waitForURL((url) => url.pathname === "/auth/error");
    expect(await page.locator("h1").innerText()).toBe("Sign in with GitHub is not set up yet");
    expect(await page.locator("body").innerText()).toContain(`${origin}/auth/callback/github`);
    await shot(page, "github-not-set-up-development");
  });
});
