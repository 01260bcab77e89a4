/**
 * `@gatehouse/runtime`: the auth handler, its types, errors and symbols.
 * Providers are in `@gatehouse/runtime/providers`, JWT helpers in `@gatehouse/runtime/jwt`.
 */
export { Auth } from "./core/auth.js";
export { setEnvDefaults } from "./core/config/env.js";
export type { Env } from "./core/config/env.js";
export { createActionURL } from "./core/http/action-url.js";
export type { ActionURLConfig } from "./core/http/action-url.js";
export { isAuthAction } from "./core/http/router.js";
export { skipCSRFCheck, raw, customFetch } from "./core/symbols.js";
export { refreshAccessToken } from "./core/oauth/refresh.js";
export type { RefreshableAccount, RefreshOptions } from "./core/oauth/refresh.js";
export { MemoryRateLimitStore } from "./core/rate-limit/memory-store.js";
export * from "./core/errors/errors.js";
export type * from "./types.js";
