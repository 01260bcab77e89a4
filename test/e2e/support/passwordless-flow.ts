/**
 * The passwordless browser flows every app made by `auth-init --providers
 * ...,email,passkey` must pass, whatever the framework: a sign-in link mailed
 * to a real SMTP server on 127.0.0.1 and followed in the browser (through its
 * confirmation page), and passkeys on a CDP virtual authenticator — register
 * with a new email, sign out, sign in again with the email, and with none
 * (a discoverable passkey). WebAuthn needs `http://localhost`, not an IP.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { linkIn, startMailServer, type MailServer } from "../../email/support/smtp.js";
import { signOutFromProtected, type AccountApp } from "./account-flow.js";

export const LINK_EMAIL = "linda@example.com";
export const PASSKEY_EMAIL = "pat@example.com";

export interface AppMail {
  server: MailServer;
  /** What the app's .env would hold, given to the app's process. */
  env: Record<string, string>;
}

export async function startMailFor(): Promise<AppMail> {
  const server = await startMailServer();
  return { server, env: { AUTH_EMAIL_SERVER: server.url, AUTH_EMAIL_FROM: "Sign in <no-reply@example.test>" } };
}

type Shot = (page: Page, step: string) => Promise<void>;

/** The sign-in page's form whose submit button says `button`. */
function formWith(page: Page, button: string) {
  return page.locator("form", { has: page.locator(`button:has-text('${button}')`) });
}

/**
 * From /protected: the sign-in page's email form, the "check your email" page,
 * the link from the mail, its confirmation page, and back on /protected signed
 * in. Then, signed out, the same link again: refused as used.
 */
export async function signInWithEmailLink(page: Page, shot: Shot, app: AccountApp, mail: MailServer): Promise<void> {
  const { origin, returnParam, userLine } = app;
  const before = mail.messages.length;
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
  const form = formWith(page, "Email me a sign-in link");
  await form.locator("input[name=email]").fill(LINK_EMAIL);
  await shot(page, "email-signin-form");
  await form.locator("button").click();
  await page.waitForURL((url) => url.origin === origin && url.pathname.endsWith("/verify-request"));
  expect(await page.locator("h1").innerText()).toBe("Check your email");
  await shot(page, "email-check-your-email");

  const messages = await mail.waitFor(before + 1);
  const message = messages[before]!;
  expect(message.to).toEqual([LINK_EMAIL]);
  const link = linkIn(message);
  expect(link.origin).toBe(origin);

  await page.goto(link.href);
  // The confirmation page: opening the link alone signs nobody in (mail scanners open links).
  expect(await page.locator("main").innerText()).toContain(LINK_EMAIL);
  await shot(page, "email-confirm-page");
  await page.click("button:has-text('Sign in')");
  await page.waitForURL(`${origin}/protected`);
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${LINK_EMAIL}`);
  await shot(page, "email-signed-in");

  await signOutFromProtected(page, app);
  await page.goto(link.href);
  await page.click("button:has-text('Sign in')");
  await page.waitForURL((url) => url.pathname.endsWith("/error") && url.searchParams.get("error") === "Verification");
  expect(await page.locator("main").innerText()).toContain("The sign in link is no longer valid");
  await shot(page, "email-link-used");
}

const consoleMessages = new WeakMap<Page, string[]>();

/** What the page logged (errors and warnings), for failure messages. */
function consoleOf(page: Page): string[] {
  return consoleMessages.get(page) ?? [];
}

/** A platform authenticator with resident keys and user verification that says yes by itself. */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const messages: string[] = [];
  consoleMessages.set(page, messages);
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") messages.push(message.text());
  });
  page.on("pageerror", (error) => messages.push(String(error)));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** The sign-in page's passkey form with `email` (or none), then /protected signed in as PASSKEY_EMAIL. */
async function passkeyFromSignInPage(page: Page, shot: Shot, app: AccountApp, email: string, label: string): Promise<void> {
  const { origin, returnParam, userLine } = app;
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
  const form = formWith(page, "Sign in with a passkey");
  await form.locator("input[name=email]").fill(email);
  await form.locator("button").click();
  await page.waitForURL(`${origin}/protected`).catch(async (error: Error) => {
    // Say where the browser stayed and what the page said: a timeout alone explains nothing.
    const alerts = await page.locator("[role=alert]").allInnerTexts();
    throw new Error(`${error.message}\n  stayed on ${page.url()}; alerts: ${JSON.stringify(alerts)}; console: ${JSON.stringify(consoleOf(page))}`);
  });
  expect(await page.locator(userLine).first().innerText()).toContain(`Signed in as ${PASSKEY_EMAIL}`);
  await shot(page, `passkey-${label}`);
}

/** Register with a new email (a new user and their first passkey), sign out, sign in with the email, sign out, sign in with no email. */
export async function passkeySignUpOutAndIn(page: Page, shot: Shot, app: AccountApp): Promise<void> {
  // As served, before any script runs, the passkey button is disabled: a click before the page hydrates
  // cannot submit its form natively (a GET with the email in the URL, and no passkey asked for).
  const served = await (await page.request.get(`${app.origin}/signin`)).text();
  expect(served).toMatch(/<button(?=[^>]*\sdisabled[\s=>])[^>]*>Sign in with a passkey<\/button>/);
  await addVirtualAuthenticator(page);
  await passkeyFromSignInPage(page, shot, app, PASSKEY_EMAIL, "registered");
  await signOutFromProtected(page, app);
  await passkeyFromSignInPage(page, shot, app, PASSKEY_EMAIL, "signed-in-with-email");
  await signOutFromProtected(page, app);
  await passkeyFromSignInPage(page, shot, app, "", "signed-in-discoverable");
}
