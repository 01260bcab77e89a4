/**
 * An email address belongs to a user only once its owner proved it: by
 * following a link mailed to it, or by signing in with a provider that vouches
 * for it. A user whose address was never proven holds it on a claim only
 * (a password sign-up, a provider that does not verify addresses, a passkey
 * sign-up), and whoever made the claim may not be its owner.
 *
 * So a claimed address finds and links nobody (see `account-linking.ts`), and
 * when the owner proves it, the user holding it is handed over only after
 * everything its creator set up is gone: linked accounts, passkeys, sessions
 * and password (the adapter's `adoptUnprovenUser`, one transaction). The
 * user's id, name, image and the app's own rows stay: a person who made the
 * claim in good faith and proves it now keeps their data.
 */
import type { AdapterUser } from "../../adapters/types.js";
import type { User } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { AccessDenied, AdapterError, MissingAdapterMethods } from "../errors/errors.js";
import { emit } from "../events.js";

/** Whether the user's address was proven (an Auth.js adapter may return the date as a string). */
export function emailProven(user: Pick<AdapterUser, "emailVerified">): boolean {
  return user.emailVerified !== null && user.emailVerified !== undefined && String(user.emailVerified) !== "";
}

/** A stored user who holds an address nobody proved: a session of theirs must be checked again later. */
export function holdsUnprovenEmail(user: User | AdapterUser): boolean {
  return typeof user.email === "string" && user.email !== "" && "emailVerified" in user && !emailProven(user as AdapterUser);
}

/**
 * Hands `holder`, whose address was never proven, to the person who has just
 * proven it, stripped of every way in its creator set up. Returns the user as
 * stored now (address proven). Another request proving the same address at the
 * same moment is not an error: the user comes back with nothing revoked twice.
 */
export async function adoptUnprovenUser(ctx: RequestContext, holder: AdapterUser): Promise<AdapterUser> {
  const { config } = ctx;
  const adapter = config.adapter!;
  if (typeof adapter.adoptUnprovenUser !== "function") {
    throw new MissingAdapterMethods(
      `A sign-in proved the address of user ${holder.id}, who never proved it, and the adapter lacks adoptUnprovenUser (a gatehouse extension): ` +
        "without it the ways into that user that someone else may have set up cannot be removed, so the sign-in is refused. Use a gatehouse adapter, or implement adoptUnprovenUser.",
    );
  }
  const adopted = await callAdapter(adapter, "adoptUnprovenUser", holder.id, { email: holder.email, emailVerified: new Date() });
  if (!adopted) {
    // Deleted, or given another address, since this request read it: nothing was changed; a retry plans afresh.
    throw new AdapterError(`User ${holder.id} changed while its address was being proven; nothing was changed. Try again.`);
  }
  if (adopted.revoked) {
    config.logger.warn("unproven-user-adopted");
    config.logger.debug("unproven user adopted by the owner of its address", { userId: adopted.user.id });
    await emit(config, "updateUser", { user: adopted.user });
  }
  return adopted.user;
}

/** Marks the address of a user who already holds it proven (the owner of a linked account proves it). */
export async function markEmailProven(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await callAdapter(ctx.config.adapter!, "updateUser", { id: user.id, emailVerified: new Date() });
  await emit(ctx.config, "updateUser", { user: updated });
  return updated;
}

/**
 * The claim of a JWT session issued to a user holding an address nobody had
 * proven. A JWT cannot be revoked where it is stored (the browser), so such a
 * session is checked against the database on every read, and ends once the
 * address is proven (the user was handed to its owner) or the user is gone.
 * Sessions of proven users carry no claim and cost no lookup.
 */
export const UNPROVEN_EMAIL_CLAIM = "unprovenEmail";

/**
 * Whether the user signing in held an unproven address when this sign-in read
 * them: from the same read that found their way in (an OAuth link, a passkey),
 * so a proof landing after it is caught. A credentials `authorize()` user that
 * does not say (no `emailVerified`) is looked up by id in the adapter, unless
 * this sign-in has just read its row (`stored`: with database sessions, the
 * check that the user exists); return `emailVerified` from the query that
 * checked the password to close the moment between the two reads.
 */
export async function seenUnproven(ctx: RequestContext, user: User | AdapterUser, stored?: AdapterUser): Promise<boolean> {
  const adapter = ctx.config.adapter;
  if (!adapter) return false;
  if ("emailVerified" in user) return holdsUnprovenEmail(user);
  if (stored) return holdsUnprovenEmail(stored);
  if (typeof user.id !== "string" || typeof adapter.getUser !== "function") return false;
  const read = await callAdapter(adapter, "getUser", user.id);
  return read !== null && holdsUnprovenEmail(read);
}

/** `token` with the claim (the `jwt` callback cannot drop it: session reads add it back). */
export function markUnprovenSession<T extends Record<string, unknown>>(token: T): T {
  return { ...token, [UNPROVEN_EMAIL_CLAIM]: true };
}

/**
 * A database session just stored for a user seen unproven: if the owner proved
 * the address meanwhile (their proof deleted the user's sessions before this
 * one existed), the session is deleted again and the sign-in refused.
 * Whichever order the two requests ran in, the claimer keeps no session.
 */
export async function refuseIfProvenMeanwhile(ctx: RequestContext, userId: string, sessionToken: string): Promise<void> {
  const adapter = ctx.config.adapter!;
  const user = await callAdapter(adapter, "getUser", userId);
  if (user && !emailProven(user)) return;
  await callAdapter(adapter, "deleteSession", sessionToken);
  throw new AccessDenied("The owner of this account's email address proved it during this sign-in; the sign-in is refused.");
}

/** Whether `unprovenSessionRevoked` has to ask the adapter: the session carries the claim, and there is an adapter to ask. */
export function unprovenSessionToCheck(ctx: RequestContext, payload: Record<string, unknown>): boolean {
  return payload[UNPROVEN_EMAIL_CLAIM] === true && ctx.config.adapter !== undefined;
}

/** Whether a session carrying the claim has lost its user: the address was proven since, or the user deleted. */
export async function unprovenSessionRevoked(ctx: RequestContext, payload: Record<string, unknown>): Promise<boolean> {
  const adapter = ctx.config.adapter;
  if (!adapter || !unprovenSessionToCheck(ctx, payload)) return false;
  if (typeof payload.sub !== "string") return true;
  const user = await callAdapter(adapter, "getUser", payload.sub);
  return !user || emailProven(user);
}
