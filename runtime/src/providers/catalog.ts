/**
 * What tools need to know about each provider without loading it: the id, the
 * export to import, the env keys it reads and where its callback goes. The CLI
 * (`auth-init --providers`, `auth add-provider`) and `auth doctor` read this
 * list, so it names exactly the providers `@gatehouse/runtime/providers` exports.
 */

export interface ProviderCatalogEntry {
  /** The provider id: the `--providers` value and the path segment of its routes. */
  readonly id: string;
  /** Shown to people choosing a provider. */
  readonly name: string;
  /** The named export of `@gatehouse/runtime/providers`. */
  readonly importName: string;
  readonly type: "oauth" | "oidc" | "email" | "credentials" | "webauthn";
  /** Env keys the provider reads (`AUTH_<ID>_ID`, ...), empty when it needs none. */
  readonly env: readonly string[];
  /** Where to register the app and its callback URL, for OAuth providers with one console for everyone. */
  readonly setupUrl?: string;
  /** What to know about the callback URL at this provider (https only, no localhost, where to enter it...). */
  readonly callbackNote?: string;
  /**
   * How the provider tells gatehouse an email is verified (OAuth and OIDC only):
   * `"claim"` the OpenID Connect `email_verified` claim, `"api"` a field or call
   * of the provider's own API, `"never"` it gives no such signal, so its
   * addresses stay the user's claim. Matches the provider's `verifiedEmail`.
   */
  readonly emailVerification?: "claim" | "api" | "never";
}

/** `AUTH_<ID>_ID` and `AUTH_<ID>_SECRET` (and `AUTH_<ID>_ISSUER`), as core reads them. */
function envKeys(id: string, withIssuer = false): readonly string[] {
  const prefix = `AUTH_${id.toUpperCase().replace(/-/g, "_")}`;
  return withIssuer ? [`${prefix}_ID`, `${prefix}_SECRET`, `${prefix}_ISSUER`] : [`${prefix}_ID`, `${prefix}_SECRET`];
}

// Data only, no imports of the provider modules: the CLI loads this file on its own.
// `password` stays first: CLI messages list the known ids in this order. `Credentials` has no
// entry: it is the building block for a check the app writes itself, and no command writes one.
export const providerCatalog: readonly ProviderCatalogEntry[] = [
  // Email + password accounts: verified sign-up and reset links go out by mail (SMTP, like `email`).
  { id: "password", name: "Email and password", importName: "Password", type: "credentials", env: ["AUTH_EMAIL_SERVER", "AUTH_EMAIL_FROM"] },
  // Passwordless: a sign-in link by mail (SMTP through nodemailer), and passkeys (WebAuthn, experimental).
  { id: "email", name: "Email link", importName: "Nodemailer", type: "email", env: ["AUTH_EMAIL_SERVER", "AUTH_EMAIL_FROM"] },
  { id: "passkey", name: "Passkey", importName: "Passkey", type: "webauthn", env: [] },
  {
    id: "apple",
    name: "Apple",
    importName: "Apple",
    type: "oidc",
    env: envKeys("apple"),
    setupUrl: "https://developer.apple.com/account/resources/identifiers/list/serviceId",
    callbackNote:
      "Apple accepts only https return URLs on a real domain (no localhost, no IP addresses): use a tunnel in development. AUTH_APPLE_SECRET is a JWT signed with your Sign in with Apple key, valid for at most 180 days: make it with createAppleClientSecret().",
    emailVerification: "claim",
  },
  { id: "auth0", name: "Auth0", importName: "Auth0", type: "oidc", env: envKeys("auth0", true), setupUrl: "https://manage.auth0.com/", emailVerification: "claim" },
  {
    id: "authentik",
    name: "authentik",
    importName: "Authentik",
    type: "oidc",
    env: envKeys("authentik", true),
    callbackNote:
      "Enter it as the redirect URI of an OAuth2/OpenID provider in your authentik admin interface (https://<authentik host>/if/admin/). The issuer is https://<authentik host>/application/o/<slug>/ with its trailing slash.",
    emailVerification: "claim",
  },
  {
    id: "cognito",
    name: "Amazon Cognito",
    importName: "Cognito",
    type: "oidc",
    env: envKeys("cognito", true),
    setupUrl: "https://console.aws.amazon.com/cognito/home",
    emailVerification: "claim",
  },
  { id: "discord", name: "Discord", importName: "Discord", type: "oauth", env: envKeys("discord"), setupUrl: "https://discord.com/developers/applications", emailVerification: "api" },
  {
    id: "facebook",
    name: "Facebook",
    importName: "Facebook",
    type: "oauth",
    env: envKeys("facebook"),
    setupUrl: "https://developers.facebook.com/apps/",
    callbackNote: "Facebook requires https redirect URIs; http://localhost works only while the app is in development mode.",
    emailVerification: "never",
  },
  { id: "github", name: "GitHub", importName: "GitHub", type: "oauth", env: envKeys("github"), setupUrl: "https://github.com/settings/developers", emailVerification: "api" },
  { id: "gitlab", name: "GitLab", importName: "GitLab", type: "oauth", env: envKeys("gitlab"), setupUrl: "https://gitlab.com/-/user_settings/applications", emailVerification: "api" },
  { id: "google", name: "Google", importName: "Google", type: "oidc", env: envKeys("google"), setupUrl: "https://console.cloud.google.com/apis/credentials", emailVerification: "claim" },
  {
    id: "keycloak",
    name: "Keycloak",
    importName: "Keycloak",
    type: "oidc",
    env: envKeys("keycloak", true),
    callbackNote:
      "Enter it as a valid redirect URI of an OpenID Connect client (client authentication on) in your realm's admin console. The issuer is https://<keycloak host>/realms/<realm>.",
    emailVerification: "claim",
  },
  { id: "linkedin", name: "LinkedIn", importName: "LinkedIn", type: "oidc", env: envKeys("linkedin"), setupUrl: "https://www.linkedin.com/developers/apps", emailVerification: "claim" },
  {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    importName: "MicrosoftEntraID",
    type: "oidc",
    env: envKeys("microsoft-entra-id", true),
    setupUrl: "https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade",
    callbackNote:
      "Add it as a redirect URI of platform \"Web\". The issuer names your tenant: https://login.microsoftonline.com/<tenant id>/v2.0 (the multi-tenant \"common\" issuer cannot be validated).",
    emailVerification: "api",
  },
  {
    id: "okta",
    name: "Okta",
    importName: "Okta",
    type: "oidc",
    env: envKeys("okta", true),
    callbackNote:
      "Enter it as a sign-in redirect URI of an OIDC web app integration in your Okta Admin Console (https://<org>-admin.okta.com). The issuer is https://<org>.okta.com/oauth2/default (or your authorization server).",
    emailVerification: "claim",
  },
  {
    id: "slack",
    name: "Slack",
    importName: "Slack",
    type: "oidc",
    env: envKeys("slack"),
    setupUrl: "https://api.slack.com/apps",
    callbackNote: "Slack accepts only https redirect URLs, localhost included: use a tunnel in development.",
    emailVerification: "claim",
  },
  {
    id: "spotify",
    name: "Spotify",
    importName: "Spotify",
    type: "oauth",
    env: envKeys("spotify"),
    setupUrl: "https://developer.spotify.com/dashboard",
    callbackNote: "Spotify refuses localhost redirect URIs: use http://127.0.0.1:<port> in development (http is allowed for loopback addresses only).",
    emailVerification: "never",
  },
  { id: "twitch", name: "Twitch", importName: "Twitch", type: "oidc", env: envKeys("twitch"), setupUrl: "https://dev.twitch.tv/console/apps", emailVerification: "claim" },
  {
    id: "twitter",
    name: "X (Twitter)",
    importName: "Twitter",
    type: "oauth",
    env: envKeys("twitter"),
    setupUrl: "https://developer.x.com/en/portal/dashboard",
    callbackNote: "X rejects localhost callback URLs: use http://127.0.0.1:<port> in development.",
    emailVerification: "never",
  },
  {
    id: "zitadel",
    name: "ZITADEL",
    importName: "Zitadel",
    type: "oidc",
    env: envKeys("zitadel", true),
    callbackNote:
      "Enter it as a redirect URI of a Web application in your ZITADEL console (https://<instance>.zitadel.cloud/ui/console, or your own host). The issuer is the instance URL.",
    emailVerification: "claim",
  },
];

/** Ids earlier versions took, and what they are now: `credentials` was the email + password accounts' id. */
export const PROVIDER_ID_ALIASES: Readonly<Record<string, string>> = { credentials: "password" };

/** The entry for `id` (or an earlier id of it), or `undefined` for an id the catalog does not know. */
export function findProvider(id: string): ProviderCatalogEntry | undefined {
  const canonical = PROVIDER_ID_ALIASES[id] ?? id;
  return providerCatalog.find((entry) => entry.id === canonical);
}
