/**
 * The one table from errors to responses. Every error is logged in full; the
 * browser sees only the type of a client-safe error, anything else as
 * `Configuration`.
 */
import type { ResponseInternal } from "../types.js";
import { renderError } from "./actions/pages.js";
import { requestedCallbackUrl } from "./callback-url.js";
import type { RequestContext } from "./context.js";
import { AuthError, CredentialsSignin, InvalidRequest, UnknownAction, isClientSafe } from "./errors.js";
import { pageUrl } from "./guards.js";
import { sameOriginUrl } from "./redirect.js";
import { NO_STORE } from "./response.js";

/** Actions that answer JSON rather than a page or a redirect. */
const JSON_ACTIONS = new Set(["session", "csrf", "providers", "webauthn-options"]);

const STATUS_OF_CLIENT_TYPE: Record<string, number> = {
  AccessDenied: 403,
  Verification: 403,
};

/** 4xx for a malformed request: answered as JSON on every action. */
export function requestErrorResult(error: InvalidRequest | UnknownAction): ResponseInternal {
  const status = error instanceof InvalidRequest ? error.status : 400;
  return { status, headers: NO_STORE, body: { error: error.type, message: error.message } };
}

export function errorResult(ctx: RequestContext, error: unknown): ResponseInternal {
  const err = error instanceof Error ? error : new Error(String(error));
  ctx.config.logger.error(err);
  if (err instanceof InvalidRequest || err instanceof UnknownAction) return requestErrorResult(err);

  const clientSafe = isClientSafe(err);
  const type = clientSafe ? err.type : "Configuration";
  if (JSON_ACTIONS.has(ctx.route.action)) {
    const status = clientSafe ? (STATUS_OF_CLIENT_TYPE[type] ?? 400) : err instanceof AuthError && err.type === "InvalidProvider" ? 400 : 500;
    const message = clientSafe || status === 400 ? err.message : "There is a problem with the server configuration. Check the server logs.";
    return { status, headers: NO_STORE, body: { error: status === 500 ? "Configuration" : (err as AuthError).type, message } };
  }
  if (err instanceof AuthError && err.type === "InvalidProvider") return requestErrorResult(new InvalidRequest(err.message));
  // A page that fails renders the error page itself: redirecting could loop.
  if (ctx.route.method === "GET" && ctx.route.action !== "callback") return renderError(ctx, type);

  const params: Record<string, string | undefined> = { error: type };
  if (err instanceof CredentialsSignin) params.code = err.code;
  if (clientSafe && err.kind === "signIn") {
    params.callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? undefined;
    return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", params) };
  }
  return { redirect: pageUrl(ctx, ctx.config.pages.error, "error", params) };
}
