/**
 * The config SvelteKit runs the handler with, derived once per user config: env
 * defaults from `$env/dynamic/private`, the base path under the app's
 * `paths.base`, the CSRF token check handed to SvelteKit's origin check, and the
 * request URL (SvelteKit's `event.url`) taken as the public URL.
 */
import { setEnvDefaults, type Env } from "../../core/config/env.js";
import { frameworkGlue, skipCSRFCheck, type FrameworkGlueOptions } from "../../core/symbols.js";
import type { AuthConfig } from "../../types.js";

export interface SvelteKitAuthConfig extends Omit<AuthConfig, "raw"> {}

export interface SvelteKitEnvironment {
  /** `$env/dynamic/private`. */
  env: Env;
  /** `paths.base` of the app, `""` or `/something`. */
  base: string;
  /** SvelteKit's dev server is running. */
  dev: boolean;
}

const GLUE: FrameworkGlueOptions = { checksOrigin: true, requestUrlIsPublic: true };

const derived = new WeakMap<object, WeakMap<Env, Map<string, AuthConfig>>>();
const envWithOrigin = new WeakMap<Env, Env>();

/** The same user config and environment always give the same object, so the handler resolves it once. */
export function svelteKitConfig(config: SvelteKitAuthConfig, environment: SvelteKitEnvironment): AuthConfig {
  let byEnv = derived.get(config);
  if (!byEnv) derived.set(config, (byEnv = new WeakMap()));
  let byPaths = byEnv.get(environment.env);
  if (!byPaths) byEnv.set(environment.env, (byPaths = new Map()));
  const key = `${environment.dev}:${environment.base}`;
  let result = byPaths.get(key);
  if (!result) {
    result = derive(config, environment);
    byPaths.set(key, result);
  }
  return result;
}

function derive(config: SvelteKitAuthConfig, { env, base, dev }: SvelteKitEnvironment): AuthConfig {
  const withEnv = setEnvDefaults(authEnv(env), config as AuthConfig);
  const basePath = withEnv.basePath ?? "/auth";
  return {
    ...withEnv,
    // The app's `paths.base` is part of every URL SvelteKit serves, the auth routes included.
    basePath: base && !basePath.startsWith(`${base}/`) ? `${base}${basePath}` : basePath,
    // In dev the URL is whatever Vite serves on; in production it comes from ORIGIN, AUTH_URL or AUTH_TRUST_HOST.
    trustHost: withEnv.trustHost ?? dev,
    skipCSRFCheck,
    [frameworkGlue]: GLUE,
  } as AuthConfig;
}

/**
 * adapter-node's `ORIGIN` is the app's public origin, set by the operator: it
 * stands in for `AUTH_URL` when that is unset.
 */
function authEnv(env: Env): Env {
  if (env.AUTH_URL || !env.ORIGIN) return env;
  let withOrigin = envWithOrigin.get(env);
  if (!withOrigin) envWithOrigin.set(env, (withOrigin = { ...env, AUTH_URL: env.ORIGIN }));
  return withOrigin;
}
