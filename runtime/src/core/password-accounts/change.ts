/**
 * `POST change-password` (`currentPassword`, `password`): the signed-in user
 * changes their password. It asks for the current one (a stolen session alone
 * cannot change it), counts the attempt against the address like a sign-in
 * (`rateLimit`), and, once set, ends every other session of the user and every
 * outstanding reset link, as a reset does; this browser gets a new session.
 * A user without a password sets one through "forgot password" (which proves
 * the address), not here.
 */
import { hashPassword, passwordMatches } from "../../password.js";
import type { Cookie, ResponseInternal } from "../../types.js";
import { formRefusal, signedInForm } from "../account/form.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { createDatabaseSession } from "../session/database-session.js";
import { limitSignIn } from "../rate-limit/limit.js";
import { issueSession } from "../session/session-cookie.js";
import type { SignedIn } from "../session/session-user.js";
import { withSessionVersion } from "../session/session-version.js";
import { newPassword, type InputProblem } from "./input.js";
import type { ResolvedPasswordProvider } from "./provider.js";

type ChangeProblem = InputProblem | "wrong-password" | "no-password" | "try-again";

export async function changePasswordPost(ctx: RequestContext, provider: ResolvedPasswordProvider): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const { user } = signedIn;
  // Back to the form's page (an app page: the callback URL), with the code.
  const refuse = (code: ChangeProblem): ResponseInternal => formRefusal(ctx, callbackUrl, "PasswordChange", code);

  if (ctx.config.rateLimit) await limitSignIn(ctx, provider.id, [user.email]);
  const adapter = ctx.config.adapter!;
  const stored = await callAdapter(adapter, "getUserPassword", user.id);
  if (stored === null) return refuse("no-password");
  const current = ctx.body.currentPassword;
  if (typeof current !== "string" || current.length > provider.password.maxLength || !(await passwordMatches(current, stored))) {
    return refuse("wrong-password");
  }
  const next = newPassword(ctx.body.password, provider.password);
  if (!next.ok) return refuse(next.code === "invalid-email" ? "try-again" : next.code);

  // Compare-and-set on the hash just checked; every session of the user goes with the write.
  const written = await callAdapter(adapter, "setUserPassword", user.id, await hashPassword(next.value), { previous: stored, revokeSessions: true });
  if (!written) return refuse("try-again");
  ctx.config.logger.debug("password changed", { provider: provider.id });
  return { redirect: callbackUrl, cookies: await renewSession(ctx, signedIn) };
}

/** This browser's session after the change: a new database row, or the same JWT carrying the new session version. */
async function renewSession(ctx: RequestContext, signedIn: SignedIn): Promise<Cookie[]> {
  if (signedIn.strategy === "database") return (await createDatabaseSession(ctx, signedIn.user.id)).cookies;
  return (await issueSession(ctx, await withSessionVersion(ctx, signedIn.user.id, signedIn.token))).cookies;
}
