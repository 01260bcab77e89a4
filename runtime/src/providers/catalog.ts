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
  /** Where to register the app and its callback URL, for OAuth providers. */
  readonly setupUrl?: string;
}

export const providerCatalog: readonly ProviderCatalogEntry[] = [
  { id: "credentials", name: "Email and password", importName: "Credentials", type: "credentials", env: [] },
];

/** The entry for `id`, or `undefined` for an id the catalog does not know. */
export function findProvider(id: string): ProviderCatalogEntry | undefined {
  return providerCatalog.find((entry) => entry.id === id);
}
