/**
 * Everything one request needs, computed once: the public origin, the cookie set
 * for its scheme, the parsed cookies, the action. Per request, never shared.
 */
import type { Cookie } from "../types.js";
import type { RequestBody } from "./http/body.js";
import type { ResolvedConfig } from "./config/config.js";
import { parseCookies, type CookieSet } from "./http/cookies.js";
import { csrfCookieValue, newCsrfToken, readCsrfCookie, timingSafeEqual } from "./http/csrf.js";
import { publicOrigin } from "./http/public-origin.js";
import type { ClientAddressSource } from "./rate-limit/limit.js";
import type { RequestUrl } from "./http/request-url.js";
import type { Route } from "./http/router.js";

export interface RequestContext {
  config: ResolvedConfig;
  request: Request;
  route: Route;
  /** Public origin of the app, e.g. `https://example.com`; the base of every redirect. */
  origin: string;
  /** `origin` + basePath. */
  authUrl: string;
  secure: boolean;
  cookieSet: CookieSet;
  cookies: Record<string, string>;
  query: URLSearchParams;
  body: RequestBody;
  /** The caller asked for `200 {url}` instead of a redirect (`X-Auth-Return-Redirect: 1`). */
  redirectAsJson: boolean;
  /** The CSRF token of this request, computed on first use. */
  csrf: () => CsrfState;
  /** The CSRF cookie to (re)issue, if `csrf()` was used and the cookie was absent, forged or made with an older secret. */
  csrfCookie: () => Cookie | undefined;
  /** The client's address as the framework glue knows it; only with `rateLimit` on. */
  clientAddress?: ClientAddressSource;
  /**
   * The caller takes the action's result as a value (`authRaw`: framework glue, `raw`
   * configs), not as a `Response`: a JSON body must be the value itself, never its text.
   */
  raw: boolean;
}

export interface CsrfState {
  token: string;
  /** Set when the cookie must be (re)issued. */
  cookie?: Cookie;
  /** The request's body carried the token of a valid cookie. */
  verified: boolean;
}

export function createContext(
  config: ResolvedConfig,
  request: Request,
  requestUrl: RequestUrl,
  route: Route,
  body: RequestBody,
  clientAddress?: ClientAddressSource,
  raw = false,
): RequestContext {
  const origin = publicOrigin(request.headers, requestUrl, config);
  const secure = config.useSecureCookies ?? origin.startsWith("https:");
  const cookieSet = config.cookies(secure);
  const cookies = parseCookies(request.headers.get("cookie"));
  let csrf: CsrfState | undefined;
  const ctx: RequestContext = {
    config,
    request,
    route,
    origin,
    authUrl: `${origin}${config.basePath}`,
    secure,
    cookieSet,
    cookies,
    // A data property, not a lazy getter: a getter closing over this request gives every context a
    // hidden class of its own, which made a busy server's garbage collection several times dearer.
    query: requestUrl.searchParams,
    body,
    redirectAsJson: request.headers.get("x-auth-return-redirect") === "1",
    csrf: () => (csrf ??= csrfState(ctx)),
    csrfCookie: () => csrf?.cookie,
    clientAddress,
    raw,
  };
  return ctx;
}

function csrfState(ctx: RequestContext): CsrfState {
  const { config, cookieSet } = ctx;
  const existing = readCsrfCookie(ctx.cookies[cookieSet.csrfToken.name], config.secrets);
  const submitted = ctx.body.csrfToken;
  const verified =
    existing !== null && typeof submitted === "string" && timingSafeEqual(submitted, existing.token);
  if (existing && !existing.stale) return { token: existing.token, verified };
  const token = existing?.token ?? newCsrfToken();
  const cookie: Cookie = {
    name: cookieSet.csrfToken.name,
    value: csrfCookieValue(token, config.secrets[0]!),
    options: cookieSet.csrfToken.options,
  };
  return { token, cookie, verified };
}
