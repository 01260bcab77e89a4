/**
 * The account page every app made by `auth-init` (with a database) must pass,
 * whatever the framework, driven through its forms in Chromium: the name
 * (a refused one shown under its field), two browsers and "sign out
 * everywhere else", a password change, signing out one session from the list,
 * passkeys added and removed, a provider connected and disconnected, the last
 * way in refused, and the account deleted. Screenshots of each state,
 * light and dark, and at a phone's width.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { linkIn, type MailServer } from "../../email/support/smtp.js";
import type { OidcServer } from "../../oauth/support/oidc-server.js";
import { expectAccessible } from "./accessibility.js";
import { expectAlert, mailTo, submitForMail, type AccountApp } from "./account-flow.js";
import { PROVIDER, throughProvider, UNPROVEN_LOGIN } from "./oauth-flow.js";
import { addVirtualAuthenticator } from "./passwordless-flow.js";

type Shot = (page: Page, step: string) => Promise<void>;

/** The account page's own user: no other flow signs in with it. */
export const OWNER = { name: "Grace Hopper", email: "grace.hopper@example.com", password: "a compiler of one's own" } as const;
const NEW_OWNER_PASSWORD = "nanoseconds are short";

export interface AccountPageOptions {
  /** The app has passkeys: add one on the account page, then remove it. */
  passkeys?: boolean;
  /** The app signs in with Keycloak (this OpenID provider): connect it, then disconnect it. */
  provider?: OidcServer;
}

/** Signs up `OWNER`, confirms the address through the mailed link, and lands on the account page. */
async function signUpToAccountPage(page: Page, app: AccountApp, mail: MailServer): Promise<void> {
  await page.goto(`${app.origin}/signup`);
  await page.fill("input[name=name]", OWNER.name);
  await page.fill("input[name=email]", OWNER.email);
  await page.fill("input[name=password]", OWNER.password);
  const link = await submitForMail(page, mail, OWNER.email, "Sign up");
  await page.goto(link.href);
  await page.fill("input[name=password]", OWNER.password);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${app.origin}/account`);
}

/** Signs in with the password form and lands on the account page (a sign-in without a destination goes there). */
async function signInToAccountPage(page: Page, app: AccountApp, password: string): Promise<void> {
  await page.goto(`${app.origin}/signin`);
  await page.fill("input[name=email]", OWNER.email);
  await page.fill("input[name=password]", password);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${app.origin}/account`);
}

/** The rows of the "Where you are signed in" list. */
function sessionRows(page: Page) {
  return page.locator("section[aria-labelledby=account-sessions] li");
}

/** The notice a form's success shows (role="status"). */
async function expectNotice(page: Page, text: string): Promise<void> {
  // Time for the form's round trip and the navigation back (vitest's poll gives up after 1 s by default).
  await expect.poll(() => page.locator("[role=status]").allInnerTexts(), { timeout: 20_000 }).toEqual([text]);
}

/** The field's error: under it, announced, and tied to the input (aria-invalid, aria-describedby). */
async function expectFieldError(page: Page, inputId: string, text: string): Promise<void> {
  const input = page.locator(`#${inputId}`);
  await expect.poll(() => input.getAttribute("aria-invalid"), { timeout: 20_000 }).toBe("true");
  const describedBy = (await input.getAttribute("aria-describedby"))!.split(" ");
  expect(describedBy).toContain(`${inputId}-error`);
  const error = page.locator(`#${inputId}-error`);
  expect(await error.innerText()).toBe(text);
  expect(await error.getAttribute("role")).toBe("alert");
}

/** The header above every page: its links and buttons, in order. */
async function headerItems(page: Page): Promise<string[]> {
  return (await page.locator("header.auth-bar nav").locator("a, button, .auth-who").allInnerTexts()).map((text) => text.trim());
}

/** One click on the header's "Sign out": signed out, on the home page, the header offers to sign in. */
async function signOutFromHeader(page: Page, shot: Shot, app: AccountApp): Promise<void> {
  await shot(page, "header-signed-in");
  await page.locator("header.auth-bar").locator("button:has-text('Sign out')").click();
  await page.waitForURL(`${app.origin}/`);
  expect(await headerItems(page)).toEqual(["Sign in", "Sign up"]);
  await shot(page, "header-signed-out");
}

/** The signed-out browser asking for the account page goes to sign in, and comes back there after. */
async function expectSignedOut(page: Page, app: AccountApp): Promise<void> {
  await page.goto(`${app.origin}/account`);
  await page.waitForURL(`${app.origin}/signin?${app.returnParam}=%2Faccount`);
}

export async function manageAccount(page: Page, shot: Shot, app: AccountApp, mail: MailServer, options: AccountPageOptions = {}): Promise<void> {
  const { origin } = app;
  await expectSignedOut(page, app);
  expect(await headerItems(page)).toEqual(["Sign in", "Sign up"]);
  await signUpToAccountPage(page, app, mail);
  expect(await headerItems(page)).toEqual([OWNER.name, "Account", "Sign out"]);
  expect(await page.title()).toBe("Your account");
  expect(await page.locator("h1").innerText()).toBe("Your account");
  expect(await page.locator("#profile-name").inputValue()).toBe(OWNER.name);
  expect(await page.locator("#profile-email").inputValue()).toBe(OWNER.email);
  expect(await page.locator("#profile-email-hint").innerText()).toMatch(/^Confirmed on /);
  await expectAccessible(page);
  await shot(page, "account");

  // The name: refused with the reason under the field (nothing stored), then saved.
  await page.fill("#profile-name", "Grace\u0007Hopper");
  await page.click("button:has-text('Save')");
  await page.waitForURL((url) => url.searchParams.get("error") === "ProfileUpdate");
  await expectFieldError(page, "profile-name", "Use letters, digits, spaces and punctuation only.");
  expect(await page.locator("#profile-name").inputValue()).toBe(OWNER.name);
  await expectAccessible(page);
  await shot(page, "account-name-refused");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "account-name-refused-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.fill("#profile-name", "Grace B. Hopper");
  await page.click("button:has-text('Save')");
  await expectNotice(page, "Your name is saved.");
  expect(await page.locator("#profile-name").inputValue()).toBe("Grace B. Hopper");
  expect(await headerItems(page)).toEqual(["Grace B. Hopper", "Account", "Sign out"]);

  // A second browser: two sessions; "sign out everywhere else" ends the other one at its next request.
  const elsewhere = await page.context().browser()!.newContext();
  try {
    const other = await elsewhere.newPage();
    await signInToAccountPage(other, app, OWNER.password);
    await signOutFromHeader(other, shot, app);
    await expectSignedOut(other, app);
    await signInToAccountPage(other, app, OWNER.password);
    await page.goto(`${origin}/account`);
    await expect.poll(() => sessionRows(page).count(), { timeout: 20_000 }).toBe(app.jwt ? 1 : 2);
    expect(await sessionRows(page).filter({ hasText: "This browser" }).count()).toBe(1);
    await shot(page, "account-two-sessions");
    await page.click("button:has-text('Sign out everywhere else')");
    await expectNotice(page, "Every other session is signed out.");
    await expect.poll(() => sessionRows(page).count(), { timeout: 20_000 }).toBe(1);
    await expectSignedOut(other, app);

    // The password: the current one is asked for (a wrong one is shown under its field), then changed.
    await page.fill("#password-current", "not my password");
    await page.fill("#password-new", NEW_OWNER_PASSWORD);
    await page.click("button:has-text('Change password')");
    await page.waitForURL((url) => url.searchParams.get("error") === "PasswordChange");
    await expectFieldError(page, "password-current", "That is not your current password.");
    await shot(page, "account-wrong-current-password");
    await page.fill("#password-current", OWNER.password);
    await page.fill("#password-new", NEW_OWNER_PASSWORD);
    await page.click("button:has-text('Change password')");
    await expectNotice(page, "Your password is changed. Every other session is signed out.");

    // The other browser signs in with the new password; this one signs it out from the list.
    await signInToAccountPage(other, app, NEW_OWNER_PASSWORD);
    if (!app.jwt) {
      await page.goto(`${origin}/account`);
      await expect.poll(() => sessionRows(page).count(), { timeout: 20_000 }).toBe(2);
      await sessionRows(page).filter({ hasNotText: "This browser" }).locator("button:has-text('Sign out')").click();
      await expectNotice(page, "That session is signed out.");
      await expectSignedOut(other, app);
    }
  } finally {
    await elsewhere.close();
  }

  if (options.passkeys) await addAndRemovePasskey(page, shot, app);
  if (options.provider) await connectAndDisconnect(page, shot, app, options.provider);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${origin}/account`);
  await shot(page, "account-phone");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "account-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Deleting: the address typed out and the password, each refusal under its field; then gone.
  await page.fill("#delete-confirm", "someone.else@example.com");
  await page.fill("#delete-password", NEW_OWNER_PASSWORD);
  await page.click("button:has-text('Delete my account')");
  await page.waitForURL((url) => url.searchParams.get("error") === "AccountDelete");
  await expectFieldError(page, "delete-confirm", "Type your account's email address exactly.");
  await page.fill("#delete-confirm", OWNER.email);
  await page.fill("#delete-password", "not my password");
  await page.click("button:has-text('Delete my account')");
  await page.waitForURL((url) => url.searchParams.get("code") === "wrong-password");
  await expectFieldError(page, "delete-password", "That is not your password.");
  await shot(page, "account-delete-refused");
  await page.fill("#delete-confirm", OWNER.email);
  await page.fill("#delete-password", NEW_OWNER_PASSWORD);
  await page.click("button:has-text('Delete my account')");
  await page.waitForURL(`${origin}/`);
  await expectSignedOut(page, app);
  await page.fill("input[name=email]", OWNER.email);
  await page.fill("input[name=password]", NEW_OWNER_PASSWORD);
  await page.click("button:has-text('Sign in')");
  await expectAlert(page, "Invalid email or password.");
}

/** "Add a passkey" on Chromium's virtual authenticator, then "Remove" (the password is still a way in). */
async function addAndRemovePasskey(page: Page, shot: Shot, app: AccountApp): Promise<void> {
  await addVirtualAuthenticator(page);
  await page.goto(`${app.origin}/account`);
  await page.click("button:has-text('Add a passkey')");
  await expectNotice(page, "The passkey is added.");
  const rows = page.locator("section[aria-labelledby=account-passkeys] li");
  expect(await rows.count()).toBe(1);
  await shot(page, "account-passkey-added");
  await rows.first().locator("button:has-text('Remove')").click();
  await expectNotice(page, "The passkey is removed.");
  expect(await rows.count()).toBe(0);
}

/** "Connect Keycloak": through the provider's login and consent, back linked; then "Disconnect" (the password is still a way in). */
async function connectAndDisconnect(page: Page, shot: Shot, app: AccountApp, provider: OidcServer): Promise<void> {
  await page.goto(`${app.origin}/account`);
  await throughProvider(page, shot, provider, "linker", "connect", `Connect ${PROVIDER.name}`);
  await page.waitForURL((url) => url.origin === app.origin && url.pathname === "/account");
  await expectNotice(page, "The account is connected: you can sign in with it too.");
  const rows = page.locator("section[aria-labelledby=account-connected] li");
  expect(await rows.allInnerTexts()).toEqual([expect.stringContaining(PROVIDER.name)]);
  await shot(page, "account-provider-connected");
  await rows.first().locator("button:has-text('Disconnect')").click();
  await expectNotice(page, "The account is disconnected.");
  expect(await rows.count()).toBe(0);
}

/**
 * The signed-in user's only way in cannot be taken away: "Remove" on their one
 * passkey, or "Disconnect" on their one provider, is refused with the reason.
 */
export async function lastWayInRefused(page: Page, shot: Shot, app: AccountApp, section: "passkeys" | "connected"): Promise<void> {
  await page.goto(`${app.origin}/account`);
  const rows = page.locator(`section[aria-labelledby=account-${section}] li`);
  expect(await rows.count()).toBe(1);
  await rows.first().locator(section === "passkeys" ? "button:has-text('Remove')" : "button:has-text('Disconnect')").click();
  await page.waitForURL((url) => url.searchParams.get("code") === "last-sign-in-method");
  await expectAlert(page, "That is your last way to sign in: add another one first.");
  expect(await rows.count()).toBe(1);
  await shot(page, `account-last-way-in-${section}`);
}

/** A passkey of the user's, renamed from the account page. */
export async function renamePasskey(page: Page, app: AccountApp, name: string): Promise<void> {
  await page.goto(`${app.origin}/account`);
  const row = page.locator("section[aria-labelledby=account-passkeys] li").first();
  await row.locator("summary").click();
  await row.locator("input[name=name]").fill(name);
  await row.locator("button:has-text('Save')").click();
  await expectNotice(page, "The passkey is renamed.");
  expect(await page.locator("section[aria-labelledby=account-passkeys] li").first().innerText()).toContain(name);
}

/**
 * A user who signs in with the provider alone (it did not vouch for the address, so no mail
 * signs them in) cannot disconnect it. They set a first password from the account page, through
 * a link mailed to the address: that proves the address, and the account, whose provider link
 * was set up before anyone proved it, is handed over without it (SECURITY.md, "Email ownership").
 */
export async function providerOnlyUserCannotDisconnect(page: Page, shot: Shot, app: AccountApp, provider: OidcServer, mail: MailServer): Promise<void> {
  await page.goto(`${app.origin}/signin`);
  await throughProvider(page, shot, provider, UNPROVEN_LOGIN, "provider-only");
  await page.waitForURL(`${app.origin}/account`);
  await lastWayInRefused(page, shot, app, "connected");

  const before = mail.messages.length;
  await page.click("button:has-text('Email me a link to set a password')");
  await page.waitForURL((url) => url.pathname.endsWith("/verify-request"));
  const link = linkIn(await mailTo(mail, `${UNPROVEN_LOGIN}@example.test`, before));
  await page.goto(link.href);
  await page.fill("input[name=password]", "a first password of my own");
  await page.click("button:has-text('Set new password')");
  await page.waitForURL(`${app.origin}/account`);
  // A password now: the change form; the address proven; the provider link its creator made, gone.
  expect(await page.locator("#password-current").count()).toBe(1);
  expect(await page.locator("#profile-email-hint").innerText()).toMatch(/^Confirmed on /);
  expect(await page.locator("section[aria-labelledby=account-connected] li").count()).toBe(0);
  await shot(page, "account-password-set-by-mail");
}
