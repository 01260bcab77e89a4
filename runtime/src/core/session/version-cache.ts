/**
 * The users' session versions this process has read, per adapter object. A JWT
 * session read compares its token's version with the stored one (see
 * session-version.ts); asking the adapter on every read is a database round
 * trip per request, most of the cost of a signed-in request. A version read
 * here is reused for `session.revocationDelay` seconds, and only to say "not
 * revoked": a token whose version differs from the reused one makes a fresh
 * read before it is refused (it may be a newer sign-in's).
 *
 * Every handler call that can move a version (`callAdapter` calls
 * `forgetSessionVersion` after revokeUserSessions, setUserPassword, deleteUser
 * and adoptUnprovenUser) drops the user's entry, so in one process a
 * revocation takes effect at the next request. Another process (another
 * instance of the app, or a write that does not go through the handler, such
 * as an admin's SQL) reaches this one within the delay.
 *
 * The entry holds the read's promise, set before the read starts: requests
 * that miss together share one query, and a forget that lands while a read is
 * in flight drops that read too, so a version read before a revocation is never
 * kept after it.
 */
import type { Adapter } from "../../adapters/types.js";
import { LruCache } from "../lru.js";

/** Users whose versions one process keeps; the least recently used go first. */
const USERS_KEPT = 10_000;

/** `settled` holds the version once the read has answered, for a read that must not wait (see `keptSessionVersion`). */
type Entry = { version: Promise<number | null>; readAt: number; settled?: { version: number | null } };

const byAdapter = new WeakMap<Adapter, LruCache<string, Entry>>();

function entriesOf(adapter: Adapter): LruCache<string, Entry> {
  let entries = byAdapter.get(adapter);
  if (!entries) byAdapter.set(adapter, (entries = new LruCache(USERS_KEPT)));
  return entries;
}

/**
 * The user's session version: the one read within the last `maxAgeMs`
 * milliseconds, or a fresh `read()` (then kept). `maxAgeMs` 0 always reads.
 * A read that fails is not kept.
 */
export function sessionVersionOf(adapter: Adapter, userId: string, maxAgeMs: number, read: () => Promise<number | null>): Promise<number | null> {
  const kept = keptWithin(adapter, userId, maxAgeMs);
  if (kept) return kept.version;
  const entries = entriesOf(adapter);
  const entry: Entry = { version: read(), readAt: Date.now() };
  entries.set(userId, entry);
  entry.version.then(
    (version) => {
      entry.settled = { version };
    },
    () => {
      if (entries.get(userId) === entry) entries.delete(userId);
    },
  );
  return entry.version;
}

/**
 * The version `sessionVersionOf` would hand back without a read, when its read
 * has already answered: what a session read needs to go through without waiting
 * on a promise. `undefined` when only `sessionVersionOf` can tell (nothing kept,
 * kept too long, or its read still in flight).
 */
export function keptSessionVersion(adapter: Adapter, userId: string, maxAgeMs: number): { version: number | null } | undefined {
  return keptWithin(adapter, userId, maxAgeMs)?.settled;
}

/** The user's entry, if its read started within the last `maxAgeMs` milliseconds (0: none counts). */
function keptWithin(adapter: Adapter, userId: string, maxAgeMs: number): Entry | undefined {
  if (maxAgeMs <= 0) return undefined;
  const kept = byAdapter.get(adapter)?.get(userId);
  return kept && Date.now() - kept.readAt < maxAgeMs ? kept : undefined;
}

/** The user's version may have moved: the next read asks the adapter. */
export function forgetSessionVersion(adapter: Adapter, userId: string): void {
  byAdapter.get(adapter)?.delete(userId);
}
