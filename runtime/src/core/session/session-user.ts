/** The user of the request's session, looked up in the adapter (for flows that act for whoever is signed in). */
import type { AdapterSession, AdapterUser } from "../../adapters/types.js";
import type { JWT } from "../../jwt.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { readDatabaseSession } from "./database-session.js";
import { unprovenSessionRevoked } from "../identity/proven-email.js";
import { readSession } from "./session-cookie.js";
import { sessionStartOf, tokenStartOf } from "./session-lifetime.js";
import { sessionVersionRevoked } from "./session-version.js";

/** Who is signed in, and by which session: the stored one, or the JWT's claims. */
export type SignedIn =
  | { strategy: "database"; user: AdapterUser; sessionToken: string; session: AdapterSession }
  | { strategy: "jwt"; user: AdapterUser; token: JWT };

/**
 * `null` when nobody is signed in, or the session's user is not in the adapter.
 * A JWT that a proof of its address or a revocation (sign out everywhere, a
 * password change) has ended is nobody's: the same checks as a session read,
 * so it cannot link an account, register a passkey or manage the account
 * either. Needs an adapter.
 */
export async function signedInSession(ctx: RequestContext): Promise<SignedIn | null> {
  if (ctx.config.session.strategy === "database") {
    const read = await readDatabaseSession(ctx);
    return read.kind === "valid" ? { strategy: "database", user: read.user, sessionToken: read.token, session: read.session } : null;
  }
  const read = await readSession(ctx);
  if (read.kind !== "valid") return null;
  const { payload } = read.decoded;
  // Acting for the user: the stored version, never one kept from an earlier read (session-version.ts).
  if ((await unprovenSessionRevoked(ctx, payload)) || (await sessionVersionRevoked(ctx, payload, { fresh: true }))) return null;
  const sub = payload.sub;
  const user = typeof sub === "string" && sub !== "" ? await callAdapter(ctx.config.adapter!, "getUser", sub) : null;
  return user ? { strategy: "jwt", user, token: structuredClone(payload) } : null;
}

/** When the session began: the stored session's creation, or the JWT's sign-in claim; `null` when unknown. */
export function signedInAt(signedIn: SignedIn): Date | null {
  const start = signedIn.strategy === "database" ? sessionStartOf(signedIn.session) : tokenStartOf(signedIn.token);
  return start === undefined ? null : new Date(start);
}

/** The signed-in user alone (see `signedInSession`). */
export async function signedInUser(ctx: RequestContext): Promise<AdapterUser | null> {
  return (await signedInSession(ctx))?.user ?? null;
}
