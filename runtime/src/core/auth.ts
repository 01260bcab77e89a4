/**
 * `Auth(request, config)`: resolve the config (cached), route the action, read the
 * body, run the action, and build the one `Response`.
 */
import type { AuthConfig, ResponseInternal } from "../types.js";
import {
  accountAction,
  deleteAccountAction,
  removePasskeyAction,
  renamePasskeyAction,
  revokeOtherSessionsAction,
  revokeSessionAction,
  unlinkAccountAction,
  updateProfileAction,
} from "./actions/account.js";
import { callbackAction } from "./actions/callback.js";
import { csrfAction } from "./actions/csrf.js";
import { errorPage, verifyRequestPage } from "./actions/pages.js";
import { providersAction } from "./actions/providers.js";
import { changePasswordAction, forgotPasswordAction, resetPasswordAction, signUpAction } from "./actions/password.js";
import { sessionAction } from "./actions/session.js";
import { signInPage, signInPost } from "./actions/signin.js";
import { signOutPage, signOutPost } from "./actions/signout.js";
import { webauthnOptionsAction } from "./actions/webauthn-options.js";
import { checkReservedFields, readBody, type RequestBody } from "./http/body.js";
import { resolveConfig, type ResolvedConfig } from "./config/config.js";
import { createContext, type RequestContext } from "./context.js";
import { configErrorResponse } from "./config/config-error.js";
import { errorResult, errorTarget, logFailure, requestErrorResult } from "./errors/error-response.js";
import { CredentialsSignin, type InvalidRequest, type UnknownAction } from "./errors/errors.js";
import type { ClientAddressSource } from "./rate-limit/limit.js";
import { toResponse } from "./http/response.js";
import { requestUrl, type RequestUrl } from "./http/request-url.js";
import { route, type Route } from "./http/router.js";
import type { raw } from "./symbols.js";

type Handler = (ctx: RequestContext) => ResponseInternal | Promise<ResponseInternal>;

const HANDLERS: Record<string, Handler> = {
  "GET account": accountAction,
  "GET callback": callbackAction,
  "POST callback": callbackAction,
  "POST change-password": changePasswordAction,
  "GET csrf": csrfAction,
  "POST delete-account": deleteAccountAction,
  "GET error": errorPage,
  "GET forgot-password": forgotPasswordAction,
  "POST forgot-password": forgotPasswordAction,
  "GET providers": providersAction,
  "POST remove-passkey": removePasskeyAction,
  "POST rename-passkey": renamePasskeyAction,
  "GET reset-password": resetPasswordAction,
  "POST reset-password": resetPasswordAction,
  "POST revoke-other-sessions": revokeOtherSessionsAction,
  "POST revoke-session": revokeSessionAction,
  "GET session": sessionAction,
  "POST session": sessionAction,
  "GET signin": signInPage,
  "POST signin": signInPost,
  "GET signout": signOutPage,
  "POST signout": signOutPost,
  "GET signup": signUpAction,
  "POST signup": signUpAction,
  "POST unlink-account": unlinkAccountAction,
  "POST update-profile": updateProfileAction,
  "GET verify-request": verifyRequestPage,
  "GET webauthn-options": webauthnOptionsAction,
};

/**
 * The auth handler. Give it every request under `basePath` (default `/auth`).
 *
 * @example
 * ```ts
 * import { Auth, setEnvDefaults } from "@gatehouse/runtime";
 * import { Credentials } from "@gatehouse/runtime/providers";
 *
 * const config = setEnvDefaults(process.env, { providers: [Credentials({ authorize: checkPassword })] });
 * const response = await Auth(request, config);
 * ```
 */
export async function Auth(request: Request, config: AuthConfig & { raw: typeof raw }): Promise<ResponseInternal>;
export async function Auth(request: Request, config: Omit<AuthConfig, "raw">): Promise<Response>;
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  return respond(request, config, undefined);
}

/**
 * `Auth` as our framework glue calls it: with the client's address the
 * framework knows, which core cannot see in a `Request` (read only when
 * `rateLimit` is on). Not exported from the package.
 */
export function authWithClientAddress(
  request: Request,
  config: Omit<AuthConfig, "raw">,
  clientAddress: ClientAddressSource | undefined,
): Promise<Response> {
  return respond(request, config as AuthConfig, clientAddress) as Promise<Response>;
}

function respond(request: Request, config: AuthConfig, clientAddress: ClientAddressSource | undefined): Promise<Response | ResponseInternal> {
  if (config.raw !== undefined) return authRaw(request, config, false, clientAddress);
  let resolved: ResolvedConfig;
  try {
    resolved = resolveConfig(config);
  } catch (error) {
    return Promise.resolve(configErrorResponse(request, config, error as Error, false));
  }
  try {
    return Promise.resolve(whenHandled(handle(request, resolved, { raw: false, throwCredentialsErrors: false, clientAddress }), toResponseOf));
  } catch (error) {
    return Promise.reject(error);
  }
}

function toResponseOf({ result, redirectAsJson }: Handled): Response {
  return toResponse(result, redirectAsJson);
}

/**
 * The result value instead of a `Response`, for framework glue that sets cookies
 * and redirects its own way; `Auth` with `raw` in the config does the same, with
 * errors as values. With `throwCredentialsErrors` a refused credentials sign-in
 * is thrown instead (after it is logged), as the spec asks of frameworks whose
 * form actions run on the server: the action turns it into a form error.
 */
export async function authRaw(
  request: Request,
  config: AuthConfig,
  throwCredentialsErrors = false,
  clientAddress?: ClientAddressSource,
): Promise<ResponseInternal> {
  let resolved: ResolvedConfig;
  try {
    resolved = resolveConfig(config);
  } catch (error) {
    return configErrorResponse(request, config, error as Error, true) as ResponseInternal;
  }
  return whenHandled(handle(request, resolved, { raw: true, throwCredentialsErrors, clientAddress }), ({ result }) => result);
}

interface Handled {
  result: ResponseInternal;
  redirectAsJson: boolean;
}

interface HandleOptions {
  /** The caller takes the result value (`authRaw`), not a `Response`. */
  raw: boolean;
  throwCredentialsErrors: boolean;
  clientAddress: ClientAddressSource | undefined;
}

/**
 * Routes the request, reads a POST's body and runs the action. An action that
 * answers without waiting (a session read with all it needs at hand, see
 * actions/session.ts) is answered without a promise on the way: the one the
 * caller returns is all a request pays for.
 */
function handle(request: Request, config: ResolvedConfig, options: HandleOptions): Handled | Promise<Handled> {
  const url = requestUrl(request.url);
  let matched: Route;
  try {
    matched = route(url.pathname, request.method, config.basePath);
  } catch (error) {
    return rejectedRequest(request, url, config, error);
  }
  const run = (body: RequestBody) =>
    runAction(createContext(config, request, url, matched, body, options.clientAddress, options.raw), options.throwCredentialsErrors);
  if (matched.method !== "POST") return run({});
  return readCheckedBody(request).then(run, (error: unknown) => rejectedRequest(request, url, config, error));
}

async function readCheckedBody(request: Request): Promise<RequestBody> {
  return checkReservedFields(await readBody(request));
}

/** An unknown action, or a body the handler cannot read: answered before any action runs. */
function rejectedRequest(request: Request, url: RequestUrl, config: ResolvedConfig, error: unknown): Handled {
  const rejected = error as UnknownAction | InvalidRequest;
  config.logger.debug("rejected request", { path: url.pathname, method: request.method, reason: rejected.message });
  return { result: requestErrorResult(errorTarget(request, url, config), rejected), redirectAsJson: false };
}

function runAction(ctx: RequestContext, throwCredentialsErrors: boolean): Handled | Promise<Handled> {
  const { config, route: matched } = ctx;
  config.logger.debug(`${matched.method} ${matched.action}`, { provider: matched.providerId });
  const failed = (error: unknown) => finished(ctx, actionError(ctx, error, throwCredentialsErrors));
  let pending: ResponseInternal | Promise<ResponseInternal>;
  try {
    pending = HANDLERS[`${matched.method} ${matched.action}`]!(ctx);
  } catch (error) {
    return failed(error);
  }
  return pending instanceof Promise ? pending.then((result) => finished(ctx, result), failed) : finished(ctx, pending);
}

/** What a failed action answers; a refused credentials sign-in is thrown instead when the glue asked for that. */
function actionError(ctx: RequestContext, error: unknown, throwCredentialsErrors: boolean): ResponseInternal {
  if (throwCredentialsErrors && error instanceof CredentialsSignin) {
    logFailure(ctx, error);
    throw error;
  }
  return errorResult(ctx, error);
}

function finished(ctx: RequestContext, result: ResponseInternal): Handled {
  // Whichever action used the CSRF token, a new or re-signed cookie goes out with the answer.
  const csrfCookie = ctx.csrfCookie();
  if (csrfCookie) result = { ...result, cookies: [...(result.cookies ?? []), csrfCookie] };
  return { result, redirectAsJson: ctx.redirectAsJson };
}

/** `then` for a value that may or may not be a promise yet. */
function whenHandled<T>(handled: Handled | Promise<Handled>, next: (handled: Handled) => T): T | Promise<T> {
  return handled instanceof Promise ? handled.then(next) : next(handled);
}
