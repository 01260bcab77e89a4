/**
 * The README's quick start: `npm run demo` makes a SvelteKit app with auth-init
 * and runs its development server, and sign-up works end to end with no mail
 * server: the confirmation link is printed on the console (development mail),
 * and following it with the password signs in. Driven in headless Chromium.
 */
import { PGlite } from "@electric-sql/pglite";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL, NAME, PASSWORD } from "./support/account-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { freePort, startServer, type RunningServer } from "./support/processes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe.skipIf(!hasChromium)("npm run demo", () => {
  let work: string;
  let server: RunningServer;
  const { freshPage, shot } = useBrowser("demo");

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "gatehouse-demo-"));
    const port = await freePort();
    // Exactly the README's command; DEMO_DIR keeps the app out of this checkout's .demo/.
    server = await startServer("npm", ["run", "demo"], {
      cwd: ROOT,
      env: { PORT: String(port), DEMO_DIR: join(work, "app"), AUTH_EMAIL_SERVER: undefined, AUTH_EMAIL_FROM: undefined, DATABASE_URL: undefined },
      port,
      readyPath: "/signup",
      readyTimeoutMs: 600_000,
    });
  }, 660_000);

  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("sign up with no mail server: the link is printed on the console, kept in an owner-only file, and confirms the address", async () => {
    const page = await freshPage();
    await page.goto(`${server.origin}/signup`);
    await page.fill("input[name=name]", NAME);
    await page.fill("input[name=email]", EMAIL);
    await page.fill("input[name=password]", PASSWORD);
    await page.click("button:has-text('Sign up')");
    await page.waitForURL((url) => url.pathname.endsWith("/verify-request"));
    await shot(page, "check-your-email");

    let link: URL | undefined;
    await expect
      .poll(() => {
        const printed = /Development mail: NOT SENT[\s\S]*?Link:\s+(\S+)/.exec(server.output());
        link = printed ? new URL(printed[1]!) : undefined;
        return link;
      }, { timeout: 30_000 })
      .toBeDefined();
    expect(server.output()).toContain(`To:      ${EMAIL}`);
    const folder = join(work, "app", ".gatehouse", "mail");
    expect(existsSync(folder)).toBe(true);
    const [file] = readdirSync(folder);
    expect(statSync(join(folder, file!)).mode & 0o777).toBe(0o600);

    await page.goto(link!.href);
    expect(await page.locator("body").innerText()).toContain("Enter your password to confirm your email address.");
    await page.fill("input[name=password]", PASSWORD);
    await page.click("button:has-text('Sign in')");
    // Signed in, on the account page; the header says who.
    await page.waitForURL(`${server.origin}/account`);
    expect(await page.locator("header.auth-bar .auth-who").innerText()).toBe(NAME);
    await shot(page, "account");
    await page.goto(`${server.origin}/protected`);
    expect(await page.locator("main p").first().innerText()).toContain(`Signed in as ${NAME}`);
    await shot(page, "signed-in");
  }, 180_000);

  it("Ctrl-C (SIGINT to its process group, as a terminal sends it) stops the demo within a few seconds; its database opens again with the account", async () => {
    const tookMs = await server.interrupt("SIGINT");
    expect(tookMs, server.output()).toBeLessThan(5000);
    // The development server is stopped, not asked to close the database: PGlite opens the folder again as after a crash.
    const db = new PGlite(join(work, "app", ".pglite"));
    try {
      expect((await db.query<{ email: string }>("SELECT email FROM users")).rows).toEqual([{ email: EMAIL }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
