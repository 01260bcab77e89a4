/** Headless Debian Chromium through playwright-core, and screenshots a person can look at. */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

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
    await page.screenshot({ path: join(folder, `${String(step).padStart(2, "0")}-${label}.png`), fullPage: true });
  };
}
