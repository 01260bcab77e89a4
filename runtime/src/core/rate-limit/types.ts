/**
 * Public types of the optional sign-in rate limit (`rateLimit` in the config).
 * Neither the spec nor Auth.js has one; absent, nothing here runs.
 */
import type { Awaitable } from "../../model.js";

/** One counted attempt, as the store saw it. */
export interface RateLimitHit {
  /** Attempts counted under the key in the current window, this one included. */
  count: number;
  /** When the current window ends, in milliseconds since the epoch. */
  resetAt: number;
}

/**
 * Where the counts live. Fixed windows: the first hit on a key (or the first
 * after its window ended) starts a window of `windowSeconds` with count 1;
 * later hits in that window add one. Counts must be exact under concurrent
 * hits (one atomic operation per hit), or a burst of parallel guesses slips
 * through. Keys are `ip:<address>` and `id:<provider>:<hash>` (the mails of
 * password accounts: `ip:<provider>-mail:<address>`, `id:<provider>-mail:<hash>`).
 *
 * Shipped: `MemoryRateLimitStore` (`@gatehouse/runtime`, one process),
 * `PostgresRateLimitStore` (`@gatehouse/runtime/adapters/postgres`) and
 * `SqliteRateLimitStore` (`@gatehouse/runtime/adapters/sqlite`).
 */
export interface RateLimitStore {
  /** Counts one attempt under `key`; resolves to the count of its window and when that window ends. */
  hit(key: string, windowSeconds: number): Promise<RateLimitHit>;
  /** Forgets the count of `key` (a successful credentials sign-in clears its identifier's failures). */
  reset(key: string): Promise<void>;
}

/**
 * `rateLimit` in the config: limits sign-in attempts per client address and per
 * identifier (the email or username tried). Off when absent.
 *
 * @example
 * ```ts
 * const config = {
 *   providers: [Credentials({ authorize })],
 *   rateLimit: { window: 15 * 60, ip: 30, identifier: 5 }, // the defaults: `rateLimit: {}` is the same
 * };
 * ```
 */
export interface RateLimitOptions {
  /** Length of a window, in seconds (a positive integer). Default 900 (15 minutes). */
  window?: number;
  /** Attempts per window from one client address; `false` turns this limit off. Default 30. */
  ip?: number | false;
  /** Attempts per window at one identifier (per provider); `false` turns this limit off. Default 5. */
  identifier?: number | false;
  /**
   * Credentials form fields that name who is signing in. Every one present is
   * counted (so sending a second, made-up field does not dodge the limit): an
   * email address in its canonical form (every spelling of one mailbox is one
   * count), anything else after NFKC normalization, lowercasing and removal of
   * whitespace and invisible characters. Default `["email", "username"]`. Email
   * sign-in counts the provider's normalized address.
   */
  identifierFields?: string[];
  /** Where the counts live. Default: a `MemoryRateLimitStore` of this config (one process). */
  store?: RateLimitStore;
  /**
   * The client's address. Default: what the framework glue knows (SvelteKit's
   * `getClientAddress()`, SolidStart's `clientAddress`); with plain `Auth` there
   * is none, and only the per-identifier limit applies. `X-Forwarded-For` is
   * never read by default: anyone can send it. Behind a proxy you trust, read
   * the header it sets here.
   */
  clientAddress?: (request: Request) => Awaitable<string | null | undefined>;
  /**
   * Behind a proxy you trust: the request header it puts the visitor's address
   * in, e.g. `"x-forwarded-for"` (its last entry is read: the address the
   * proxy itself saw), `"x-real-ip"`, `"fly-client-ip"`, `"cf-connecting-ip"`.
   * Env: `AUTH_CLIENT_ADDRESS_HEADER`. Only set it when every request passes
   * through that proxy: anyone else can send the header. Ignored when
   * `clientAddress` is set.
   */
  clientAddressHeader?: string;
}
