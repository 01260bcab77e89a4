/**
 * What someone does before a provider's sign-in works, as next steps shared by
 * `auth-init` and `auth add-provider`. OAuth: the callback URL to register (and
 * the console to register it in), the env keys still empty, and what the catalog
 * knows about callbacks at that provider (https only, no localhost...). Email
 * links: the SMTP server and the sender. Passkeys: where browsers allow them.
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { list } from "./passwordless.js";

export function isOAuthProvider(entry: ProviderCatalogEntry): boolean {
  return entry.type === "oauth" || entry.type === "oidc";
}

/** `<authBaseUrl>/callback/<id>`: the redirect URI the runtime sends, which the provider must know. */
export function callbackUrl(authBaseUrl: string, entry: ProviderCatalogEntry): string {
  return `${authBaseUrl}/callback/${entry.id}`;
}

/**
 * One step per provider of `entries` that needs one (credentials need none).
 * `filled` says whether the app's .env already has a value for a key: those are
 * not asked for again.
 */
export function providerSetupSteps(entries: readonly ProviderCatalogEntry[], authBaseUrl: string, filled: (key: string) => boolean): string[] {
  return entries.flatMap((entry) => {
    const empty = entry.env.filter((key) => !filled(key));
    if (isOAuthProvider(entry)) return [oauthStep(entry, authBaseUrl, empty)];
    if (entry.type === "email") return empty.length > 0 ? [emailStep(empty)] : [];
    if (entry.type === "webauthn") return [PASSKEY_STEP];
    return [];
  });
}

/**
 * Comment lines written above a provider's env key when it is added to .env and
 * .env.example: what goes there, for keys whose format is not obvious (OAuth ids
 * and secrets are copied from the provider's console as they are).
 */
export function envKeyComment(key: string): string | undefined {
  if (key.endsWith("_EMAIL_SERVER")) return "Mail: the SMTP server the app's links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587";
  if (key.endsWith("_EMAIL_FROM")) return 'Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"';
  return undefined;
}

function oauthStep(entry: ProviderCatalogEntry, authBaseUrl: string, empty: readonly string[]): string {
  const where = entry.setupUrl ? ` at ${entry.setupUrl}` : "";
  const fill = empty.length > 0 ? `, then set ${list(empty)} in .env` : "";
  const notes = [entry.callbackNote, issuerHint(entry, empty)].filter(Boolean).join(" ");
  return `Register the callback URL ${callbackUrl(authBaseUrl, entry)} for ${entry.name}${where}${fill}.${notes ? ` ${notes}` : ""}`;
}

/** The runtime hands the SMTP URL to nodemailer as it is, so any nodemailer URL works (smtps://, ?tls.rejectUnauthorized=false...). */
function emailStep(empty: readonly string[]): string {
  const what = empty.map((key) => {
    if (key.endsWith("_SERVER")) return `${key} to your SMTP server's URL (smtp://user:password@smtp.example.com:587; smtps:// for port 465)`;
    if (key.endsWith("_FROM")) return `${key} to the sender ("Sign in <no-reply@example.com>")`;
    return key;
  });
  return `Set ${list(what)} in .env: the sign-in links are mailed that way.`;
}

const PASSKEY_STEP =
  "Passkeys (WebAuthn) are experimental in the runtime: `experimental: { enableWebAuthn: true }` in the config turns them on. Browsers make and use them only on https or on http://localhost — not on an IP address such as http://127.0.0.1 — so open the app at localhost in development; a passkey works only on the domain it was made on.";

/** What an issuer is, for providers whose callback note does not already say it. */
function issuerHint(entry: ProviderCatalogEntry, empty: readonly string[]): string | undefined {
  const key = empty.find((k) => k.endsWith("_ISSUER"));
  if (!key || /issuer/i.test(entry.callbackNote ?? "")) return undefined;
  return `${key} is the provider's issuer URL, the address its /.well-known/openid-configuration is under.`;
}
