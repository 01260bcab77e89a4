/** The user of the request's session, looked up in the adapter (for flows that link to whoever is signed in). */
import type { AdapterUser } from "../adapters/types.js";
import { callAdapter } from "./adapter.js";
import type { RequestContext } from "./context.js";
import { readDatabaseSession } from "./database-session.js";
import { passwordSessionRevoked } from "./password-accounts/sessions.js";
import { unprovenSessionRevoked } from "./proven-email.js";
import { readSession } from "./session-cookie.js";

/**
 * `null` when nobody is signed in, or the session's user is not in the adapter.
 * A JWT that a proof of its address or a password change has ended is nobody's:
 * the same checks as a session read, so it cannot link an account or a passkey
 * either. Needs an adapter.
 */
export async function signedInUser(ctx: RequestContext): Promise<AdapterUser | null> {
  if (ctx.config.session.strategy === "database") {
    const read = await readDatabaseSession(ctx);
    return read.kind === "valid" ? read.user : null;
  }
  const read = await readSession(ctx);
  if (read.kind !== "valid") return null;
  const { payload } = read.decoded;
  if ((await unprovenSessionRevoked(ctx, payload)) || (await passwordSessionRevoked(ctx, payload))) return null;
  const sub = payload.sub;
  return typeof sub === "string" && sub !== "" ? await callAdapter(ctx.config.adapter!, "getUser", sub) : null;
}
