/** Pass as `skipCSRFCheck` to turn off the CSRF check. Only for frameworks with their own protection. */
export const skipCSRFCheck = Symbol("skip-csrf-check");
/** Pass as `raw` to get the internal response value instead of a `Response` (framework glue). */
export const raw = Symbol("return-type-raw");

/**
 * Set by our own framework glue only (not exported from the package root): what
 * the framework already guarantees, so core does not repeat or warn about it.
 */
export const frameworkGlue = Symbol("gatehouse.framework-glue");

export interface FrameworkGlueOptions {
  /** The framework rejects cross-site form posts itself; the token check is off, `csrf` answers 404, no warning. */
  checksOrigin?: boolean;
  /**
   * The request URL already is the public URL as the framework resolved it (its
   * own origin setting or proxy headers), so core ignores `X-Forwarded-*`.
   */
  requestUrlIsPublic?: boolean;
}

/**
 * Set by `setEnvDefaults` beside the `trustHost: true` it inferred from the
 * platform or `NODE_ENV` (not from `AUTH_TRUST_HOST`): the request URL is then
 * the public one, and `X-Forwarded-Host` is not read. The value names the reason.
 */
export const hostTrustFromEnv = Symbol("gatehouse.host-trust-from-env");
export type HostTrustFromEnv = "VERCEL" | "CF_PAGES" | "NODE_ENV=development" | "NODE_ENV=test";

/**
 * Set by `setEnvDefaults` when `NODE_ENV` is `development` (the framework's dev
 * server): error pages may then say what to set up, which production never shows.
 */
export const developmentEnv = Symbol("gatehouse.development-env");

/**
 * Set on a provider (`{ ...GitHub(), [customFetch]: myFetch }`) to send every
 * request to that provider through `myFetch`: a proxy, instrumentation, tests.
 */
export const customFetch = Symbol("gatehouse.custom-fetch");
