/**
 * "Forgot password": `POST forgot-password` mails a link (at most one hour,
 * single use, stored hashed) to choose a new password; `POST reset-password`
 * sets it. Either way the browser learns nothing about the address: an address
 * without an account gets a mail saying so instead.
 *
 * Setting the password ends every session of the user (database sessions are
 * deleted with the write; JWT sessions carry a fingerprint of the password and
 * end on their next read) and every other reset link (their identifiers hold
 * the old fingerprint). A user whose address was never proven is first handed
 * to the person who just proved it, without anything its creator set up (see
 * `proven-email.ts`): the reset is the owner's way back into their address.
 */
import { hashPassword } from "../../password.js";
import type { ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import { AdapterError } from "../errors/errors.js";
import type { RequestContext } from "../context.js";
import { requireCsrf } from "../guards.js";
import { adoptUnprovenUser, emailProven } from "../identity/proven-email.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import { newPassword, submittedEmail, submittedToken } from "./input.js";
import { linkIdentifier, takeLink } from "./links.js";
import { countMail, requireSender, sendPasswordMail } from "./mail.js";
import { formCallbackUrl } from "../http/callback-url.js";
import { passwordPages } from "./pages.js";
import type { ResolvedPasswordProvider } from "./provider.js";
import { issueResetLink } from "./reset-link.js";

export async function forgotPasswordPost(ctx: RequestContext, provider: ResolvedPasswordProvider): Promise<ResponseInternal> {
  requireCsrf(ctx);
  const callbackUrl = formCallbackUrl(ctx);
  const refuse = (code: string): ResponseInternal => ({ redirect: passwordPages.forgotPassword(ctx, { error: "PasswordReset", code, callbackUrl }) });
  const email = submittedEmail(ctx.body.email);
  if (!email.ok) return refuse(email.code);
  requireSender(provider);
  await countMail(ctx, provider, email.value);

  try {
    const user = await callAdapter(ctx.config.adapter!, "getUserByEmail", email.value);
    if (user) {
      const url = await issueResetLink(ctx, provider, user, callbackUrl);
      await sendPasswordMail(ctx, provider, { kind: "reset-password", to: email.value, url, maxAge: provider.password.resetMaxAge });
    } else {
      // A mail either way, so the time the answer takes does not tell whether the address has an account.
      const url = passwordPages.signUp(ctx, { email: email.value, callbackUrl });
      await sendPasswordMail(ctx, provider, { kind: "no-account", to: email.value, url, maxAge: provider.password.resetMaxAge });
    }
  } catch (error) {
    // The database failing (finding the user, storing the link) is not the mail's fault: the handler's error answer.
    if (error instanceof AdapterError) throw error;
    ctx.config.logger.error(error as Error);
    return refuse("mail-not-sent");
  }
  return passwordPages.checkEmail(ctx, provider.id, "password-reset");
}

export async function resetPasswordPost(ctx: RequestContext, provider: ResolvedPasswordProvider): Promise<ResponseInternal> {
  requireCsrf(ctx);
  const callbackUrl = formCallbackUrl(ctx);
  const invalidLink: ResponseInternal = { redirect: passwordPages.forgotPassword(ctx, { error: "PasswordReset", code: "invalid-link", callbackUrl }) };
  const email = submittedEmail(ctx.body.email);
  const token = submittedToken(ctx.body.token);
  if (!email.ok || token === undefined) return invalidLink;
  const password = newPassword(ctx.body.password, provider.password);
  // Back to the same form, link and all: a too-short password does not cost the user their link.
  if (!password.ok) {
    return { redirect: passwordPages.resetPassword(ctx, { error: "PasswordReset", code: password.code, email: email.value, token, callbackUrl }) };
  }

  const adapter = ctx.config.adapter!;
  const user = await callAdapter(adapter, "getUserByEmail", email.value);
  if (!user) return invalidLink;
  const current = await callAdapter(adapter, "getUserPassword", user.id);
  // Issued for this password (or for none): a link from before the last change matches nothing.
  if (!(await takeLink(ctx, await linkIdentifier("reset-password", email.value, current), token))) return invalidLink;

  const hash = await hashPassword(password.value);
  const provenBefore = emailProven(user);
  // The address is proven now: a user who held it on a claim loses what its creator set up, password included.
  const owner = provenBefore ? user : await adoptUnprovenUser(ctx, user);
  const written = await callAdapter(adapter, "setUserPassword", owner.id, hash, { previous: provenBefore ? current : null, revokeSessions: true });
  // Changed by another request since the link was checked (another reset, say): this link lost.
  if (!written) return invalidLink;
  ctx.config.logger.debug("password reset", { provider: provider.id });

  const account = { type: "credentials" as const, provider: provider.id, providerAccountId: owner.id };
  const redirect = await askSignInCallback(ctx, { user: owner, account });
  if (redirect !== undefined) return { redirect };
  return completeSignIn(ctx, { user: owner, account });
}
