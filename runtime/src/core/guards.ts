/** Checks shared by several actions. */
import type { ResolvedConfig } from "./config/config.js";
import type { RequestContext } from "./context.js";
import { MissingCSRF, UnknownAction } from "./errors/errors.js";
import type { ResolvedProvider } from "./config/providers.js";
import { checkRequestOrigin } from "./http/request-origin.js";

/**
 * Throws `MissingCSRF` unless the request comes from the app's own pages (or the
 * check is off): its `Origin` / `Sec-Fetch-Site` must not name another origin
 * (`request-origin.ts`), and its body must echo the token of a valid CSRF cookie.
 * The token alone is not enough where an attacker can plant a cookie (plain
 * http, a sibling subdomain): the server hands a valid pair to anyone.
 */
export function requireCsrf(ctx: RequestContext): void {
  if (!ctx.config.csrfCheck) return;
  const site = checkRequestOrigin(ctx.request.headers, ctx.origin);
  if (!site.allowed) {
    throw new MissingCSRF(`The ${ctx.route.action} request was refused: ${site.reason}. Forms must be posted from the app's own pages.`);
  }
  const { verified } = ctx.csrf();
  ctx.config.logger.debug("CSRF check", { action: ctx.route.action, verified, origin: site.by });
  if (!verified) {
    throw new MissingCSRF(
      `The ${ctx.route.action} request has no valid CSRF token: send the token from GET ${ctx.config.basePath}/csrf as "csrfToken", with the cookie it set.`,
    );
  }
}

/** The provider named in the path; an unknown id is an unknown path (400) whose message lists the configured ones. */
export function pathProvider(ctx: RequestContext): ResolvedProvider {
  const id = ctx.route.providerId;
  const provider = id === undefined ? undefined : ctx.config.providerById.get(id);
  if (!provider) {
    const known = [...ctx.config.providerById.keys()];
    throw new UnknownAction(
      `No provider with id ${JSON.stringify(id ?? "")} is configured${known.length ? ` (configured: ${known.join(", ")})` : ""}.`,
    );
  }
  return provider;
}

/** URL of a page: the app's own (`pages` option) or the built-in one, with query parameters. */
export function pageUrl(ctx: Pick<RequestContext, "origin"> & { config: Pick<ResolvedConfig, "basePath"> }, custom: string | undefined, builtIn: string, params?: Record<string, string | undefined>): string {
  const url = new URL(custom ?? `${ctx.config.basePath}/${builtIn}`, ctx.origin);
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}
