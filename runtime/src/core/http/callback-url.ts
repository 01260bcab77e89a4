/**
 * Where to send the user after sign-in or sign-out: the callback URL from the body,
 * the query or the callback-url cookie, through the `redirect` callback, with a
 * last check on what it returns. Never throws, never leaves the origin by default.
 */
import type { RequestContext } from "../context.js";
import { InvalidCallbackUrl } from "../errors/errors.js";
import { finalRedirect, sameOriginUrl } from "./redirect.js";

const MAX_CALLBACK_URL = 2048;

/** The callback URL the client asked for, if it is a usable string at all. */
export function requestedCallbackUrl(ctx: RequestContext): string | undefined {
  const candidates = [ctx.body.callbackUrl, ctx.query.get("callbackUrl"), ctx.cookies[ctx.cookieSet.callbackUrl.name]];
  for (const candidate of candidates) {
    if (typeof candidate === "string" && candidate.length > 0 && candidate.length <= MAX_CALLBACK_URL) return candidate;
  }
  return undefined;
}

/** The callback URL a form carried, if it is one of this site's: the page a form comes back to. */
export function formCallbackUrl(ctx: RequestContext): string | undefined {
  return sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? undefined;
}

export async function redirectTarget(ctx: RequestContext, requested = requestedCallbackUrl(ctx)): Promise<string> {
  const baseUrl = ctx.origin;
  try {
    const url = await ctx.config.callbacks.redirect({ url: requested ?? baseUrl, baseUrl });
    return finalRedirect(url, baseUrl);
  } catch (error) {
    ctx.config.logger.error(new InvalidCallbackUrl("The redirect callback threw; sending the user to the base URL.", error as Error));
    return finalRedirect(baseUrl, baseUrl);
  }
}
