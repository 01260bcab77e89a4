/**
 * The signed-in user's sessions: listed (`GET account`), one ended
 * (`POST revoke-session`), or all but this browser's (`POST
 * revoke-other-sessions`).
 *
 * With database sessions every session is a row: listed from the adapter,
 * ended by deleting it. With JWT sessions the others live only in other
 * browsers' cookies: the list shows this one, and "everywhere else" moves the
 * user's session version (`session-version.ts`), which ends every JWT issued
 * before at its next read; this browser's token is issued again with the new
 * version.
 */
import type { Cookie } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { requestUserAgent } from "../session/database-session.js";
import { emit } from "../events.js";
import { clearSessionCookies, issueSession } from "../session/session-cookie.js";
import { signedInAt, type SignedIn } from "../session/session-user.js";
import { SESSION_VERSION_CLAIM } from "../session/session-version.js";
import { listedJwtSession, listedStoredSession, publicSessionId, type ListedSession } from "./session-list.js";

/** The user's live sessions, oldest first; this request's is `current`. */
export async function listSessions(ctx: RequestContext, signedIn: SignedIn): Promise<ListedSession[]> {
  const now = new Date();
  if (signedIn.strategy === "jwt") {
    const exp = signedIn.token.exp;
    const expires = typeof exp === "number" ? new Date(exp * 1000) : new Date(now.valueOf() + ctx.config.session.maxAge * 1000);
    return [listedJwtSession(expires, signedInAt(signedIn), requestUserAgent(ctx), now)];
  }
  const stored = await callAdapter(ctx.config.adapter!, "listSessionsByUserId", signedIn.user.id);
  const live = stored.filter((session) => new Date(session.expires) > now);
  return Promise.all(
    live.map((session) => listedStoredSession(session, session.sessionToken === signedIn.sessionToken, ctx.config.session.maxAge, now)),
  );
}

/** The outcome of a revocation: whether this browser's session ended with it, and the cookies to set. */
type Revoked = { ok: true; signedOut: boolean; cookies: Cookie[] } | { ok: false };

/**
 * Ends the session `sessionId` names (an id from the list), if it is one of
 * this user's. Ending this browser's own is a sign-out (the cookie goes too).
 * The `signOut` event fires with the ended session (or this browser's token).
 */
export async function revokeSession(ctx: RequestContext, signedIn: SignedIn, sessionId: string): Promise<Revoked> {
  if (signedIn.strategy === "jwt") {
    // The other browsers' tokens cannot be named: only this one.
    if (sessionId !== "current") return { ok: false };
    await emit(ctx.config, "signOut", { token: signedIn.token });
    return { ok: true, signedOut: true, cookies: clearSessionCookies(ctx) };
  }
  const adapter = ctx.config.adapter!;
  // Looked up among this user's own sessions only: an id of another user's session matches nothing here.
  const sessions = await callAdapter(adapter, "listSessionsByUserId", signedIn.user.id);
  let target: string | undefined;
  for (const session of sessions) if ((await publicSessionId(session.sessionToken)) === sessionId) target = session.sessionToken;
  if (target === undefined) return { ok: false };
  const deleted = await callAdapter(adapter, "deleteSession", target);
  await emit(ctx.config, "signOut", { session: deleted ?? null });
  const signedOut = target === signedIn.sessionToken;
  return { ok: true, signedOut, cookies: signedOut ? clearSessionCookies(ctx) : [] };
}

/**
 * Ends every session of the user but this browser's; returns the cookies that
 * keep this browser signed in, or `null` when the user is gone meanwhile.
 */
export async function revokeOtherSessions(ctx: RequestContext, signedIn: SignedIn): Promise<Cookie[] | null> {
  const adapter = ctx.config.adapter!;
  if (signedIn.strategy === "database") {
    const version = await callAdapter(adapter, "revokeUserSessions", signedIn.user.id, { except: signedIn.sessionToken });
    return version === null ? null : [];
  }
  const version = await callAdapter(adapter, "revokeUserSessions", signedIn.user.id);
  if (version === null) return null;
  return (await issueSession(ctx, { ...signedIn.token, [SESSION_VERSION_CLAIM]: version })).cookies;
}
