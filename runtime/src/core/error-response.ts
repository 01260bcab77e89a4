/**
 * The one table from errors to responses. Every error is logged in full; the
 * browser sees the type of a client-safe error, `Configuration` for a
 * configuration problem, and the generic error page for anything else.
 */
import type { ResponseInternal } from "../types.js";
import { renderError } from "./actions/pages.js";
import { requestedCallbackUrl } from "./callback-url.js";
import type { RequestContext } from "./context.js";
import { CredentialsSignin, InvalidRequest, UnknownAction, isClientSafe, publicErrorType } from "./errors.js";
import { pageUrl } from "./guards.js";
import { sameOriginUrl } from "./redirect.js";
import { NO_STORE } from "./response.js";
import { JSON_ACTIONS } from "./router.js";

const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs.";
const SERVER_ERROR_MESSAGE = "Something went wrong on the server. Check the server logs.";


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
  const type = publicErrorType(err);
  if (JSON_ACTIONS.has(ctx.route.action)) {
    const message = clientSafe ? err.message : type ? CONFIGURATION_MESSAGE : SERVER_ERROR_MESSAGE;
    const status = clientSafe ? (STATUS_OF_CLIENT_TYPE[err.type] ?? 400) : 500;
    return { status, headers: NO_STORE, body: { error: type ?? "ServerError", message } };
  }
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
