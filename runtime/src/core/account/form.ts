/**
 * What every form of a signed-in user shares (the account page's, and
 * change-password): its CSRF token checked, the page it comes back to, who is
 * signed in (or the sign-in page instead), and how a refusal goes back.
 */
import type { ResponseInternal } from "../../types.js";
import { formCallbackUrl } from "../http/callback-url.js";
import type { RequestContext } from "../context.js";
import { MissingAdapter } from "../errors/errors.js";
import { pageUrl, requireCsrf } from "../guards.js";
import { signedInSession, type SignedIn } from "../session/session-user.js";

/** Throws `MissingAdapter` naming the action: the account lives in the adapter. */
export function requireAccountAdapter(ctx: RequestContext): void {
  if (!ctx.config.adapter) {
    throw new MissingAdapter(`${ctx.config.basePath}/${ctx.route.action} reads and changes the user's account through an adapter: set \`adapter\`.`);
  }
}

/** A signed-in user's form post: its page and who is signed in, or the redirect to sign in first. */
export async function signedInForm(ctx: RequestContext): Promise<{ callbackUrl: string; signedIn: SignedIn } | { redirect: string }> {
  requireAccountAdapter(ctx);
  requireCsrf(ctx);
  const callbackUrl = formCallbackUrl(ctx) ?? ctx.origin;
  const signedIn = await signedInSession(ctx);
  if (!signedIn) return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl }) };
  return { callbackUrl, signedIn };
}

/** Back on the form's page (`callbackUrl`) with `?error=` and `?code=`. */
export function formRefusal(ctx: RequestContext, callbackUrl: string, error: string, code: string): ResponseInternal {
  return { redirect: pageUrl(ctx, callbackUrl, "", { error, code }) };
}
