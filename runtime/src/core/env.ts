/**
 * Environment variables are an input: the framework glue passes its env object
 * here once, and gets a new config back. Core never reads `process.env`.
 */
import type { AuthConfig } from "../types.js";

export type Env = Record<string, string | undefined>;

const withEnvCache = new WeakMap<AuthConfig, WeakMap<object, AuthConfig>>();

/**
 * Returns a copy of `config` with defaults from the environment: `AUTH_SECRET`
 * (then `AUTH_SECRET_1`..`AUTH_SECRET_3` as older rotation secrets), `AUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_REDIRECT_PROXY_URL`. Values in the config win. The same
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
    const secrets = [env.AUTH_SECRET, env.AUTH_SECRET_1, env.AUTH_SECRET_2, env.AUTH_SECRET_3].filter(
      (s): s is string => typeof s === "string" && s.length > 0,
    );
    if (secrets.length === 1) out.secret = secrets[0];
    else if (secrets.length > 1) out.secret = secrets;
  }
  if (out.url === undefined && env.AUTH_URL) out.url = env.AUTH_URL;
  if (out.trustHost === undefined && env.AUTH_TRUST_HOST !== undefined) {
    out.trustHost = env.AUTH_TRUST_HOST === "true" || env.AUTH_TRUST_HOST === "1";
  }
  if (out.redirectProxyUrl === undefined && env.AUTH_REDIRECT_PROXY_URL) {
    out.redirectProxyUrl = env.AUTH_REDIRECT_PROXY_URL;
  }
  return out;
}
