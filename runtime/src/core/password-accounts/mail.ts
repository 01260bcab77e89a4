/**
 * Sending the mails of password accounts: counted first (per address and per
 * client, always on: every mail lands in someone's inbox), composed, delivered.
 */
import type { PasswordMailKind } from "../../providers/password.js";
import { passwordMail } from "../../providers/password-mail.js";
import type { RequestContext } from "../context.js";
import { limitAttempt } from "../rate-limit/limit.js";
import type { ResolvedPasswordProvider } from "./provider.js";

/**
 * Counts a mail to `email` against the provider's mail limit; throws
 * `RateLimited` (429) when over it. Called before any lookup, so the refusal is
 * the same for an address with an account and one without.
 */
export async function countMail(ctx: RequestContext, provider: ResolvedPasswordProvider, email: string): Promise<void> {
  await limitAttempt(ctx, provider.password.mailLimit, `${provider.id}-mail`, [email]);
}

/** Throws the provider's configuration problem (no way to send mail) before anything is stored. */
export function requireSender(provider: ResolvedPasswordProvider): void {
  if (provider.password.problem) throw provider.password.problem;
}

/** Composes and delivers one mail; a failure throws (the caller decides what the browser sees). */
export async function sendPasswordMail(
  ctx: RequestContext,
  provider: ResolvedPasswordProvider,
  mail: { kind: PasswordMailKind; to: string; url: string; maxAge: number },
): Promise<void> {
  const host = new URL(ctx.origin).host;
  const { subject, text, html } = passwordMail({ kind: mail.kind, url: mail.url, host, maxAge: mail.maxAge, theme: ctx.config.theme });
  await provider.password.send({ kind: mail.kind, to: mail.to, from: provider.from, subject, text, html, url: mail.url, request: ctx.request });
  ctx.config.logger.debug("password account mail sent", { provider: provider.id, kind: mail.kind });
}
