/**
 * Environment variables are an input: the framework glue passes its env object
 * here once, and gets a new config back. Core never reads `process.env`.
 */
import { isPasswordProvider } from "../../providers/password.js";
import type { Provider } from "../../providers/types.js";
import type { AuthConfig } from "../../types.js";
import { developmentEnv, hostTrustFromEnv, type HostTrustFromEnv } from "../symbols.js";

export type Env = Record<string, string | undefined>;

const withEnvCache = new WeakMap<AuthConfig, WeakMap<object, AuthConfig>>();

/**
 * Returns a copy of `config` with defaults from the environment: the secrets in
 * Auth.js's order (`AUTH_SECRET_3`, `AUTH_SECRET_2`, `AUTH_SECRET_1`, then
 * `AUTH_SECRET`: the first one set encrypts, all decrypt), `AUTH_URL`,
 * `AUTH_TRUST_HOST` (else the host is trusted on Vercel, on Cloudflare Pages and
 * with `NODE_ENV` development or test: see `hostTrust`), `AUTH_REDIRECT_PROXY_URL`, for each OAuth/OIDC provider
 * `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET`, `AUTH_<ID>_ISSUER` (ID: the provider id in
 * capitals, `-` as `_`: `AUTH_MICROSOFT_ENTRA_ID_ID`), and for each email provider
 * `AUTH_<ID>_SERVER`, `AUTH_<ID>_FROM`, `AUTH_<ID>_KEY` (`AUTH_EMAIL_SERVER` for
 * the default id `email`; the `Password` provider reads `AUTH_EMAIL_SERVER` and
 * `AUTH_EMAIL_FROM` whatever its id). Values in the config win. The same
 * `(env, config)` pair always returns the same object, so the resolved config
 * stays cached. Unlike Auth.js it never mutates `config`.
 *
 * @example
 * ```ts
 * const response = await Auth(request, setEnvDefaults(process.env, config));
 * ```
 */
export function setEnvDefaults(env: Env, config: AuthConfig): AuthConfig {
  let byEnv = withEnvCache.get(config);
  if (!byEnv) withEnvCache.set(config, (byEnv = new WeakMap()));
  let result = byEnv.get(env);
  if (!result) {
    result = applyEnv(env, config);
    byEnv.set(env, result);
  }
  return result;
}

function applyEnv(env: Env, config: AuthConfig): AuthConfig {
  const out: AuthConfig = { ...config };
  if (out.secret === undefined) {
    const names = SECRET_ORDER.filter((name) => Boolean(env[name]));
    const secrets = names.map((name) => env[name]!);
    if (secrets.length === 1) out.secret = secrets[0];
    else if (secrets.length > 1) {
      out.secret = secrets;
      secretNames.set(secrets, names);
    }
  }
  if (out.url === undefined && env.AUTH_URL) out.url = env.AUTH_URL;
  if (out.trustHost === undefined) {
    if (env.AUTH_TRUST_HOST !== undefined) out.trustHost = env.AUTH_TRUST_HOST === "true" || env.AUTH_TRUST_HOST === "1";
    else {
      const why = hostTrust(env);
      if (why) Object.assign(out, { trustHost: true, [hostTrustFromEnv]: why });
    }
  }
  if (env.NODE_ENV === "development") Object.assign(out, { [developmentEnv]: true });
  if (out.redirectProxyUrl === undefined && env.AUTH_REDIRECT_PROXY_URL) {
    out.redirectProxyUrl = env.AUTH_REDIRECT_PROXY_URL;
  }
  if (out.redirectProxyAllowedOrigins === undefined && env.AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS !== undefined) {
    out.redirectProxyAllowedOrigins = env.AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
  }
  const header = env.AUTH_CLIENT_ADDRESS_HEADER;
  // Only where the app turned the limit on: the variable says where addresses are, not that they are counted.
  if (header && out.rateLimit && typeof out.rateLimit === "object" && out.rateLimit.clientAddressHeader === undefined) {
    out.rateLimit = { ...out.rateLimit, clientAddressHeader: header };
  }
  if (Array.isArray(config.providers)) out.providers = config.providers.map((p) => withProviderEnv(env, p));
  return out;
}

/**
 * Auth.js's order (`setEnvDefaults` in `@auth/core`: AUTH_SECRET, then each of
 * _1, _2, _3 put in front): the highest-numbered secret set is the newest and
 * encrypts; the others still decrypt. An app rotated the Auth.js way (add
 * AUTH_SECRET_1, later AUTH_SECRET_2) must encrypt with the secret it added.
 */
const SECRET_ORDER = ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET"] as const;

/** Which variable each entry of a secret array built here came from, for configuration errors that name it. */
const secretNames = new WeakMap<readonly string[], readonly string[]>();

/** The env variable behind `secret[index]`, when `setEnvDefaults` built the array. */
export function secretEnvName(secrets: readonly unknown[], index: number): string | undefined {
  return secretNames.get(secrets as readonly string[])?.[index];
}

/**
 * Where the environment itself says the request's host can be trusted, without
 * `AUTH_TRUST_HOST`: Auth.js's list (`VERCEL`, `CF_PAGES`, and `NODE_ENV` other
 * than production), narrowed where it is not safe. A `NODE_ENV` that is unset
 * is not taken for development: many production servers run without one. And
 * the trust this gives covers the request's own URL (its Host, which these
 * platforms route on and Vite's dev server checks against `allowedHosts`), never
 * `X-Forwarded-Host`: Cloudflare passes a client's X-Forwarded-Host through
 * untouched, and a dev server checks nothing about it. Only `trustHost: true`
 * (or `AUTH_TRUST_HOST=true`), set by whoever knows their proxy, trusts that.
 */
export function hostTrust(env: Env): HostTrustFromEnv | undefined {
  if (env.VERCEL) return "VERCEL";
  if (env.CF_PAGES) return "CF_PAGES";
  if (env.NODE_ENV === "development" || env.NODE_ENV === "test") return `NODE_ENV=${env.NODE_ENV}`;
  return undefined;
}

const OAUTH_ENV_FIELDS = [
  ["clientId", "ID"],
  ["clientSecret", "SECRET"],
  ["issuer", "ISSUER"],
] as const;

const PASSWORD_ENV_FIELDS = [
  ["server", "SERVER"],
  ["from", "FROM"],
] as const;

const EMAIL_ENV_FIELDS = [
  ["server", "SERVER"],
  ["from", "FROM"],
  ["apiKey", "KEY"],
] as const;

/**
 * An OAuth/OIDC provider with its client id, secret and issuer (an email provider
 * with its server, sender and API key) taken from env where neither the provider
 * nor the user's options set them. A new object: the user's provider is not
 * changed. Other providers pass through untouched.
 */
function withProviderEnv(env: Env, provider: Provider): Provider {
  const value = typeof provider === "function" ? safeCall(provider) : provider;
  if (!value || typeof value !== "object") return provider;
  // A factory is called once, here: what it returned stands in for it from now on.
  // Password accounts send their mail as the email provider does, whatever their id: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM.
  const passwords = isPasswordProvider(value);
  const fields =
    value.type === "oauth" || value.type === "oidc" ? OAUTH_ENV_FIELDS : value.type === "email" ? EMAIL_ENV_FIELDS : passwords ? PASSWORD_ENV_FIELDS : undefined;
  if (!fields) return value as Provider;
  const options = (value.options ?? {}) as Record<string, unknown>;
  const id = passwords ? "email" : typeof options.id === "string" ? options.id : value.id;
  if (typeof id !== "string") return provider;
  const prefix = `AUTH_${id.toUpperCase().replace(/-/g, "_")}_`;
  const filled: Record<string, unknown> = {};
  for (const [field, suffix] of fields) {
    const fromEnv = env[`${prefix}${suffix}`];
    if (fromEnv && (value as Record<string, unknown>)[field] === undefined && options[field] === undefined) filled[field] = fromEnv;
  }
  return (Object.keys(filled).length === 0 ? value : { ...value, ...filled }) as Provider;
}

/** A factory that throws is left for config resolution to report. */
function safeCall(factory: (options?: unknown) => unknown): { type?: unknown; id?: unknown; options?: unknown } | undefined {
  try {
    return factory() as { type?: unknown; id?: unknown; options?: unknown };
  } catch {
    return undefined;
  }
}
