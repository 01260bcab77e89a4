/**
 * What someone does at an OAuth provider before its sign-in works, as next steps
 * shared by `auth-init` and `auth add-provider`: the callback URL to register
 * (and the console to register it in), the env keys still empty, and what the
 * catalog knows about callbacks at that provider (https only, no localhost...).
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";

export function isOAuthProvider(entry: ProviderCatalogEntry): boolean {
  return entry.type === "oauth" || entry.type === "oidc";
}

/** `<authBaseUrl>/callback/<id>`: the redirect URI the runtime sends, which the provider must know. */
export function callbackUrl(authBaseUrl: string, entry: ProviderCatalogEntry): string {
  return `${authBaseUrl}/callback/${entry.id}`;
}

/**
 * One step per OAuth provider of `entries` (others have nothing to register).
 * `filled` says whether the app's .env already has a value for a key: those are
 * not asked for again.
 */
export function providerSetupSteps(entries: readonly ProviderCatalogEntry[], authBaseUrl: string, filled: (key: string) => boolean): string[] {
  return entries.filter(isOAuthProvider).map((entry) => {
    const where = entry.setupUrl ? ` at ${entry.setupUrl}` : "";
    const empty = entry.env.filter((key) => !filled(key));
    const fill = empty.length > 0 ? `, then set ${list(empty)} in .env` : "";
    const notes = [entry.callbackNote, issuerHint(entry, empty)].filter(Boolean).join(" ");
    return `Register the callback URL ${callbackUrl(authBaseUrl, entry)} for ${entry.name}${where}${fill}.${notes ? ` ${notes}` : ""}`;
  });
}

/** What an issuer is, for providers whose callback note does not already say it. */
function issuerHint(entry: ProviderCatalogEntry, empty: readonly string[]): string | undefined {
  const key = empty.find((k) => k.endsWith("_ISSUER"));
  if (!key || /issuer/i.test(entry.callbackNote ?? "")) return undefined;
  return `${key} is the provider's issuer URL, the address its /.well-known/openid-configuration is under.`;
}

/** `A`, `A and B`, `A, B and C`. */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
