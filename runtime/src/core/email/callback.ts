/**
 * `callback/<email provider>`: the end of an email sign-in. By default the link's
 * GET only shows a confirmation page and the POST from its button uses the token;
 * with `confirmLink: false` the GET signs in (Auth.js's behaviour). A wrong, used,
 * expired or mismatched link is `Verification`, and never signs anyone in.
 */
import { renderConfirmEmailPage } from "../../pages/confirm-email.js";
import type { ResponseInternal } from "../../types.js";
import { requestedCallbackUrl } from "../http/callback-url.js";
import type { RequestContext } from "../context.js";
import type { VerificationToken } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import { AdapterError, Verification } from "../errors/errors.js";
import { requireCsrf } from "../guards.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";
import { sameOriginUrl } from "../http/redirect.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import type { ResolvedEmailProvider } from "./provider.js";
import { useToken } from "./token.js";
import { applyEmailPlan, planEmailUser } from "./user.js";

/** Tokens we make are 64 characters; custom ones get room, but not megabytes to hash. */
const MAX_TOKEN_LENGTH = 512;

interface LinkFields {
  token: string;
  email: string;
}

function linkFields(source: Record<string, unknown>): LinkFields {
  const { token, email } = source;
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH || typeof email !== "string" || email === "") {
    throw new Verification("The sign-in link is incomplete: it needs its token and email.");
  }
  return { token, email };
}

export async function emailCallback(ctx: RequestContext, provider: ResolvedEmailProvider): Promise<ResponseInternal> {
  if (ctx.route.method === "POST") {
    requireCsrf(ctx);
    return useLink(ctx, provider, linkFields(ctx.body));
  }
  const fields = linkFields(Object.fromEntries(ctx.query));
  if (provider.email.confirmLink) return confirmationPage(ctx, provider, fields);
  return useLink(ctx, provider, fields);
}

function confirmationPage(ctx: RequestContext, provider: ResolvedEmailProvider, fields: LinkFields): ResponseInternal {
  const csrf = ctx.config.csrfCheck ? ctx.csrf() : undefined;
  const html = renderConfirmEmailPage({
    action: `${ctx.authUrl}/callback/${provider.id}`,
    email: fields.email,
    token: fields.token,
    callbackUrl: sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? ctx.origin,
    csrfToken: csrf?.token,
    host: new URL(ctx.origin).host,
    theme: ctx.config.theme,
  });
  return { headers: PAGE_HEADERS, body: html };
}

async function useLink(ctx: RequestContext, provider: ResolvedEmailProvider, fields: LinkFields): Promise<ResponseInternal> {
  let identifier: string;
  try {
    identifier = provider.email.normalizeIdentifier(fields.email);
  } catch (error) {
    throw new Verification("The email address of the sign-in link is not valid.", error as Error);
  }
  const stored = await useToken(ctx, provider, identifier, fields.token);
  if (!stored) throw new Verification("The sign-in link is not valid: it was already used, belongs to another address, or never existed.");
  if (new Date(stored.expires).valueOf() <= Date.now()) throw new Verification("The sign-in link has expired.");

  try {
    const plan = await planEmailUser(ctx, provider, identifier);
    const redirect = await askSignInCallback(ctx, { user: plan.user, account: plan.account });
    if (redirect !== undefined) return { redirect };
    const { user, account, isNewUser } = await applyEmailPlan(ctx, plan);
    return await completeSignIn(ctx, { user, account, isNewUser });
  } catch (error) {
    if (error instanceof AdapterError) await restoreToken(ctx, stored);
    throw error;
  }
}

/**
 * The token was used but the database failed before the sign-in ended: put it
 * back (same hash, same expiry), so a dropped connection does not cost the user
 * their link. Best effort: with the database still down this fails too (logged),
 * and the user asks for a new link. A refusal (`AccessDenied`) never restores.
 */
async function restoreToken(ctx: RequestContext, stored: VerificationToken): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter!, "createVerificationToken", stored);
  } catch (error) {
    ctx.config.logger.error(new AdapterError("The sign-in failed after its link was used, and the link could not be restored: the user needs a new one.", error as Error));
  }
}
