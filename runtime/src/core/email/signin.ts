/**
 * `POST signin/<email provider>`: ask the `signIn` callback, store the hashed
 * token, mail the link, send the user to "check your email". A refusal stores
 * and sends nothing; a mail that cannot be sent leaves no token behind.
 */
import type { AdapterUser } from "../../adapters/types.js";
import type { Account, ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { EmailSignInError } from "../errors/errors.js";
import { pageUrl } from "../guards.js";
import { limitSignIn } from "../rate-limit/limit.js";
import { askSignInCallback } from "../identity/sign-in.js";
import type { ResolvedEmailProvider } from "./provider.js";
import { hashToken, newToken, tokenSecrets } from "./token.js";

/** The address typed into the form, normalized; anything unusable is `EmailSignin` on the sign-in page. */
export function submittedIdentifier(provider: ResolvedEmailProvider, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new EmailSignInError(`The sign-in request for "${provider.id}" has no email address (form field "email").`);
  }
  let identifier: unknown;
  try {
    identifier = provider.email.normalizeIdentifier(value);
  } catch (error) {
    throw new EmailSignInError(`The email address was refused: ${(error as Error)?.message ?? error}`, error as Error);
  }
  if (typeof identifier !== "string" || identifier === "") {
    throw new EmailSignInError(`normalizeIdentifier of "${provider.id}" returned no address.`);
  }
  return identifier;
}

export async function startEmailSignIn(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  callbackUrl: string | undefined,
): Promise<ResponseInternal> {
  const { config } = ctx;
  if (provider.email.problem) throw provider.email.problem;
  const adapter = config.adapter!;
  const identifier = submittedIdentifier(provider, ctx.body.email);
  // Before any lookup or mail: also what stops one address being mail-bombed.
  if (config.rateLimit) await limitSignIn(ctx, provider.id, [identifier]);

  // The callback sees the user the link would sign in: the stored one, or who they would become.
  const existing = await callAdapter(adapter, "getUserByEmail", identifier);
  const user: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id };
  const redirect = await askSignInCallback(ctx, { user, account, email: { verificationRequest: true } });
  if (redirect !== undefined) return { redirect };

  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : newToken();
  if (typeof token !== "string" || token.length === 0) {
    throw new EmailSignInError(`generateVerificationToken of "${provider.id}" returned no token.`);
  }
  const expires = new Date(Date.now() + provider.email.maxAge * 1000);
  const hashed = await hashToken(token, tokenSecrets(ctx, provider)[0]!);
  await callAdapter(adapter, "createVerificationToken", { identifier, token: hashed, expires });

  const params = new URLSearchParams(callbackUrl ? { callbackUrl } : {});
  params.set("token", token);
  params.set("email", identifier);
  const url = `${ctx.authUrl}/callback/${provider.id}?${params}`;
  try {
    await provider.sendVerificationRequest({
      identifier,
      url,
      expires,
      token,
      // The Auth.js-shaped type promises `from`, but only Nodemailer's sender requires it (see `sendingProblem`): a custom sender may have none.
      provider: provider as ResolvedEmailProvider & { from: string },
      theme: config.theme,
      request: ctx.request,
    });
  } catch (error) {
    await discardToken(ctx, identifier, hashed);
    throw new EmailSignInError(`The sign-in link for "${provider.id}" could not be sent.`, error as Error);
  }
  config.logger.debug("sign-in link sent", { provider: provider.id, expires });
  return { redirect: pageUrl(ctx, config.pages.verifyRequest, "verify-request", { provider: provider.id, type: "email" }) };
}

/** A link that was never delivered must not stay usable (or clutter the table). */
async function discardToken(ctx: RequestContext, identifier: string, hashed: string): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter!, "useVerificationToken", { identifier, token: hashed });
  } catch (error) {
    ctx.config.logger.error(error as Error);
  }
}
