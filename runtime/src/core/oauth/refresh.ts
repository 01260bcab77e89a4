/**
 * `refreshAccessToken`: an opt-in helper (Auth.js leaves this to every app) that
 * turns an account whose access token has expired into one with a fresh token,
 * using its refresh token at the provider's token endpoint, and persists the new
 * tokens through the adapter. Concurrent calls for the same refresh token share
 * one request, and a result is kept briefly so a request that still carries the
 * old (rotated) refresh token gets the new tokens instead of a failure. Across
 * servers, the adapter's compare-and-set `updateAccount` lets only one win.
 */
import * as o from "oauth4webapi";
import type { AdapterAccount } from "../../adapters/types.js";
import type { Account, AuthConfig } from "../../types.js";
import { callAdapter } from "../adapter.js";
import { tokenUpdate } from "../identity/account-linking.js";
import { resolveConfig, type ResolvedConfig } from "../config/config.js";
import { AuthError, InvalidProvider, TokenRefreshError } from "../errors/errors.js";
import { LruCache } from "../lru.js";
import { describeOAuthError } from "./describe-error.js";
import type { OAuthRuntime } from "./provider.js";
import { clientOf, requestOptions, serverMetadata } from "./server.js";

/** The account fields the helper needs: which provider account, and its tokens. */
export type RefreshableAccount = Pick<Account, "provider"> &
  Partial<Pick<Account, "providerAccountId" | "access_token" | "refresh_token" | "expires_at" | "id_token" | "scope" | "token_type">>;

export interface RefreshOptions {
  /** Refresh this many seconds before `expires_at` (default 60), so a token does not expire mid-request. */
  leewaySeconds?: number;
  /** Refresh even if `expires_at` has not passed. */
  force?: boolean;
  /** Store the new tokens through the adapter (default: when the config has an adapter with `updateAccount`). */
  persist?: boolean;
}

/** How long a refresh result answers callers that still hold the old refresh token. */
const RESULT_TTL_MS = 60_000;

interface Flight {
  promise: Promise<RefreshableAccount>;
  settledAt?: number;
}

const flightsByConfig = new WeakMap<ResolvedConfig, LruCache<string, Flight>>();

/**
 * Returns `account` unchanged while its access token is valid; otherwise refreshes
 * it and returns the account with the new tokens (`expires_at` in seconds; the
 * refresh token kept when the provider does not rotate it).
 *
 * @example Database sessions: fresh tokens for an API call
 * ```ts
 * const account = await adapter.getAccount(providerAccountId, "google");
 * const fresh = await refreshAccessToken(setEnvDefaults(process.env, authConfig), account);
 * await fetch(api, { headers: { authorization: `Bearer ${fresh.access_token}` } });
 * ```
 *
 * @example JWT sessions: keep the tokens in the token
 * ```ts
 * callbacks: {
 *   async jwt({ token, account }) {
 *     if (account) return { ...token, google: { provider: "google", access_token: account.access_token, refresh_token: account.refresh_token, expires_at: account.expires_at } };
 *     return { ...token, google: await refreshAccessToken(config, token.google, { persist: false }) };
 *   },
 * }
 * ```
 */
export async function refreshAccessToken<A extends RefreshableAccount>(
  config: AuthConfig,
  account: A,
  options: RefreshOptions = {},
): Promise<A & RefreshableAccount> {
  const resolved = resolveConfig(config);
  const provider = resolved.providerById.get(account?.provider);
  if (!provider?.oauth) {
    throw new InvalidProvider(`refreshAccessToken: no OAuth provider "${String(account?.provider)}" is configured.`);
  }
  const leeway = options.leewaySeconds ?? 60;
  const now = Math.floor(Date.now() / 1000);
  if (!options.force && typeof account.expires_at === "number" && account.expires_at - leeway > now) return account;
  if (typeof account.refresh_token !== "string" || account.refresh_token === "") {
    throw new TokenRefreshError(`The ${account.provider} account has no refresh token; sign in again (or ask the provider for offline access).`);
  }
  let flights = flightsByConfig.get(resolved);
  if (!flights) flightsByConfig.set(resolved, (flights = new LruCache(1000)));
  const key = `${account.provider}\u0000${account.providerAccountId ?? ""}\u0000${account.refresh_token}`;
  const existing = flights.get(key);
  if (existing && (existing.settledAt === undefined || Date.now() - existing.settledAt < RESULT_TTL_MS)) {
    return { ...account, ...(await existing.promise) };
  }
  const flight: Flight = { promise: refresh(resolved, provider.oauth, account, options) };
  flights.set(key, flight);
  flight.promise.then(
    () => (flight.settledAt = Date.now()),
    () => flights.delete(key),
  );
  return { ...account, ...(await flight.promise) };
}

async function refresh(
  config: ResolvedConfig,
  oauth: OAuthRuntime,
  account: RefreshableAccount,
  options: RefreshOptions,
): Promise<RefreshableAccount> {
  const id = account.provider;
  const adapter = config.adapter;
  const persist = options.persist ?? typeof adapter?.updateAccount === "function";
  if (persist && adapter && typeof adapter.getAccount === "function" && account.providerAccountId) {
    // Another server may have refreshed already (and the provider rotated the refresh token):
    // its stored result is good, and our old refresh token may no longer be.
    const current = await callAdapter(adapter, "getAccount", account.providerAccountId, id);
    const leeway = options.leewaySeconds ?? 60;
    const fresh = current && (typeof current.expires_at !== "number" || current.expires_at - leeway > Math.floor(Date.now() / 1000));
    if (current && fresh && current.refresh_token !== account.refresh_token) return current;
  }
  let tokens: o.TokenEndpointResponse;
  try {
    const { client, auth } = clientOf(oauth, id);
    const metadata = await serverMetadata(oauth, id);
    const response = await o.refreshTokenGrantRequest(metadata, client, auth, account.refresh_token!, requestOptions(oauth));
    tokens = await o.processRefreshTokenResponse(metadata, client, response);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new TokenRefreshError(`Refreshing the ${id} access token failed: ${describeOAuthError(error)}.`, error as Error);
  }
  const refreshed: RefreshableAccount = {
    provider: id,
    providerAccountId: account.providerAccountId,
    access_token: tokens.access_token,
    // Providers that do not rotate refresh tokens send none back: the old one stays valid.
    refresh_token: tokens.refresh_token ?? account.refresh_token,
    token_type: tokens.token_type?.toLowerCase(),
    ...(typeof tokens.expires_in === "number" ? { expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in } : {}),
    ...(tokens.id_token ? { id_token: tokens.id_token } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
  config.logger.debug("access token refreshed", { provider: id, expires_at: refreshed.expires_at });
  if (!persist) return refreshed;
  if (!adapter || typeof adapter.updateAccount !== "function" || !account.providerAccountId) {
    throw new TokenRefreshError(
      `refreshAccessToken cannot store the new ${id} tokens: ${!account.providerAccountId ? "the account has no providerAccountId" : "the adapter has no updateAccount"}. Pass { persist: false } to keep them yourself (in the JWT).`,
    );
  }
  const update = tokenUpdate({ ...refreshed, type: "oauth", providerAccountId: account.providerAccountId } as Account);
  const stored = await callAdapter(adapter, "updateAccount", update, { refresh_token: account.refresh_token ?? null });
  if (stored) return stored as AdapterAccount;
  // Another server refreshed first (its refresh token replaced ours): theirs is the current one.
  const current = await callAdapter(adapter, "getAccount", account.providerAccountId, id);
  if (!current) throw new TokenRefreshError(`The ${id} account ${account.providerAccountId} no longer exists.`);
  return current;
}
