/**
 * The one error class of the hosted-store adapter and its client, with a code
 * to `switch` on. The database's own errors (unique violations, lost
 * connections) pass through unwrapped, as in the PostgreSQL adapter.
 */

/**
 * - `missing_database_url`: no `databaseURL` option, no `HOSTED_STORE_DATABASE_URL`
 *   in the given env, and no ready `client`.
 * - `invalid_branch`: the branch cannot name a PostgreSQL schema (see `HostedStoreClient`).
 * - `no_connection`: neither `connect` nor `client` was given, so there is no way to reach the store.
 * - `not_found`: a method that must change an existing record found none.
 */
export type HostedStoreErrorCode = "missing_database_url" | "invalid_branch" | "no_connection" | "not_found";

export class HostedStoreError extends Error {
  override name = "HostedStoreError";
  readonly code: HostedStoreErrorCode;

  constructor(code: HostedStoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
