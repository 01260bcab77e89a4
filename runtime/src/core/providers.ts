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
} from "./errors.js";
import { DEFAULT_FORM_FIELDS, type WebAuthnConfig } from "../providers/passkey.js";
import type { CredentialsConfig, EmailConfig, OAuthConfig, ProviderConfig, ProviderType } from "../providers/types.js";
import type { AuthConfig } from "../types.js";
import { resolveEmailRuntime, type EmailRuntime } from "./email/provider.js";
import { resolveOAuthRuntime, type OAuthRuntime } from "./oauth/provider.js";
import { resolvePasswordRuntime, type PasswordRuntime } from "./password-accounts/provider.js";
import { isPasswordProvider } from "../providers/password.js";

export type ResolvedProvider = ProviderConfig & {
  id: string;
  name: string;
  type: ProviderType;
  /** OAuth and OIDC providers: endpoints, checks and client, validated. */
  oauth?: OAuthRuntime;
  /** Email providers: defaults filled in, what sending still lacks. */
  email?: EmailRuntime;
  /** `Password` providers: limits, link lifetimes, how mail goes out. */
  password?: PasswordRuntime;
};

const PROVIDER_TYPES = new Set<ProviderType>(["oauth", "oidc", "email", "credentials", "webauthn"]);
/** Provider ids become URL path segments: keep them to a safe alphabet. */
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

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
    checkRequirements(provider, config);
    return provider;
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
  const autofill = providers.filter((p) => p.type === "webauthn" && (p as WebAuthnConfig).enableConditionalUI !== false);
  if (autofill.length > 1) {
    throw new DuplicateConditionalUI(
      `Passkey autofill is on for ${autofill.map((p) => `"${p.id}"`).join(" and ")}; a page can offer it for one provider only. Set \`enableConditionalUI: false\` on the others.`,
    );
  }
  const [provider] = autofill;
  if (!provider) return;
  const fields = Object.values((provider as WebAuthnConfig).formFields ?? DEFAULT_FORM_FIELDS);
  if (!fields.some((field) => typeof field?.autocomplete === "string" && field.autocomplete.split(/\s+/).includes("webauthn"))) {
    throw new MissingWebAuthnAutocomplete(
      `Passkey autofill is on for "${provider.id}", but none of its formFields has "webauthn" in its autocomplete (e.g. \`autocomplete: "username webauthn"\`). Add it, or set \`enableConditionalUI: false\`.`,
    );
  }
}

function normalize(entry: unknown, index: number): ResolvedProvider {
  const value = typeof entry === "function" ? (entry as () => unknown)() : entry;
  if (!value || typeof value !== "object") {
    throw new InvalidProvider(`providers[${index}] is neither a provider object nor a provider factory.`);
  }
  const { options, ...defaults } = value as ProviderConfig;
  const merged = mergeOptions(defaults, options ?? {}) as unknown as ResolvedProvider;
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

function checkRequirements(provider: ResolvedProvider, config: AuthConfig): void {
  if (provider.type === "oauth" || provider.type === "oidc") {
    provider.oauth = resolveOAuthRuntime(provider as OAuthConfig<any>, config.redirectProxyUrl);
  }
  if (provider.type === "credentials") {
    if (typeof (provider as CredentialsConfig).authorize !== "function") {
      throw new MissingAuthorize(`The credentials provider "${provider.id}" needs an \`authorize\` function.`);
    }
    if (isPasswordProvider(provider)) {
      if (!config.adapter) {
        throw new MissingAdapter(`The Password provider "${provider.id}" stores users, password hashes and links, and needs an \`adapter\`.`);
      }
      (provider as ResolvedProvider).password = resolvePasswordRuntime(provider, config);
    }
  }
  if (provider.type === "email") {
    if (!config.adapter) {
      throw new MissingAdapter(`The email provider "${provider.id}" stores verification tokens and users, and needs an \`adapter\`.`);
    }
    provider.email = resolveEmailRuntime(provider as EmailConfig);
  }
  if (provider.type === "webauthn") {
    if (!config.experimental?.enableWebAuthn) {
      throw new ExperimentalFeatureNotEnabled(
        `The WebAuthn provider "${provider.id}" is experimental: set \`experimental: { enableWebAuthn: true }\` to use it.`,
      );
    }
    if (!config.adapter) {
      throw new MissingAdapter(`The WebAuthn provider "${provider.id}" stores authenticators and needs an \`adapter\`.`);
    }
  }
}
