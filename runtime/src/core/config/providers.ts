/**
 * Turns the `providers` entries (objects or factories, with the user's overrides
 * under `options`) into validated provider records, without touching the user's
 * objects.
 */
import {
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidProvider,
  MissingAdapter,
  MissingAuthorize,
  MissingWebAuthnAutocomplete,
  UnsupportedProvider,
} from "../errors/errors.js";
import { DEFAULT_FORM_FIELDS } from "../../providers/passkey.js";
import type { CredentialsConfig, OAuthConfig, ProviderConfig, ProviderType } from "../../providers/types.js";
import type { AuthConfig } from "../../types.js";
import { resolveEmailRuntime, type EmailRuntime, type ResolvedEmailProvider } from "../email/provider.js";
import { resolveOAuthRuntime, type OAuthRuntime } from "../oauth/provider.js";
import { resolvePasswordRuntime, type PasswordRuntime, type ResolvedPasswordProvider } from "../password-accounts/provider.js";
import type { WebAuthnProvider } from "../webauthn/settings.js";
import { isPasswordProvider } from "../../providers/password.js";

/** What resolving adds to a provider, by the field it lands in. */
interface ProviderRuntimes {
  /** OAuth and OIDC providers: endpoints, checks and client, validated. */
  oauth: OAuthRuntime;
  /** Email providers: defaults filled in, what sending still lacks. */
  email: EmailRuntime;
  /** `Password` providers: limits, link lifetimes, how mail goes out. */
  password: PasswordRuntime;
}

/**
 * The runtime `K` of one kind of provider, and the others marked absent: so
 * `if (provider.oauth)` narrows a `ResolvedProvider` as `provider.type` does.
 */
export type WithRuntime<K extends keyof ProviderRuntimes = never> = { [R in K]: ProviderRuntimes[R] } & {
  [R in Exclude<keyof ProviderRuntimes, K>]?: undefined;
};

/** An OAuth or OIDC provider: its `oauth` runtime is always there once resolved. */
export type ResolvedOAuthProvider = OAuthConfig<any> & WithRuntime<"oauth">;
/** A credentials provider whose `authorize` the app wrote (not a `Password` one). */
export type ResolvedCredentialsProvider = CredentialsConfig & WithRuntime;

/**
 * A provider of the config, validated, with its runtime. Narrows on `type`
 * (`"credentials"` is a plain or a `Password` provider; `password` tells them
 * apart) and on the presence of `oauth`, `email` or `password`.
 */
export type ResolvedProvider =
  | ResolvedOAuthProvider
  | ResolvedCredentialsProvider
  | ResolvedPasswordProvider
  | ResolvedEmailProvider
  | WebAuthnProvider;

const PROVIDER_TYPES = new Set<ProviderType>(["oauth", "oidc", "email", "credentials", "webauthn"]);
/** Provider ids become URL path segments: keep them to a safe alphabet. */
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The error for a provider that no branch of an action handled. Callable only
 * with a provider narrowed to `never`, so a provider type added without its
 * branch fails to compile; should one arrive all the same, it is named.
 */
export function unsupportedProvider(provider: never): UnsupportedProvider;
export function unsupportedProvider(provider: { type: string; id: string }): UnsupportedProvider {
  return new UnsupportedProvider(
    `Sign-in with ${provider.type} providers ("${provider.id}") is not available in this version of @gatehouse/runtime.`,
  );
}

export function resolveProviders(config: AuthConfig): ResolvedProvider[] {
  const entries = config.providers ?? [];
  if (!Array.isArray(entries)) throw new InvalidProvider("`providers` must be an array of providers.");
  const seen = new Set<string>();
  const resolved = entries.map((entry, index) => {
    const provider = normalize(entry, index);
    if (seen.has(provider.id)) {
      throw new InvalidProvider(
        `Two providers have the id "${provider.id}". Give one of them another \`id\` (ids appear in URLs such as /signin/${provider.id}).`,
      );
    }
    seen.add(provider.id);
    return withRuntime(provider, config);
  });
  checkConditionalUI(resolved);
  const passwords = resolved.filter((p) => p.password !== undefined);
  if (passwords.length > 1) {
    throw new InvalidProvider(`Two Password providers (${passwords.map((p) => `"${p.id}"`).join(", ")}): one serves /signup, /forgot-password and /reset-password; keep one.`);
  }
  return resolved;
}

/**
 * Passkey autofill (conditional UI) can serve one provider per page, and only
 * through an input whose `autocomplete` names `webauthn`.
 */
function checkConditionalUI(providers: ResolvedProvider[]): void {
  const autofill = providers.filter((p) => p.type === "webauthn").filter((p) => p.enableConditionalUI !== false);
  if (autofill.length > 1) {
    throw new DuplicateConditionalUI(
      `Passkey autofill is on for ${autofill.map((p) => `"${p.id}"`).join(" and ")}; a page can offer it for one provider only. Set \`enableConditionalUI: false\` on the others.`,
    );
  }
  const [provider] = autofill;
  if (!provider) return;
  const fields = Object.values(provider.formFields ?? DEFAULT_FORM_FIELDS);
  if (!fields.some((field) => typeof field?.autocomplete === "string" && field.autocomplete.split(/\s+/).includes("webauthn"))) {
    throw new MissingWebAuthnAutocomplete(
      `Passkey autofill is on for "${provider.id}", but none of its formFields has "webauthn" in its autocomplete (e.g. \`autocomplete: "username webauthn"\`). Add it, or set \`enableConditionalUI: false\`.`,
    );
  }
}

/** The entry as a provider of a known type, with an id and a name; the rest is checked by type in `withRuntime`. */
function normalize(entry: unknown, index: number): ProviderConfig {
  const value = typeof entry === "function" ? (entry as () => unknown)() : entry;
  if (!value || typeof value !== "object") {
    throw new InvalidProvider(`providers[${index}] is neither a provider object nor a provider factory.`);
  }
  // The app's data, as yet unchecked: only `options` is read from it here, and what it merges into is checked below.
  const { options, ...defaults } = value as ProviderConfig;
  // Merging yields a plain record; its `type`, `id` and `name` are checked just below.
  const merged = mergeOptions(defaults, options ?? {}) as unknown as ProviderConfig;
  if (!PROVIDER_TYPES.has(merged.type)) {
    throw new InvalidProvider(
      `providers[${index}] has type ${JSON.stringify(merged.type)}; use one of ${[...PROVIDER_TYPES].join(", ")}.`,
    );
  }
  if (typeof merged.id !== "string" || !PROVIDER_ID.test(merged.id)) {
    throw new InvalidProvider(
      `providers[${index}] has id ${JSON.stringify(merged.id)}; an id is 1-64 letters, digits, "-" or "_".`,
    );
  }
  if (typeof merged.name !== "string" || merged.name.length === 0) merged.name = merged.id;
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * The user's `options` over the provider's defaults: plain objects (`authorization`,
 * `token`, `client`, `style`...) are merged key by key, so `{ authorization: {
 * params: { scope } } }` keeps the default URL; anything else is replaced. Symbol
 * keys (`customFetch`) are kept too. Neither input is changed.
 */
function mergeOptions(defaults: Record<string | symbol, unknown>, options: Record<string | symbol, unknown>): Record<string | symbol, unknown> {
  const out: Record<string | symbol, unknown> = { ...defaults };
  for (const key of Reflect.ownKeys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    const base = out[key];
    out[key] = isPlainObject(base) && isPlainObject(value) ? mergeOptions(base, value) : value;
  }
  return out;
}

/**
 * Checks what a provider of its type needs and adds its runtime (`oauth`,
 * `email` or `password`), in place: `oauth.config` is this same object.
 */
function withRuntime(provider: ProviderConfig, config: AuthConfig): ResolvedProvider {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return Object.assign(provider, { oauth: resolveOAuthRuntime(provider, config.redirectProxyUrl) });
    case "credentials":
      if (typeof provider.authorize !== "function") {
        throw new MissingAuthorize(`The credentials provider "${provider.id}" needs an \`authorize\` function.`);
      }
      if (!isPasswordProvider(provider)) return provider;
      if (!config.adapter) {
        throw new MissingAdapter(`The Password provider "${provider.id}" stores users, password hashes and links, and needs an \`adapter\`.`);
      }
      return Object.assign(provider, { password: resolvePasswordRuntime(provider, config) });
    case "email":
      if (!config.adapter) {
        throw new MissingAdapter(`The email provider "${provider.id}" stores verification tokens and users, and needs an \`adapter\`.`);
      }
      return Object.assign(provider, { email: resolveEmailRuntime(provider) });
    case "webauthn":
      if (!config.experimental?.enableWebAuthn) {
        throw new ExperimentalFeatureNotEnabled(
          `The WebAuthn provider "${provider.id}" is experimental: set \`experimental: { enableWebAuthn: true }\` to use it.`,
        );
      }
      if (!config.adapter) {
        throw new MissingAdapter(`The WebAuthn provider "${provider.id}" stores authenticators and needs an \`adapter\`.`);
      }
      return provider;
  }
}
