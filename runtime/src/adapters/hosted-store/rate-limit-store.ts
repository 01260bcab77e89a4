/**
 * `HostedStoreRateLimitStore`: the sign-in counts of `rateLimit` in the
 * branch's svc_rate_limits records (hosted-store migration 0004), shared by
 * every process on the store. The PostgreSQL store's statements, on the
 * branch's table, schema-qualified as the adapter's queries are.
 */
import type { RateLimitStore } from "../../core/rate-limit/types.js";
import { postgresRateLimitStore } from "../postgres/rate-limit-store.js";
import { requireHostedStoreClient, schemaOf, type HostedStoreClient } from "./client.js";

export interface HostedStoreRateLimitStoreOptions {
  /** The clock, in milliseconds since the epoch. Default `Date.now()`; tests pass their own. */
  now?: () => number;
}

/**
 * A `RateLimitStore` on the hosted store: connects on first use, through
 * `client.connection()`, on the branch `client.getConfig()` names. Needs the
 * svc_rate_limits table: `migrate()` creates it.
 *
 * @example
 * ```ts
 * const store = new HostedStoreClient({ env: process.env, connect: (url) => fromPg(new pg.Pool({ connectionString: url })) });
 * const config = { adapter: HostedStoreAdapter(store), rateLimit: { store: HostedStoreRateLimitStore(store) }, providers };
 * ```
 */
export function HostedStoreRateLimitStore(client: HostedStoreClient, options: HostedStoreRateLimitStoreOptions = {}): RateLimitStore {
  requireHostedStoreClient(client, "HostedStoreRateLimitStore");
  return postgresRateLimitStore(async () => {
    const [{ branch }, db] = await Promise.all([client.getConfig(), client.connection()]);
    return { client: db, table: `${schemaOf(branch)}.svc_rate_limits` };
  }, options.now);
}
