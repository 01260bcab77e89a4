/**
 * The providers that keep state in the app's database: email links (one-time
 * sign-in tokens), passkeys (their public keys) and email + password accounts
 * (users, password hashes, confirmation and reset links), so the runtime
 * refuses a config that lists them without an adapter — the whole config,
 * every sign-in and session check. `auth-init` and `auth add-provider` say so
 * before writing such a config. Also the packages they need in the app
 * (nodemailer, @simplewebauthn/server).
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { DRIVER_VERSIONS } from "./init/versions.js";

export function needsAdapter(entry: ProviderCatalogEntry): boolean {
  return entry.type === "email" || entry.type === "webauthn" || entry.type === "credentials";
}

/** What each provider that needs a database keeps there. */
const KEEPS: Record<string, string> = {
  email: "its one-time sign-in tokens",
  webauthn: "the passkeys",
  credentials: "the accounts and their password hashes",
};

/** Passkeys run only with the runtime's `experimental: { enableWebAuthn: true }`. */
export function isPasskey(entry: ProviderCatalogEntry): boolean {
  return entry.type === "webauthn";
}

/** Email links: each request sends a mail, so the config limits them (`rateLimit`). */
export function isEmail(entry: ProviderCatalogEntry): boolean {
  return entry.type === "email";
}

/**
 * Which of `entries` need a database and why, or `undefined` when none does:
 * "email and passkey need a database (Email link keeps its one-time sign-in
 * tokens there, Passkey the passkeys)".
 */
export function adapterRequirement(entries: readonly ProviderCatalogEntry[]): string | undefined {
  const needing = entries.filter(needsAdapter);
  if (needing.length === 0) return undefined;
  const reasons = needing.map((entry, i) => `${entry.name} ${i === 0 ? "keeps " : ""}${KEEPS[entry.type]}${i === 0 ? " there" : ""}`);
  return `${list(needing.map((entry) => entry.id))} need${needing.length === 1 ? "s" : ""} a database (${reasons.join(", ")})`;
}

/**
 * Packages a provider needs in the app, which the runtime imports only when
 * that provider is used (optional peers, so apps without it stay small).
 */
const PROVIDER_PACKAGES = [
  { types: ["email"], name: "nodemailer", why: "email sends its sign-in links with it" },
  { types: ["credentials"], name: "nodemailer", why: "password sends its confirmation and reset links with it" },
  { types: ["webauthn"], name: "@simplewebauthn/server", why: "passkeys are verified with it" },
] as const;

export function providerPackages(providers: readonly ProviderCatalogEntry[]): Record<string, string> {
  return Object.fromEntries(packagesOf(providers).map(({ name }) => [name, DRIVER_VERSIONS[name]]));
}

/** Why each of `names` is needed: "email sends its sign-in links with it; passkeys are verified with it". */
export function providerPackageReasons(providers: readonly ProviderCatalogEntry[], names: readonly string[]): string {
  return packagesOf(providers)
    .filter(({ name }) => names.includes(name))
    .map(({ why }) => why)
    .join("; ");
}

function packagesOf(providers: readonly ProviderCatalogEntry[]) {
  return PROVIDER_PACKAGES.filter(({ types }) => providers.some((p) => (types as readonly string[]).includes(p.type)));
}

/** `A`, `A and B`, `A, B and C`. */
export function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
