/** The user of the request's session, looked up in the adapter (for flows that link to whoever is signed in). */
import type { AdapterUser } from "../adapters/types.js";
import { callAdapter } from "./adapter.js";
import type { RequestContext } from "./context.js";
import { readDatabaseSession } from "./database-session.js";
import { readSession } from "./session-cookie.js";

/** `null` when nobody is signed in, or the session's user is not in the adapter. Needs an adapter. */
export async function signedInUser(ctx: RequestContext): Promise<AdapterUser | null> {
  if (ctx.config.session.strategy === "database") {
    const read = await readDatabaseSession(ctx);
    return read.kind === "valid" ? read.user : null;
  }
  const read = await readSession(ctx);
  const sub = read.kind === "valid" ? read.decoded.payload.sub : undefined;
  return typeof sub === "string" && sub !== "" ? await callAdapter(ctx.config.adapter!, "getUser", sub) : null;
}
