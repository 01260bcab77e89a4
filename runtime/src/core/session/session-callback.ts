/**
 * The default callbacks of a session read: the `jwt` callback's, which keeps the
 * token as it is, and the `session` callback's, and what the client may see of what a
 * callback returns. As in Auth.js, the callback gets the stored session (with
 * database sessions: `sessionToken`, `userId`, `expires` as a `Date`, the rest
 * of the adapter's row, and the whole user), so the default must pick what is
 * safe to show: name, email and image, and when the session ends.
 */
import type { Session } from "../../types.js";

/** The `jwt` callback's default: the token as it came (a session read then has nothing to re-issue for). */
export const keepToken = <T>({ token }: { token: T }): T => token;

interface SessionLike {
  user?: { name?: unknown; email?: unknown; image?: unknown } | null;
  expires?: unknown;
}

/**
 * Auth.js's default `session` callback: only name, email and image of the user
 * (for "signed in as ..."), and `expires` as an ISO string.
 */
export function defaultSessionCallback({ session }: { session: SessionLike }): Session {
  const { user, expires } = session;
  type Field = string | null | undefined;
  return {
    user: { name: user?.name as Field, email: user?.email as Field, image: user?.image as Field },
    expires: expires instanceof Date ? expires.toISOString() : (expires as string),
  };
}

/**
 * Whether a session read answers exactly `defaultSessionCallback`'s result: the
 * default `session` callback and no `session` event, so nothing the app wrote
 * sees the session. The JWT and database reads then skip the callback's
 * argument, promises and copies, which they would pay on every request.
 */
export function answersDefaultSession(config: { callbacks: { session: unknown }; events: { session?: unknown } }): boolean {
  return config.callbacks.session === defaultSessionCallback && !config.events.session;
}

/**
 * What the client gets of a callback's result: all of it but a top-level
 * `sessionToken`. A callback written the Auth.js way (`session.user.id = user.id;
 * return session`) returns the stored session, token included, and Auth.js hands
 * that to the page's scripts: the HttpOnly cookie's secret, readable by any
 * injected script and usable long after it. Nothing on the client needs it.
 */
export function clientSession(result: unknown): unknown {
  if (result === null || typeof result !== "object" || Array.isArray(result) || !("sessionToken" in result)) return result;
  const { sessionToken: _secret, ...visible } = result as Record<string, unknown>;
  return visible;
}
