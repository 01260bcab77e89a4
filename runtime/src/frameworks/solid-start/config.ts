/**
 * The config SolidStart runs the handler with, derived once per user config: env
 * defaults from `process.env`, and `prefix` (default `/api/auth`) as the base path.
 */
import { setEnvDefaults, type Env } from "../../core/config/env.js";
import type { AuthConfig } from "../../types.js";

export interface SolidAuthConfig extends Omit<AuthConfig, "raw"> {
  /** Where the catch-all route `[...solidauth].ts` lives; default `/api/auth`. */
  prefix?: string;
}

const DEFAULT_PREFIX = "/api/auth";

const derived = new WeakMap<object, WeakMap<Env, AuthConfig>>();

/** The same user config and env always give the same object, so the handler resolves it once. */
export function solidStartConfig(config: SolidAuthConfig, env: Env): AuthConfig {
  let byEnv = derived.get(config);
  if (!byEnv) derived.set(config, (byEnv = new WeakMap()));
  let result = byEnv.get(env);
  if (!result) {
    result = derive(config, env);
    byEnv.set(env, result);
  }
  return result;
}

function derive({ prefix, ...config }: SolidAuthConfig, env: Env): AuthConfig {
  const withEnv = setEnvDefaults(env, config as AuthConfig);
  return {
    ...withEnv,
    basePath: prefix ?? config.basePath ?? DEFAULT_PREFIX,
    // AUTH_URL or AUTH_TRUST_HOST decides; without them setEnvDefaults trusts the request URL in development (and on Vercel, Cloudflare Pages).
  };
}
