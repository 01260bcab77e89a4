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
import { errorResult, errorTarget, requestErrorResult } from "./errors/error-response.js";
import { CredentialsSignin, type InvalidRequest, type UnknownAction } from "./errors/errors.js";
import type { ClientAddressSource } from "./rate-limit/limit.js";
import { toResponse } from "./http/response.js";
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

async function respond(request: Request, config: AuthConfig, clientAddress: ClientAddressSource | undefined): Promise<Response | ResponseInternal> {
  if (config.raw !== undefined) return authRaw(request, config, false, clientAddress);
  let resolved: ResolvedConfig;
  try {
    resolved = resolveConfig(config);
  } catch (error) {
    return configErrorResponse(request, config, error as Error, false);
  }
  const { result, redirectAsJson } = await handle(request, resolved, false, clientAddress);
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
  return (await handle(request, resolved, throwCredentialsErrors, clientAddress)).result;
}

async function handle(
  request: Request,
  config: ResolvedConfig,
  throwCredentialsErrors: boolean,
  clientAddress: ClientAddressSource | undefined,
): Promise<{ result: ResponseInternal; redirectAsJson: boolean }> {
  const url = new URL(request.url);
  let matched: Route;
  let body: RequestBody = {};
  try {
    matched = route(url.pathname, request.method, config.basePath);
    if (matched.method === "POST") body = checkReservedFields(await readBody(request));
  } catch (error) {
    const rejected = error as UnknownAction | InvalidRequest;
    config.logger.debug("rejected request", { path: url.pathname, method: request.method, reason: rejected.message });
    return { result: requestErrorResult(errorTarget(request, url, config), rejected), redirectAsJson: false };
  }
  const ctx = createContext(config, request, url, matched, body, clientAddress);
  config.logger.debug(`${matched.method} ${matched.action}`, { provider: matched.providerId });
  let result: ResponseInternal;
  try {
    result = await HANDLERS[`${matched.method} ${matched.action}`]!(ctx);
  } catch (error) {
    if (throwCredentialsErrors && error instanceof CredentialsSignin) {
      config.logger.error(error);
      throw error;
    }
    result = errorResult(ctx, error);
  }
  // Whichever action used the CSRF token, a new or re-signed cookie goes out with the answer.
  const csrfCookie = ctx.csrfCookie();
  if (csrfCookie) result = { ...result, cookies: [...(result.cookies ?? []), csrfCookie] };
  return { result, redirectAsJson: ctx.redirectAsJson };
}
