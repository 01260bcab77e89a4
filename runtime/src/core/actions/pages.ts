/** `GET error` and `GET verify-request`: built-in pages, or redirects to the app's own. */
import { renderErrorPage, renderVerifyRequestPage } from "../../pages/index.js";
import type { ProviderSetupHint } from "../../pages/types.js";
import { findProvider } from "../../providers/catalog.js";
import { missingCredentials } from "../oauth/server.js";
import type { ResponseInternal } from "../../types.js";
import type { ResolvedConfig } from "../config/config.js";
import type { RequestContext } from "../context.js";
import { pageUrl } from "../guards.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";

export function errorPage(ctx: RequestContext): ResponseInternal {
  const error = ctx.query.get("error") ?? undefined;
  if (ctx.config.pages.error) return { redirect: pageUrl(ctx, ctx.config.pages.error, "error", { error }) };
  return renderError(ctx, error, undefined, error === "Configuration" ? providerSetup(ctx, ctx.query.get("provider")) : undefined);
}

/**
 * In development, for `?provider=<id>` of a configured OAuth provider that lacks
 * its client id or secret: what to set and where to get it. Everything shown
 * comes from the config and the catalog, never from the query, which only picks
 * the provider; production shows none of it.
 */
function providerSetup(ctx: RequestContext, id: string | null): ProviderSetupHint | undefined {
  if (!ctx.config.development || id === null) return undefined;
  const provider = ctx.config.providerById.get(id);
  if (!provider?.oauth) return undefined;
  const envKeys = missingCredentials(provider.oauth, provider.id);
  if (envKeys.length === 0) return undefined;
  const setupUrl = findProvider(provider.id)?.setupUrl;
  return { name: provider.name, envKeys, callbackUrl: `${ctx.authUrl}/callback/${encodeURIComponent(provider.id)}`, ...(setupUrl ? { setupUrl } : {}) };
}

/** The built-in error page; also the answer when a page action itself fails, so there is no redirect loop. */
export function renderError(
  ctx: Pick<RequestContext, "authUrl" | "origin"> & { config: Pick<ResolvedConfig, "theme"> },
  error: string | undefined,
  retryAfter?: number,
  providerSetup?: ProviderSetupHint,
): ResponseInternal {
  const { status, html } = renderErrorPage({
    error,
    signinUrl: `${ctx.authUrl}/signin`,
    homeUrl: ctx.origin,
    theme: ctx.config.theme,
    retryAfter,
    providerSetup,
  });
  return { status, headers: PAGE_HEADERS, body: html };
}

/** Which mail `verify-request` was sent after: `?type=sign-up` and `?type=password-reset` come from a Password provider. */
const MAIL_KINDS = new Map([
  ["sign-up", "sign-up"],
  ["password-reset", "password-reset"],
] as const);

export function verifyRequestPage(ctx: RequestContext): ResponseInternal {
  const type = ctx.query.get("type") ?? undefined;
  const provider = ctx.query.get("provider") ?? undefined;
  if (ctx.config.pages.verifyRequest) return { redirect: pageUrl(ctx, ctx.config.pages.verifyRequest, "verify-request", { provider, type }) };
  const kind = MAIL_KINDS.get(type as "sign-up") ?? "sign-in";
  const html = renderVerifyRequestPage({ host: new URL(ctx.origin).host, homeUrl: ctx.origin, kind, theme: ctx.config.theme });
  return { headers: PAGE_HEADERS, body: html };
}
