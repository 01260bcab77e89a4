/**
 * Deleting one's own account (`POST delete-account`). It takes the account's
 * email address typed out (a click alone deletes nothing), and proof that the
 * person at the keyboard is the owner, not someone who found a session open:
 * the current password when the account has one, else a sign-in in the last
 * ten minutes. The adapter's `deleteUser` takes the rest with the user (every
 * gatehouse adapter deletes its sessions, accounts, passkeys and password); a
 * JWT of the user ends at its next read (its user is gone).
 */
import { passwordMatches } from "../../password.js";
import type { AdapterUser } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import { canonicalEmailOrUndefined } from "../identity/email-address.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { limitSignIn } from "../rate-limit/limit.js";
import { signedInAt, type SignedIn } from "../session/session-user.js";

/** How recent a sign-in must be to delete an account that has no password. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

export type DeletionRefusal = "confirm-email" | "wrong-password" | "sign-in-again";

/** The typed address is the account's: both in their canonical form (an account's may predate it: then lowercased). */
function sameAddress(typed: unknown, email: string): boolean {
  const canonical = canonicalEmailOrUndefined(typed);
  return canonical !== undefined && canonical === (canonicalEmailOrUndefined(email) ?? email.toLowerCase());
}

/** Checks the confirmation and the proof; deletes the account. Returns why it refused, or `null` once deleted. */
export async function deleteOwnAccount(ctx: RequestContext, signedIn: SignedIn, body: Record<string, unknown>): Promise<DeletionRefusal | null> {
  const { user } = signedIn;
  const adapter = ctx.config.adapter!;
  if (!sameAddress(body.confirm, user.email)) return "confirm-email";
  const stored = typeof adapter.getUserPassword === "function" ? await callAdapter(adapter, "getUserPassword", user.id) : null;
  if (stored !== null) {
    // Counted like a sign-in: a stolen session cannot guess the password here faster than at the sign-in form.
    const provider = ctx.config.providers.find((candidate) => candidate.password !== undefined)?.id ?? "password";
    if (ctx.config.rateLimit) await limitSignIn(ctx, provider, [user.email]);
    const password = body.password;
    if (typeof password !== "string" || password.length > 1024 || !(await passwordMatches(password, stored))) return "wrong-password";
  } else {
    const since = signedInAt(signedIn);
    if (!since || Date.now() - since.valueOf() > RECENT_SIGN_IN_SECONDS * 1000) return "sign-in-again";
  }
  await callAdapter(adapter, "deleteUser", user.id);
  ctx.config.logger.debug("account deleted by its user");
  await emit(ctx.config, "deleteUser", { user: user as AdapterUser });
  return null;
}
