/**
 * From errors to responses, by the row of each error's type in `error-table.ts`.
 * Every error is logged in full; the browser sees the public name of a
 * client-safe error, `Configuration` for a configuration problem, and
 * `ServerError` for anything else (the app's own code failed: not a configuration
 * problem, and never its message). A person's browser always lands on a page that
 * says what happened; a program gets JSON.
 */
import type { ResponseInternal } from "../../types.js";
import { renderError } from "../actions/pages.js";
import { requestedCallbackUrl } from "../http/callback-url.js";
import type { ResolvedConfig } from "../config/config.js";
import type { RequestContext } from "../context.js";
import { errorFacts, type ErrorFacts } from "./error-table.js";
import { AuthError, CredentialsSignin, InvalidRequest, ProviderNotSetUp, RateLimited, UnknownAction, Verification } from "./errors.js";
import type { WarningCode } from "../logger.js";
import { pageUrl } from "../guards.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";
import { PasswordHashingBusy } from "../password/gate.js";
import { sameOriginUrl } from "../http/redirect.js";
import { NO_STORE } from "../http/response.js";
import { isBrowserNavigation } from "../http/navigation.js";
import { publicOrigin } from "../http/public-origin.js";
import type { RequestUrl } from "../http/request-url.js";
import { JSON_ACTIONS } from "../http/router.js";

export const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs.";
const SERVER_ERROR_MESSAGE = "Something went wrong on the server. Check the server logs.";

/** The JSON `message`: a client-safe error's own, otherwise one that gives nothing away. */
function publicMessage(facts: ErrorFacts, err: Error): string {
  if (facts.shown === "client") return err.message;
  return facts.shown === "configuration" ? CONFIGURATION_MESSAGE : SERVER_ERROR_MESSAGE;
}

/** What an error answer needs of the request: a `RequestContext` is one; `errorTarget` makes one before there is a context. */
export type ErrorTarget = Pick<RequestContext, "request" | "origin" | "authUrl"> & { config: Pick<ResolvedConfig, "basePath" | "pages" | "theme"> };

/** The target of an error found before the action ran (an unknown path, an unreadable body). */
export function errorTarget(request: Request, requestUrl: RequestUrl, config: ResolvedConfig): ErrorTarget {
  const origin = publicOrigin(request.headers, requestUrl, config);
  return { request, origin, authUrl: `${origin}${config.basePath}`, config };
}

/**
 * 4xx for a malformed request (an unknown path, action or provider, an
 * unreadable body). A program gets `{error, message}` with the status; a
 * person's browser (`navigation.ts`) gets a page saying so: the app's error
 * page (`pages.error`, which cannot carry our status) or the built-in one with
 * the status kept.
 */
export function requestErrorResult(target: ErrorTarget, error: InvalidRequest | UnknownAction): ResponseInternal {
  const { status: typeStatus, publicName } = errorFacts(error.type);
  const status = error instanceof InvalidRequest ? error.status : typeStatus;
  if (!isBrowserNavigation(target.request.headers)) return { status, headers: NO_STORE, body: { error: publicName, message: error.message } };
  const custom = target.config.pages.error;
  if (custom && !servedByHandler(target, custom)) return { redirect: pageUrl(target, custom, "error", { error: publicName }) };
  return { ...renderError(target, publicName), status };
}

/** A custom page under the handler's base path would come back here: with an unknown path, for ever. */
function servedByHandler(target: ErrorTarget, page: string): boolean {
  const url = new URL(page, target.origin);
  const base = target.config.basePath;
  return url.origin === target.origin && (url.pathname === base || url.pathname.startsWith(`${base}/`));
}

/**
 * The warning for a refusal that is the visitor's doing, not the server's, with
 * its message at debug level, rather than an error line each time: a refused
 * credentials sign-in (a wrong email or password, or the app's own
 * `CredentialsSignin`) and a refused email link (`Verification`: used, expired,
 * incomplete or altered). None for anything else.
 */
function visitorRefusal(err: Error): { warning: WarningCode; debug: string; details: Record<string, string> } | undefined {
  if (err instanceof CredentialsSignin) return { warning: "credentials-signin-refused", debug: "credentials sign-in refused", details: { code: err.code, message: err.message } };
  if (err instanceof Verification) return { warning: "email-link-refused", debug: "email link refused", details: { message: err.message } };
  return undefined;
}

/** Logs the error a request ended with: a visitor's refusal as a warning (`visitorRefusal`), anything else as an error, in full. */
export function logFailure(ctx: Pick<RequestContext, "config">, err: Error): void {
  const { logger } = ctx.config;
  const refusal = visitorRefusal(err);
  if (!refusal) return logger.error(err);
  logger.warn(refusal.warning);
  logger.debug(refusal.debug, refusal.details);
}

export function errorResult(ctx: RequestContext, error: unknown): ResponseInternal {
  const err = error instanceof Error ? error : new Error(String(error));
  // Logged by the limiter, as a warning once per key and window: an error per refusal would flood the log.
  if (err instanceof RateLimited) return rateLimitedResult(ctx, err);
  // Too many password hashes at once (core/password/gate.ts): the same answer, to wait a moment.
  if (err instanceof PasswordHashingBusy) return rateLimitedResult(ctx, new RateLimited(err.message, err.retryAfter));
  logFailure(ctx, err);
  if (err instanceof InvalidRequest || err instanceof UnknownAction) return requestErrorResult(ctx, err);

  const facts = errorFacts(err instanceof AuthError ? err.type : undefined);
  if (JSON_ACTIONS.has(ctx.route.action)) {
    return { status: facts.status, headers: NO_STORE, body: { error: facts.publicName, message: publicMessage(facts, err) } };
  }
  // A page that fails renders the error page itself: redirecting could loop.
  if (ctx.route.method === "GET" && ctx.route.action !== "callback") return renderError(ctx, facts.publicName);

  const params: Record<string, string | undefined> = { error: facts.publicName };
  if (err instanceof CredentialsSignin) params.code = err.code;
  // In development the error page says how to set the provider up (see errorPage); production pages never do.
  if (err instanceof ProviderNotSetUp && ctx.config.development) params.provider = err.providerId;
  if (facts.page === "signIn") {
    params.callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? undefined;
    return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", params) };
  }
  return { redirect: pageUrl(ctx, ctx.config.pages.error, "error", params) };
}

/**
 * 429 with `Retry-After`, whoever asks: a redirect could not carry the status.
 * JSON callers get `{error, message}`; the client modules (which send
 * `X-Auth-Return-Redirect`) also get the sign-in page URL with
 * `error=RateLimited` to show; a browser's form post gets the built-in error
 * page saying how long to wait (also with a custom `pages.error`, which cannot
 * be answered with a status of ours).
 */
function rateLimitedResult(ctx: RequestContext, err: RateLimited): ResponseInternal {
  const retryAfter = { "Retry-After": String(err.retryAfter) };
  const { status, publicName } = errorFacts(err.type);
  if (JSON_ACTIONS.has(ctx.route.action)) {
    return { status, headers: { ...NO_STORE, ...retryAfter }, body: { error: publicName, message: err.message } };
  }
  if (ctx.redirectAsJson) {
    const callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? undefined;
    const url = pageUrl(ctx, ctx.config.pages.signIn, "signin", { error: publicName, callbackUrl });
    return { status, headers: { ...NO_STORE, ...retryAfter }, body: { url, error: publicName, message: err.message } };
  }
  return { status, headers: { ...PAGE_HEADERS, ...retryAfter }, body: renderError(ctx, publicName, err.retryAfter).body };
}
