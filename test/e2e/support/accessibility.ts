/**
 * Accessibility basics checked in the browser: axe-core's WCAG 2.1 A and AA
 * rules (labels, names, contrast, ARIA, landmarks) on the page as it is shown,
 * and the order in which Tab moves through it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: string[] }[] }[];
}

/** axe-core's violations of WCAG 2.1 A/AA on the page, one line each: rule, help, where. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Loaded once per document; a page without it gets it inlined (the apps have no CSP forbidding that).
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(
    () =>
      (window as unknown as { axe: { run(context: Document, options: unknown): Promise<AxeResult> } }).axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      }) as Promise<AxeResult>,
  );
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}

export async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), page.url()).toEqual([]);
}

/** What Tab focuses, in order, from the top of the page: each element's id, else its name, else its text. */
export async function tabOrder(page: Page, steps: number): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const order: string[] = [];
  for (let step = 0; step < steps; step++) {
    await page.keyboard.press("Tab");
    order.push(
      await page.evaluate(() => {
        const element = document.activeElement as HTMLInputElement | null;
        return element?.id || element?.name || element?.textContent?.trim() || "";
      }),
    );
  }
  return order;
}

/**
 * The auth pages of an app made by auth-init: each has its title and passes axe-core; on
 * the sign-up page Tab goes through the header, then the form in order, and a refusal about
 * a field is shown under it and tied to it. Screenshots: that refusal, the sign-in page dark
 * and at a phone's width.
 */
export async function checkAuthPages(page: Page, shot: (page: Page, step: string) => Promise<void>, origin: string, credentials: boolean): Promise<void> {
  await page.goto(`${origin}/signin`);
  expect(await page.title()).toBe("Sign in");
  await expectAccessible(page);
  if (credentials) {
    await page.goto(`${origin}/signup`);
    expect(await page.title()).toBe("Sign up");
    await expectAccessible(page);
    // The header's links first, then (after the app's own links, if its layout has some) the form top to bottom, then the link under it.
    const order = await tabOrder(page, 9);
    expect(order.slice(0, 2)).toEqual(["Sign in", "Sign up"]);
    const form = order.indexOf("signup-name");
    expect(order.slice(form, form + 5)).toEqual(["signup-name", "signup-email", "signup-password", "Sign up", "Sign in"]);
    await page.goto(`${origin}/signup?error=PasswordSignUp&code=short-password`);
    expect(await page.locator("#signup-password").getAttribute("aria-describedby")).toBe("signup-password-hint signup-password-error");
    expect(await page.locator("#signup-password-error").innerText()).toBe("Choose a password of at least 8 characters.");
    await expectAccessible(page);
    await shot(page, "signup-field-error");
    for (const [path, title] of [["/forgot-password", "Forgot your password?"], ["/reset-password", "Choose a new password"], ["/signout", "Sign out"]] as const) {
      await page.goto(`${origin}${path}`);
      expect(await page.title()).toBe(title);
      await expectAccessible(page);
      await shot(page, `page${path.replace("/", "-")}`);
    }
  }
  await page.emulateMedia({ colorScheme: "dark" });
  if (credentials) {
    await page.goto(`${origin}/signup?error=PasswordSignUp&code=short-password`);
    await expectAccessible(page);
    await shot(page, "signup-field-error-dark");
  }
  await page.goto(`${origin}/signin`);
  await expectAccessible(page);
  await shot(page, "signin-dark");
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, "signin-phone-dark");
}
