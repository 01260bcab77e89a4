/**
 * What a user's list of sessions shows of each (`GET account`): never its
 * token, but an id derived from it that only names it to its own user, when
 * it started and was last active, and which browser it is.
 */
import type { AdapterSession } from "../../adapters/types.js";
import { hashToken } from "../email/token.js";
import type { ListedSession } from "./types.js";
import { describeUserAgent } from "./user-agent.js";

export type { ListedSession } from "./types.js";

/** The session's id in the list: a digest of its token (domain-separated), 32 hex characters. */
export async function publicSessionId(sessionToken: string): Promise<string> {
  return (await hashToken(sessionToken, ":gatehouse:session-id")).slice(0, 32);
}

/**
 * A stored session as listed. Its last activity is when its expiry last slid
 * (`expires - maxAge`, the slide happening at most once per `updateAge`), or
 * now for the session that asks.
 */
export async function listedStoredSession(session: AdapterSession, current: boolean, maxAgeSeconds: number, now: Date): Promise<ListedSession> {
  const expires = new Date(session.expires);
  const createdAt = session.createdAt ? new Date(session.createdAt) : null;
  const slid = new Date(expires.valueOf() - maxAgeSeconds * 1000);
  const lastActive = current ? now : createdAt && slid < createdAt ? createdAt : slid;
  return {
    id: await publicSessionId(session.sessionToken),
    current,
    createdAt: createdAt?.toISOString() ?? null,
    lastActiveAt: lastActive.toISOString(),
    expires: expires.toISOString(),
    userAgent: session.userAgent ?? null,
    browser: describeUserAgent(session.userAgent),
  };
}

/** The JWT session that asks: the only one a JWT user can see (the others live in other browsers' cookies). */
export function listedJwtSession(expires: Date, signedInAt: Date | null, userAgent: string | null, now: Date): ListedSession {
  return {
    id: "current",
    current: true,
    createdAt: signedInAt?.toISOString() ?? null,
    lastActiveAt: now.toISOString(),
    expires: expires.toISOString(),
    userAgent,
    browser: describeUserAgent(userAgent),
  };
}
