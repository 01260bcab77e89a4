/**
 * The session action with database sessions: one adapter call per read while no
 * extension is due. The `session` callback gets what Auth.js gives it: the
 * stored session (`sessionToken`, `userId`, `expires` as a `Date`, the rest of
 * the adapter's row) with the whole adapter user as its `user`, and that user;
 * the client gets what it returns, less a `sessionToken` (`clientSession`).
 */
import type { ResponseInternal, Session } from "../../types.js";
import type { RequestContext } from "../context.js";
import { extendIfDue, readDatabaseSession } from "../session/database-session.js";
import { emit } from "../events.js";
import { SessionTokenError } from "../errors/errors.js";
import { NO_STORE } from "../http/response.js";
import { clearSessionCookies } from "../session/session-cookie.js";
import { answersDefaultSession, clientSession, defaultSessionCallback } from "../session/session-callback.js";

export async function databaseSessionAction(ctx: RequestContext, isUpdate: boolean, data: unknown): Promise<ResponseInternal> {
  // An adapter failure propagates: the handler answers an error and keeps the cookie.
  const read = await readDatabaseSession(ctx);
  if (read.kind === "none") return { headers: NO_STORE, body: null };
  if (read.kind === "invalid") return { headers: NO_STORE, body: null, cookies: read.cookies };
  const extending = extendIfDue(ctx, read);
  const extended = extending instanceof Promise ? await extending : extending;
  // Signed out while this request read the session: answer none, as a read a moment later would.
  if (!extended) return { headers: NO_STORE, body: null, cookies: clearSessionCookies(ctx) };
  const { session, cookies } = extended;
  const { config } = ctx;
  const { user } = read;
  try {
    // The default callback and no `session` event (most apps, on every authenticated request): its
    // answer as it is, without a callback's or an event's promise. It reads the user and `expires` only.
    if (answersDefaultSession(config)) {
      return { headers: NO_STORE, body: defaultSessionCallback({ session: { user, expires: session.expires } }), cookies };
    }
    // The session as stored now: an extension just made shows its new `expires` (Auth.js shows the one it read).
    const result = clientSession(
      await config.callbacks.session({
        session: { ...session, user },
        user,
        newSession: data,
        ...(isUpdate ? { trigger: "update" } : {}),
      }),
    );
    await emit(config, "session", { session: result as Session });
    return { headers: NO_STORE, body: result, cookies };
  } catch (error) {
    // The stored session is fine; only the application's callback failed.
    config.logger.error(new SessionTokenError("The session callback failed; answering no session.", error as Error));
    return { headers: NO_STORE, body: null, cookies };
  }
}
