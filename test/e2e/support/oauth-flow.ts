/**
 * The OAuth browser flow every app made by `auth-init --providers ...,keycloak`
 * must pass, whatever the framework: the app's Keycloak provider points at a
 * real OpenID provider (oidc-provider on 127.0.0.1, standing in for Keycloak);
 * the person clicks the sign-in page's button, logs in and consents on the
 * provider's own pages, lands on the protected page signed in, signs out, and
 * signs in again as the same person. And a provider account with the email of
 * a password account is refused rather than linked to it.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { startOidcServer, type OidcServer } from "../../oauth/support/oidc-server.js";
import { EMAIL, signOutFromProtected, type AccountApp } from "./account-flow.js";

/** The provider id auth-init is given, and the name on its button. */
export const PROVIDER = { id: "keycloak", name: "Keycloak" } as const;
/** Who logs in at the provider; its accounts have the email `<login>@example.test`. */
export const LOGIN = "grace";
export const PROVIDER_EMAIL = `${LOGIN}@example.test`;
/**
 * A login whose provider account says the email of the password account
 * (account-flow's EMAIL) without having verified it: a claim, which reaches no
 * existing user. (One that vouched for the address would prove it, and take
 * over the password account, whose address nobody has proven.)
 */
const TAKEN_LOGIN = "ada";
/** A login whose provider account does not vouch for its (free) email: its user's only way in is this provider. */
export const UNPROVEN_LOGIN = "quiet";

export interface AppProvider {
  server: OidcServer;
  /** `AUTH_KEYCLOAK_ID`, `_SECRET` and `_ISSUER`: what the app's .env would hold, given to the app's process. */
  env: Record<string, string>;
}

/**
 * An OpenID provider that knows the app's callback URL (`<origin><authPath>/callback/keycloak`,
 * so the app's port is chosen first), with a confidential client for it.
 */
export async function startProviderFor(origin: string, authPath: string): Promise<AppProvider> {
  const server = await startOidcServer({ redirectUris: [`${origin}${authPath}/callback/${PROVIDER.id}`], accounts: { [TAKEN_LOGIN]: { email: EMAIL, email_verified: false }, [UNPROVEN_LOGIN]: { email_verified: false } } });
  const prefix = `AUTH_${PROVIDER.id.toUpperCase()}`;
  const client = server.clients.basic;
  return { server, env: { [`${prefix}_ID`]: client.client_id, [`${prefix}_SECRET`]: client.client_secret, [`${prefix}_ISSUER`]: server.issuer } };
}

/**
 * Sign in through the provider from the protected page, sign out, then sign in
 * again with the provider's cookies gone (a new login at the provider, as on
 * another day), landing signed in as the same person both times.
 */
export async function signInWithProviderTwice(page: Page, shot: (page: Page, step: string) => Promise<void>, app: AccountApp, provider: OidcServer): Promise<void> {
  const { origin, returnParam } = app;
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
  await shot(page, "oauth-signin-page");

  await signInThroughProvider(page, shot, app, provider, "first");
  await signOutFromProtected(page, app);
  await shot(page, "oauth-signed-out");

  // Only the provider's cookies: its session would skip the login form.
  await page.context().clearCookies({ domain: new URL(provider.issuer).hostname });
  await signInThroughProvider(page, shot, app, provider, "again");
}

/**
 * The provider account of TAKEN_LOGIN has the email of the password account
 * signed up before: the app refuses to link it (whoever controls that address
 * at the provider would take the account over) and sends the browser back to
 * its own sign-in page, which shows its fixed message for the error. Nobody is
 * signed in.
 */
export async function signInWithTakenEmail(page: Page, shot: (page: Page, step: string) => Promise<void>, app: AccountApp, provider: OidcServer): Promise<void> {
  const { origin, returnParam } = app;
  await page.goto(`${origin}/signin`);
  await throughProvider(page, shot, provider, TAKEN_LOGIN, "taken-email");
  await page.waitForURL((url) => url.origin === origin && url.pathname === "/signin");
  expect(new URL(page.url()).searchParams.get("error")).toBe("OAuthAccountNotLinked");
  expect(await page.locator("[role=alert]").innerText()).toBe("That email address already has an account that signs in another way: sign in as you did before.");
  await shot(page, "oauth-taken-email-refused");
  await page.goto(`${origin}/protected`);
  await page.waitForURL(`${origin}/signin?${returnParam}=%2Fprotected`);
}

/** From the app's sign-in page: the provider's button, its login form, its consent page, back to /protected. */
async function signInThroughProvider(page: Page, shot: (page: Page, step: string) => Promise<void>, app: AccountApp, provider: OidcServer, label: string): Promise<void> {
  await throughProvider(page, shot, provider, LOGIN, label);
  await page.waitForURL(`${app.origin}/protected`);
  expect(await page.locator("h1").innerText()).toBe("Protected");
  // The provider's profile: name and email from the ID token.
  expect(await page.locator(app.userLine).first().innerText()).toContain(`Signed in as Test User ${LOGIN} (${PROVIDER_EMAIL}).`);
  await shot(page, `oauth-signed-in-${label}`);
}

/** The page's button for the provider, then the provider's login form and consent page; the provider then sends the browser back to the app. */
export async function throughProvider(
  page: Page,
  shot: (page: Page, step: string) => Promise<void>,
  provider: OidcServer,
  login: string,
  label: string,
  button = `Sign in with ${PROVIDER.name}`,
): Promise<void> {
  await page.click(`button:has-text('${button}')`);
  // devInteractions' login page: any login, any password.
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.fill("input[name=login]", login);
  await page.fill("input[name=password]", "any password");
  await shot(page, `oauth-provider-login-${label}`);
  await page.click("button:has-text('Sign-in')");
  // Then its consent page (a new provider session has no grant yet), on the same URL.
  const consent = page.locator("button:has-text('Continue')");
  await consent.waitFor();
  await shot(page, `oauth-provider-consent-${label}`);
  await consent.click();
}
