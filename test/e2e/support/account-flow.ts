/**
 * The browser flow every app made by `auth-init` must pass, whatever the
 * framework: sign up, see the protected page, sign out, a wrong password refused
 * generically, sign in again. Frameworks differ only in the sign-in page's query
 * parameter and where the page puts the signed-in user's line.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";

export const NAME = "Ada Lovelace";
export const EMAIL = "ada@example.com";
export const PASSWORD = "correct horse battery staple";

export interface AccountApp {
  origin: string;
  /** `redirectTo` (SvelteKit's form actions) or `callbackUrl` (the handler's pages). */
  returnParam: "redirectTo" | "callbackUrl";
  /** The element holding "Signed in as ..." on /protected. */
  userLine: string;
}

export async function signUpOutAndIn(page: Page, shot: (page: Page, step: string) => Promise<void>, app: AccountApp): Promise<void> {
  const { origin, returnParam, userLine } = app;
  const signInFromProtected = `${origin}/signin?${returnParam}=%2Fprotected`;
  await page.goto(`${origin}/protected`);
  await page.waitForURL(signInFromProtected);
  await shot(page, "protected-redirects-to-signin");

  await page.click("a:has-text('Sign up')");
  await page.waitForURL(`${origin}/signup`);
  await page.fill("input[name=name]", NAME);
  await page.fill("input[name=email]", EMAIL);
  await page.fill("input[name=password]", PASSWORD);
  await shot(page, "signup-form");
  await page.click("button:has-text('Sign up')");
  await page.waitForURL(`${origin}/`);
  await page.goto(`${origin}/protected`);
  expect(await page.locator("h1").innerText()).toBe("Protected");
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${NAME}`);
  await shot(page, "protected-after-signup");

  await signOutFromProtected(page, app);
  await shot(page, "signed-out");

  await page.fill("input[name=email]", EMAIL);
  await page.fill("input[name=password]", "not the password");
  await page.click("button:has-text('Sign in')");
  await expectOneAlert(page);
  expect(await page.locator("[role=alert]").innerText()).toBe("Invalid email or password.");
  await shot(page, "wrong-password");

  await page.fill("input[name=email]", EMAIL.toUpperCase());
  await page.fill("input[name=password]", PASSWORD);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${origin}/protected`);
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${NAME}`);
  await shot(page, "signed-in-again");
}

/** From the protected page: its sign-out link, the sign-out page's button, then /protected sends to sign-in again. */
export async function signOutFromProtected(page: Page, { origin, returnParam }: AccountApp): Promise<void> {
  await page.click("a:has-text('Sign out')");
  await page.waitForURL(`${origin}/signout`);
  await page.click("button:has-text('Sign out')");
  await page.waitForURL(`${origin}/`);
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
}

/** Signing up again with a taken email: the generic refusal, and nobody signed in. */
export async function signUpWithTakenEmail(page: Page, app: AccountApp): Promise<void> {
  await page.goto(`${app.origin}/signup`);
  await page.fill("input[name=email]", EMAIL);
  await page.fill("input[name=password]", "another long password");
  await page.click("button:has-text('Sign up')");
  await expectOneAlert(page);
  expect(await page.locator("[role=alert]").innerText()).toContain("Could not create an account");
}

/** An address of its own: the account flows above never sign in with it, so its locked count stops nothing else. */
export const LOCKED_EMAIL = "guessed-at@example.com";

/**
 * The config's `rateLimit: { ip: false }`: five wrong passwords for one email
 * address are refused as wrong, the sixth attempt is refused as too many (the
 * password is not even checked). `refusal` checks how the app shows that.
 */
export async function tooManyWrongPasswords(page: Page, app: AccountApp, refusal: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(`${app.origin}/signin`);
  for (let attempt = 1; attempt <= 6; attempt++) {
    await page.fill("input[name=email]", LOCKED_EMAIL);
    await page.fill("input[name=password]", `wrong password ${attempt}`);
    // Waiting for the POST's answer: the alert of the attempt before is still on the page.
    await Promise.all([page.waitForResponse((response) => response.request().method() === "POST"), page.click("button:has-text('Sign in')")]);
    await page.waitForLoadState("load");
    if (attempt === 6) break;
    await expectOneAlert(page);
    expect(await page.locator("[role=alert]").innerText()).toBe("Invalid email or password.");
  }
  await refusal(page);
}

/**
 * The page shows exactly one alert. It comes after a password hash (scrypt,
 * 32 MiB), which takes seconds on a busy 2-vCPU machine: wait for it that long.
 */
async function expectOneAlert(page: Page): Promise<void> {
  await expect.poll(() => page.locator("[role=alert]").count(), { timeout: 20_000 }).toBe(1);
}
