/** Headless Debian Chromium through playwright-core, and screenshots a person can look at. */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** `.e2e-screenshots/<name>/` at the repository root (git-ignored), emptied first and printed. */
export function screenshotFolder(name: string): (page: Page, step: string) => Promise<void> {
  const folder = fileURLToPath(new URL(`../../../.e2e-screenshots/${name}/`, import.meta.url));
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  console.log(`[e2e] ${name}: screenshots of each step in ${folder}`);
  let step = 0;
  return async (page, label) => {
    step += 1;
    const path = join(folder, `${String(step).padStart(2, "0")}-${label}.png`);
    try {
      await page.screenshot({ path, fullPage: true });
    } catch (error) {
      // Headless Chromium on a busy 2-CPU machine has once answered a full-page capture with this
      // protocol error, and the same page captured fine right after: tried once more; a second failure stands.
      if (!String(error).includes(CAPTURE_FAILED)) throw error;
      await page.waitForTimeout(250);
      await page.screenshot({ path, fullPage: true });
    }
  };
}

/** Chromium's answer to `Page.captureScreenshot` when a capture fails for a moment. */
const CAPTURE_FAILED = "Unable to capture screenshot";

/**
 * One Chromium for a `describe` block (launched before its tests, closed after):
 * `freshPage()` opens a page in a new context (no cookies from earlier tests),
 * `shot(page, step)` saves a numbered screenshot under `.e2e-screenshots/<name>/`.
 */
export function useBrowser(name: string) {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let shoot: ((page: Page, step: string) => Promise<void>) | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    shoot = screenshotFolder(name);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async freshPage(): Promise<Page> {
      await context?.close();
      context = await browser!.newContext();
      return context.newPage();
    },
    shot: (page: Page, step: string) => shoot!(page, step),
  };
}
