/**
 * The absolute lifetime of a session (`session.absoluteMaxAge`): however often
 * it is used, and so slid forward, a session ends that long after its sign-in.
 * Without it a stolen session kept busy lives for ever. A database session
 * knows its sign-in from the row's `createdAt` (gatehouse adapters keep it), a
 * JWT from its `signedInAt` claim; a session that knows neither (an Auth.js
 * adapter's row, a JWT issued before the claim) is bound by `maxAge` alone.
 * Pure: times in, times out.
 */
import type { AdapterSession } from "../../adapters/types.js";
import { SIGNED_IN_AT_CLAIM } from "./session-version.js";

/** When a stored session began (ms): its row's `createdAt`, where the adapter keeps it. */
export function sessionStartOf(session: Pick<AdapterSession, "createdAt">): number | undefined {
  const { createdAt } = session;
  if (!createdAt) return undefined;
  // An Auth.js adapter may hand over text; ours a Date, read as it is (this runs on every read).
  return createdAt instanceof Date ? createdAt.valueOf() : new Date(createdAt).valueOf();
}

/** When a JWT's session signed in (ms), from the claim the handler writes at sign-in. */
export function tokenStartOf(token: Record<string, unknown>): number | undefined {
  const claim = token[SIGNED_IN_AT_CLAIM];
  return typeof claim === "number" ? claim * 1000 : undefined;
}

/** Whether a session that began at `startedAt` (ms) is past its absolute end. */
export function pastAbsoluteEnd(startedAt: number | undefined, absoluteMaxAge: number, now = Date.now()): boolean {
  return startedAt !== undefined && Number.isFinite(startedAt) && startedAt + absoluteMaxAge * 1000 <= now;
}

/** The expiry (ms) of a session issued or slid now: `maxAge` from now, never past its absolute end. */
export function cappedExpiry(maxAge: number, startedAt: number | undefined, absoluteMaxAge: number, now = Date.now()): number {
  const sliding = now + maxAge * 1000;
  if (startedAt === undefined || !Number.isFinite(startedAt)) return Math.min(sliding, now + absoluteMaxAge * 1000);
  return Math.min(sliding, startedAt + absoluteMaxAge * 1000);
}
