/** Checks shared by several actions. */
import type { RequestContext } from "./context.js";
import { MissingCSRF, UnknownAction } from "./errors.js";
import type { ResolvedProvider } from "./providers.js";

/** Throws `MissingCSRF` unless the body echoes the token of a valid CSRF cookie (or the check is off). */
export function requireCsrf(ctx: RequestContext): void {
  if (!ctx.config.csrfCheck) return;
  const { verified } = ctx.csrf();
  ctx.config.logger.debug("CSRF check", { action: ctx.route.action, verified });
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
export function pageUrl(ctx: RequestContext, custom: string | undefined, builtIn: string, params?: Record<string, string | undefined>): string {
  const url = new URL(custom ?? `${ctx.config.basePath}/${builtIn}`, ctx.origin);
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}
