/**
 * The browser flows every app made by `auth-init` must pass, whatever the
 * framework, with the app's mail going to a real SMTP server on 127.0.0.1:
 * sign up and confirm the address through the mailed link, see the protected
 * page, sign out, a wrong password refused generically, sign in again; "forgot
 * password" ending the other browser's session; an address someone else signed
 * up with first, taken back by its owner. Frameworks differ only in the sign-in
 * page's query parameter and where the page puts the signed-in user's line.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { linkIn, type MailServer, type ReceivedMail } from "../../email/support/smtp.js";

export const NAME = "Ada Lovelace";
export const EMAIL = "ada@example.com";
export const PASSWORD = "correct horse battery staple";
export const NEW_PASSWORD = "a brand new battery staple";
/** The takeover scene: Victor's address, which Mallory signs up with first. */
export const VICTIM_EMAIL = "victor@example.com";
const VICTIM_PASSWORD = "victor's own long password";
const MALLORY_PASSWORD = "mallory's long password";

type Shot = (page: Page, step: string) => Promise<void>;

export interface AccountApp {
  origin: string;
  /** `redirectTo` (SvelteKit's form actions) or `callbackUrl` (the handler's pages). */
  returnParam: "redirectTo" | "callbackUrl";
  /** The element holding "Signed in as ..." on /protected. */
  userLine: string;
  /** Where a sign-in without a destination lands: the account page (`/account`), or `/` without one. */
  home: string;
  /** JWT sessions: the account page lists this browser's only (the others' exist in their cookies alone). */
  jwt?: boolean;
}

export async function signUpOutAndIn(page: Page, shot: Shot, app: AccountApp, mail: MailServer): Promise<void> {
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
  const link = await submitForMail(page, mail, EMAIL, "Sign up");
  expect(await page.locator("body").innerText()).toContain("We sent a link to confirm your address.");
  await shot(page, "signup-check-your-email");
  // Nobody is signed in until the address is confirmed.
  await page.goto(`${origin}/protected`);
  await page.waitForURL(signInFromProtected);

  // The link opens the sign-in page, which asks for the password: the link alone proves only the mailbox.
  expect(link.pathname).toBe("/signin");
  await page.goto(link.href);
  expect(await page.locator("body").innerText()).toContain("Enter your password to confirm your email address.");
  expect(await page.locator("input[name=email]").first().inputValue()).toBe(EMAIL);
  await shot(page, "signup-confirm-page");
  await page.fill("input[name=password]", PASSWORD);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${origin}${app.home}`);
  await shot(page, "landed-after-confirming");
  await page.goto(`${origin}/protected`);
  expect(await page.locator("h1").innerText()).toBe("Protected");
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${NAME}`);
  await shot(page, "protected-after-confirming");

  await signOutFromProtected(page, app);
  await shot(page, "signed-out");

  await page.fill("input[name=email]", EMAIL);
  await page.fill("input[name=password]", "not the password");
  await page.click("button:has-text('Sign in')");
  await expectAlert(page, "Invalid email or password.");
  await shot(page, "wrong-password");

  await page.fill("input[name=email]", EMAIL.toUpperCase());
  await page.fill("input[name=password]", PASSWORD);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${origin}/protected`);
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${NAME}`);
  await shot(page, "signed-in-again");
}

/**
 * Submits the form whose button says `button` and waits for "check your email"
 * and for the mail to `to` that it sent; returns the mail's link.
 */
export async function submitForMail(page: Page, mail: MailServer, to: string, button: string): Promise<URL> {
  const before = mail.messages.length;
  await page.click(`button:has-text('${button}')`);
  await page.waitForURL((url) => url.pathname.endsWith("/verify-request"));
  expect(await page.locator("h1").innerText()).toBe("Check your email");
  const message = await mailTo(mail, to, before);
  return linkIn(message);
}

/** The first mail to `to` after the first `before` ones. */
export async function mailTo(mail: MailServer, to: string, before: number): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect.poll(() => (found = mail.messages.slice(before).find((m) => m.to.includes(to))), { timeout: 20_000 }).toBeDefined();
  return found!;
}

/**
 * "Forgot your password?" while signed in elsewhere: the mailed link, a new
 * password, signed in here; the other browser's session is gone, the old
 * password is refused, the new one works.
 */
export async function resetForgottenPassword(page: Page, shot: Shot, app: AccountApp, mail: MailServer): Promise<void> {
  const { origin, returnParam, userLine } = app;
  const elsewhere = await page.context().browser()!.newContext();
  try {
    const other = await elsewhere.newPage();
    await signInWith(other, app, EMAIL, PASSWORD);

    await page.goto(`${origin}/signin`);
    await page.click("a:has-text('Forgot your password?')");
    await page.waitForURL(`${origin}/forgot-password`);
    await page.fill("input[name=email]", EMAIL);
    await shot(page, "forgot-password-form");
    const link = await submitForMail(page, mail, EMAIL, "Email me a reset link");
    expect(await page.locator("body").innerText()).toContain("If an account uses this address, we sent it a link to choose a new password.");
    await shot(page, "forgot-password-check-your-email");

    expect(link.pathname).toBe("/reset-password");
    await page.goto(link.href);
    await shot(page, "reset-password-form");
    await page.fill("input[name=password]", NEW_PASSWORD);
    await page.click("button:has-text('Set new password')");
    await page.waitForURL(`${origin}${app.home}`);
    await page.goto(`${origin}/protected`);
    expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${NAME}`);
    await shot(page, "reset-password-signed-in");

    // The session the other browser had ended with the reset.
    await other.goto(`${origin}/protected`);
    await other.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
    // The link is used; the old password no longer works, the new one does.
    await page.goto(link.href);
    await page.fill("input[name=password]", "yet another long password");
    await page.click("button:has-text('Set new password')");
    await page.waitForURL((url) => url.pathname === "/forgot-password");
    await expectAlert(page, "That link has expired or was already used. Ask for a new one below.");
    await shot(page, "reset-link-used");
    await other.goto(`${origin}/signin`);
    await other.fill("input[name=email]", EMAIL);
    await other.fill("input[name=password]", PASSWORD);
    await other.click("button:has-text('Sign in')");
    await expectAlert(other, "Invalid email or password.");
    await signInWith(other, app, EMAIL, NEW_PASSWORD);
  } finally {
    await elsewhere.close();
  }
}

/** Signs in from /protected with `email` and `password`, and checks the protected page. */
async function signInWith(page: Page, { origin, returnParam, userLine }: AccountApp, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${origin}/protected`);
  expect(await page.locator(userLine).first().innerText()).toContain("Signed in as");
}

/**
 * Mallory signs up with Victor's address and a password of hers, before Victor
 * has an account. She cannot sign in (the address waits for confirmation, and
 * the link went to Victor); Victor's click on that link does not make the
 * account hers-and-his either (it asks for her password). Victor takes his
 * address back with "Forgot your password?": signed in with his own password,
 * Mallory's refused.
 */
export async function claimedAddressTakenBack(page: Page, shot: Shot, app: AccountApp, mail: MailServer): Promise<void> {
  const { origin, returnParam, userLine } = app;
  const mallory = await page.context().browser()!.newContext();
  try {
    const attacker = await mallory.newPage();
    await attacker.goto(`${origin}/signup`);
    await attacker.fill("input[name=email]", VICTIM_EMAIL);
    await attacker.fill("input[name=password]", MALLORY_PASSWORD);
    const confirmLink = await submitForMail(attacker, mail, VICTIM_EMAIL, "Sign up");
    await attacker.goto(`${origin}/signin`);
    await attacker.fill("input[name=email]", VICTIM_EMAIL);
    await attacker.fill("input[name=password]", MALLORY_PASSWORD);
    await attacker.click("button:has-text('Sign in')");
    await expectAlert(attacker, "Confirm your email address first: we have sent you a new link.");
    await shot(attacker, "claimer-refused-unconfirmed");
    await attacker.goto(`${origin}/protected`);
    await attacker.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);

    // Victor follows the mail he did not ask for: it wants a password he does not have.
    await page.goto(confirmLink.href);
    await page.fill("input[name=password]", "victor does not know it");
    await page.click("button:has-text('Sign in')");
    await expectAlert(page, "Invalid email or password.");

    await page.goto(`${origin}/forgot-password`);
    await page.fill("input[name=email]", VICTIM_EMAIL);
    const resetLink = await submitForMail(page, mail, VICTIM_EMAIL, "Email me a reset link");
    await page.goto(resetLink.href);
    await page.fill("input[name=password]", VICTIM_PASSWORD);
    await page.click("button:has-text('Set new password')");
    await page.waitForURL(`${origin}${app.home}`);
    await page.goto(`${origin}/protected`);
    expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${VICTIM_EMAIL}`);
    await shot(page, "owner-took-the-address-back");

    await attacker.goto(`${origin}/signin`);
    await attacker.fill("input[name=email]", VICTIM_EMAIL);
    await attacker.fill("input[name=password]", MALLORY_PASSWORD);
    await attacker.click("button:has-text('Sign in')");
    await expectAlert(attacker, "Invalid email or password.");
    await shot(attacker, "claimer-password-refused");
  } finally {
    await mallory.close();
  }
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

/**
 * Signing up again with a taken email: the same "check your email" page as a
 * free address (the form does not tell who has an account); the mail tells the
 * owner instead, with a way to choose a new password. Nobody is signed in.
 */
export async function signUpWithTakenEmail(page: Page, app: AccountApp, mail: MailServer): Promise<void> {
  await page.goto(`${app.origin}/signup`);
  await page.fill("input[name=email]", EMAIL);
  await page.fill("input[name=password]", "another long password");
  const before = mail.messages.length;
  await page.click("button:has-text('Sign up')");
  await page.waitForURL((url) => url.pathname.endsWith("/verify-request"));
  expect(await page.locator("body").innerText()).toContain("We sent a link to confirm your address.");
  const message = await mailTo(mail, EMAIL, before);
  expect(message.subject).toContain("You already have an account");
}

/** An address of its own: the account flows above never sign in with it, so its locked count stops nothing else. */
export const LOCKED_EMAIL = "guessed-at@example.com";

/**
 * The config's `rateLimit: { ip: 100 }`: five wrong passwords for one email
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

/** The page shows exactly one alert, saying `text`. */
export async function expectAlert(page: Page, text: string): Promise<void> {
  await expectOneAlert(page);
  expect(await page.locator("[role=alert]").innerText()).toBe(text);
}
