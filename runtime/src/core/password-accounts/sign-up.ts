/**
 * `POST signup`: a new account whose password signs in only once its address is
 * confirmed. Whether the address is free or has an account already, the browser
 * sees the same "check your email" page and a mail goes to the address: a
 * confirmation link for a new account, or word that it has one (with a link to
 * choose a new password) for an existing one. Only the mailbox's owner learns
 * which.
 */
import type { AdapterUser } from "../../adapters/types.js";
import { hashPassword } from "../../password.js";
import type { ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import { AdapterError } from "../errors/errors.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { requireCsrf } from "../guards.js";
import { newPassword, submittedEmail, submittedName, type InputProblem } from "./input.js";
import { issueLink, linkIdentifier } from "./links.js";
import { countMail, requireSender, sendPasswordMail } from "./mail.js";
import { formCallbackUrl } from "../http/callback-url.js";
import { passwordPages } from "./pages.js";
import type { ResolvedPasswordProvider } from "./provider.js";
import { issueResetLink } from "./reset-link.js";

export async function signUpPost(ctx: RequestContext, provider: ResolvedPasswordProvider): Promise<ResponseInternal> {
  requireCsrf(ctx);
  const callbackUrl = formCallbackUrl(ctx);
  const typed = typeof ctx.body.email === "string" ? ctx.body.email.slice(0, 254) : undefined;
  const refuse = (code: InputProblem | "mail-not-sent"): ResponseInternal => ({
    redirect: passwordPages.signUp(ctx, { error: "PasswordSignUp", code, email: typed, callbackUrl }),
  });
  const email = submittedEmail(ctx.body.email);
  if (!email.ok) return refuse(email.code);
  const name = submittedName(ctx.body.name);
  if (!name.ok) return refuse(name.code);
  const password = newPassword(ctx.body.password, provider.password);
  if (!password.ok) return refuse(password.code);
  requireSender(provider);
  await countMail(ctx, provider, email.value);

  // Hashed before the address is looked at: a taken address costs the same time as a free one.
  const hash = await hashPassword(password.value);
  const adapter = ctx.config.adapter!;
  const user = await callAdapter(adapter, "createUserWithPassword", { email: email.value, emailVerified: null, name: name.value, image: null }, hash);
  try {
    if (user) {
      await emit(ctx.config, "createUser", { user });
      await mailConfirmation(ctx, provider, user, callbackUrl);
    } else {
      await mailAccountExists(ctx, provider, email.value, callbackUrl);
    }
  } catch (error) {
    // A new account whose confirmation never went out would hold the address for nothing: it goes again.
    if (user) await callAdapter(adapter, "deleteUser", user.id).catch((cause: unknown) => ctx.config.logger.error(cause as Error));
    // The database failing (storing the link) is not the mail's fault: the handler's error answer (which logs it), not "mail not sent".
    if (error instanceof AdapterError) throw error;
    ctx.config.logger.error(error as Error);
    return refuse("mail-not-sent");
  }
  return passwordPages.checkEmail(ctx, provider.id, "sign-up");
}

/**
 * Mails the link that confirms a new account's address. It opens the sign-in
 * form, which asks for the password: the link alone proves only the mailbox,
 * and someone who signed up with another person's address must not have that
 * person's one click make the account theirs.
 */
export async function mailConfirmation(
  ctx: RequestContext,
  provider: ResolvedPasswordProvider,
  user: AdapterUser,
  callbackUrl: string | undefined,
): Promise<void> {
  const { confirmMaxAge } = provider.password;
  const token = await issueLink(ctx, await linkIdentifier("confirm-sign-up", user.email), confirmMaxAge);
  const url = passwordPages.signIn(ctx, { email: user.email, confirm: token, callbackUrl });
  await sendPasswordMail(ctx, provider, { kind: "confirm-sign-up", to: user.email, url, maxAge: confirmMaxAge });
}

/** A sign-up with an address that has an account: the owner hears of it, with a way back in. */
async function mailAccountExists(ctx: RequestContext, provider: ResolvedPasswordProvider, email: string, callbackUrl: string | undefined): Promise<void> {
  const holder = await callAdapter(ctx.config.adapter!, "getUserByEmail", email);
  // Deleted in the moment between: nobody to tell.
  if (!holder) return;
  const url = await issueResetLink(ctx, provider, holder, callbackUrl);
  await sendPasswordMail(ctx, provider, { kind: "account-exists", to: email, url, maxAge: provider.password.resetMaxAge });
}
