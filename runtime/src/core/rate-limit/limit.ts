/**
 * Counting a sign-in attempt before it spends anything (an `authorize` call, a
 * mail, a signature check): one hit per client address and one per identifier.
 * Over a limit, the attempt stops with `RateLimited` and nothing else happens.
 * Callers run this only when `rateLimit` is configured.
 */
import type { Awaitable, CredentialRecord } from "../../types.js";
import type { RequestContext } from "../context.js";
import { canonicalEmailOrUndefined, INVISIBLE, plainFullStops } from "../identity/email-address.js";
import { hashToken } from "../email/token.js";
import { AdapterError, RateLimited } from "../errors/errors.js";
import { addressKey } from "./client-address.js";
import type { ResolvedRateLimit } from "./resolve.js";
import type { RateLimitHit } from "./types.js";

/**
 * The client's address as the framework glue knows it (SvelteKit's
 * `getClientAddress()`, SolidStart's `clientAddress`). Internal: the glue
 * passes it only when `rateLimit` is on, and it is read only then.
 */
export type ClientAddressSource = () => Awaitable<string | null | undefined>;

interface Counted {
  key: string;
  limit: number;
  kind: "ip" | "identifier";
}

/**
 * Counts the attempt; throws `RateLimited` when any of its counts is over its
 * limit. Resolves to the identifier keys it counted, for `forgetIdentifiers`.
 */
export async function limitSignIn(ctx: RequestContext, providerId: string, identifiers: readonly string[]): Promise<string[]> {
  // One count per client address across every provider: guesses spread over several are still one client's.
  return limitAttempt(ctx, ctx.config.rateLimit!, providerId, identifiers, "ip:");
}

/**
 * `limitSignIn` with other limits and counts: `scope` keeps them apart from the
 * sign-in counts (the mails of password accounts count under `<provider>-mail`).
 */
export async function limitAttempt(
  ctx: RequestContext,
  limits: ResolvedRateLimit,
  scope: string,
  identifiers: readonly string[],
  ipKeyPrefix = `ip:${scope}:`,
): Promise<string[]> {
  const counted: Counted[] = [];
  if (limits.ip !== false) {
    const address = await clientAddress(ctx, limits);
    if (address) counted.push({ key: `${ipKeyPrefix}${addressKey(address)}`, limit: limits.ip, kind: "ip" });
  }
  const identifierKeys = limits.identifier === false ? [] : await keysOf(ctx, scope, identifiers);
  for (const key of identifierKeys) counted.push({ key, limit: limits.identifier as number, kind: "identifier" });
  if (counted.length === 0) return identifierKeys;

  let hits: RateLimitHit[];
  try {
    hits = await Promise.all(counted.map(({ key }) => limits.store.hit(key, limits.window)));
  } catch (error) {
    // Fail closed: an attacker must not get unlimited attempts by overloading the store.
    throw new AdapterError("The rate limit store's hit failed.", error as Error);
  }
  const now = Date.now();
  const over = new Set<Counted["kind"]>();
  let retryAfter = 1;
  let firstRefusal = false;
  hits.forEach((hit, i) => {
    const { limit, kind } = counted[i]!;
    if (!(hit.count > limit)) return;
    over.add(kind);
    // Clamped: a store whose clock is off must not tell clients to wait longer than a window.
    retryAfter = Math.max(retryAfter, Math.min(limits.window, Math.ceil((hit.resetAt - now) / 1000)));
    firstRefusal ||= hit.count === limit + 1;
  });
  if (over.size === 0) return identifierKeys;
  // One warning per key and window (its first refusal), so an attack cannot flood the log.
  if (firstRefusal) ctx.config.logger.warn("rate-limited");
  ctx.config.logger.debug("sign-in attempt refused by the rate limit", { scope, limits: [...over], retryAfter });
  throw new RateLimited("Too many sign-in attempts. Try again later.", retryAfter);
}

/**
 * After a successful credentials sign-in: its identifiers' failures are
 * forgotten (the address's count stays, or one good account would reset the
 * count of an address guessing at others). A store failure here only logs.
 */
export async function forgetIdentifiers(ctx: RequestContext, keys: readonly string[]): Promise<void> {
  const { store } = ctx.config.rateLimit!;
  try {
    await Promise.all(keys.map((key) => store.reset(key)));
  } catch (error) {
    ctx.config.logger.error(new AdapterError("The rate limit store's reset failed.", error as Error));
  }
}

/**
 * The identifiers a credentials form names: every configured field present,
 * each as `identifierKey` makes it. Non-string values (a JSON body may send
 * `["ada"]`) are counted as the text `authorize` would likely make of them.
 */
export function credentialIdentifiers(limits: ResolvedRateLimit, credentials: CredentialRecord): string[] {
  const identifiers = new Set<string>();
  for (const field of limits.identifierFields) {
    const value = credentials[field];
    if (value === undefined || value === null) continue;
    const key = identifierKey(String(value));
    if (key !== "") identifiers.add(key);
  }
  return [...identifiers];
}

/**
 * What one identifier counts as: an email address's canonical form (the one
 * the password provider looks up), so every spelling of one mailbox is one
 * count. Anything else (a username, or an address the canonical form refuses,
 * which `authorize` might still repair) loses what could tell two spellings
 * apart without telling two people apart: compatibility forms (NFKC), case,
 * whitespace, invisible characters, ideographic full stops. A coarser key
 * only ever puts more attempts into one count.
 */
export function identifierKey(value: string): string {
  const canonical = canonicalEmailOrUndefined(value);
  if (canonical !== undefined) return canonical;
  const loose = value.normalize("NFKC").toLowerCase().normalize("NFKC");
  return plainFullStops(loose.replace(LOOSE_DROPPED, ""));
}

const LOOSE_DROPPED = new RegExp(`\\s|${INVISIBLE.source}`, "gu");

/** `id:<provider>:<SHA-256 of identifier + secret>`: the store never holds an address or a username, nor a hash a dictionary could reverse. */
async function keysOf(ctx: RequestContext, providerId: string, identifiers: readonly string[]): Promise<string[]> {
  const secret = ctx.config.secrets[0]!;
  return Promise.all(identifiers.map(async (identifier) => `id:${providerId}:${await hashToken(identifier, secret)}`));
}

async function clientAddress(ctx: RequestContext, limits: ResolvedRateLimit): Promise<string | undefined> {
  // The glue's source already prefers rateLimit.clientAddress (called with the original request).
  const source = ctx.clientAddress ?? (limits.clientAddress && (() => limits.clientAddress!(ctx.request)));
  const address = source ? await source() : undefined;
  if (typeof address === "string" && address.trim() !== "") return address;
  if (!limits.warnedNoAddress) {
    limits.warnedNoAddress = true;
    ctx.config.logger.warn("rate-limit-no-client-address");
  }
  return undefined;
}
