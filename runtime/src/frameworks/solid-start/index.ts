/**
 * `@gatehouse/runtime/solid-start`: `GET` and `POST` for the catch-all route
 * `src/routes/api/auth/[...solidauth].ts`, `getSession` for server code, and a
 * request middleware that sends visitors of protected paths to sign-in. Works
 * with SolidStart 2 and 1.x: it only needs `event.request`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import type { SolidAuthConfig } from "@gatehouse/runtime/solid-start";
 * import { Credentials } from "@gatehouse/runtime/providers";
 * export const authConfig: SolidAuthConfig = { providers: [Credentials({ authorize: checkPassword })] };
 *
 * // src/routes/api/auth/[...solidauth].ts
 * import { SolidAuth } from "@gatehouse/runtime/solid-start";
 * import { authConfig } from "~/auth";
 * export const { GET, POST } = SolidAuth(authConfig);
 * ```
 */
import { authWithClientAddress } from "../../core/auth.js";
import { resolveConfigOrUndefined } from "../../core/config/config.js";
import { serializeCookie } from "../../core/http/cookies.js";
import type { AccountBody, AuthConfig, Session } from "../../types.js";
import { glueClientAddress } from "../client-address.js";
import { processEnv, readRequestAccount, readRequestSession } from "../session.js";
import { solidStartConfig, type SolidAuthConfig } from "./config.js";

export type { SolidAuthConfig } from "./config.js";
export { AuthError, CredentialsSignin, SessionUnavailable } from "../../core/errors/errors.js";
export type { Account, AccountBody, DefaultSession, ListedSession, Profile, Session, User } from "../../types.js";
// What @auth/sveltekit and @auth/solid-start export beside the handler, so an Auth.js app moves over by its imports alone.
export { customFetch } from "../../core/symbols.js";

/** What the handlers need of SolidStart's `APIEvent` / `FetchEvent`. */
export interface RequestEventLike {
  request: Request;
  /** SolidStart's response stub: cookies the session read re-issues are set on it. */
  response?: { headers: Headers };
  locals?: Record<string, unknown>;
  /** The client's address as SolidStart saw it (the per-address sign-in limit of `rateLimit` uses it). */
  clientAddress?: string;
}

export interface SolidAuthHandlers {
  GET: (event: RequestEventLike) => Promise<Response>;
  POST: (event: RequestEventLike) => Promise<Response>;
}

/** The handlers of the catch-all route. Every path under `prefix` is the handler's (unknown ones answer 400). */
export function SolidAuth(config: SolidAuthConfig): SolidAuthHandlers {
  const handler = (event: RequestEventLike) => {
    const authConfig = solidStartConfig(config, processEnv());
    return authWithClientAddress(event.request, authConfig, glueClientAddress(authConfig, event.request, event, solidStartClientAddress));
  };
  return { GET: handler, POST: handler };
}

/** SolidStart's `clientAddress`: h3's `getRequestIP`, the socket's address (it does not read X-Forwarded-For). */
function solidStartClientAddress(event: RequestEventLike): string | undefined {
  return event.clientAddress;
}

/** The spec's neutral name for the SolidStart integration. */
export const FrameworkAAuth = SolidAuth;
export type FrameworkAAuthConfig = SolidAuthConfig;

/** One session read per request (middleware, page and server functions may all ask). */
const readsByRequest = new WeakMap<Request, { config: SolidAuthConfig; session: Promise<Session | null> }>();

/**
 * The session of a request, or `null`, read once per request however often it
 * is asked for. Given SolidStart's event (e.g. `getRequestEvent()`) instead of a
 * bare `Request`, it also sets the re-issued session cookie on the response, so
 * the session's expiry slides as the user browses server-rendered pages. Throws
 * `SessionUnavailable` when the session cannot be read (the database is down):
 * a page must not take that for "signed out".
 */
export function getSession(requestOrEvent: Request | RequestEventLike, config: SolidAuthConfig): Promise<Session | null> {
  // Duck-typed: a Request has no `request`, and frameworks may bring their own Request class.
  const event = "request" in requestOrEvent ? requestOrEvent : undefined;
  const request = event ? event.request : (requestOrEvent as Request);
  const earlier = readsByRequest.get(request);
  if (earlier?.config === config) return earlier.session;
  const session = readSession(request, config, event);
  readsByRequest.set(request, { config, session });
  return session;
}

async function readSession(request: Request, config: SolidAuthConfig, event: RequestEventLike | undefined): Promise<Session | null> {
  const authConfig = solidStartConfig(config, processEnv());
  const { session, cookies } = await readRequestSession(request, authConfig, authConfig.basePath!);
  for (const cookie of event?.response ? cookies : []) event!.response!.headers.append("Set-Cookie", serializeCookie(cookie));
  return session;
}

/**
 * The signed-in user's account (the user, whether they have a password, their
 * sessions: see `GET <prefix>/account`), or `null` when nobody is signed in.
 * For an account page's server query. Throws `SessionUnavailable` when it
 * cannot be read (the adapter lacks a method, the database is down).
 *
 * @example
 * ```ts
 * const account = query(async () => {
 *   "use server";
 *   return getAccount(getRequestEvent()!, authConfig);
 * }, "account");
 * ```
 */
export function getAccount(requestOrEvent: Request | RequestEventLike, config: SolidAuthConfig): Promise<AccountBody | null> {
  const request = "request" in requestOrEvent ? requestOrEvent.request : requestOrEvent;
  const authConfig = solidStartConfig(config, processEnv());
  return readRequestAccount(request, authConfig, authConfig.basePath!);
}

/**
 * The absolute URL of the sign-in page (`<prefix>/signin`, or `page`) with
 * `callbackUrl`, on the public origin (`AUTH_URL`, else the request's). Redirect
 * to it from server functions: the router opens a relative `/api/...` target as
 * one of its own pages, and the built-in page is an API route, so it would show
 * nothing after a client-side navigation.
 *
 * @example
 * ```ts
 * if (!session?.user) throw redirect(signInUrl(event, authConfig, "/dashboard"), 303);
 * ```
 */
export function signInUrl(requestOrEvent: Request | RequestEventLike, config: SolidAuthConfig, callbackUrl?: string, page?: string): string {
  const request = "request" in requestOrEvent ? requestOrEvent.request : requestOrEvent;
  const authConfig = solidStartConfig(config, processEnv());
  const url = new URL(page ?? `${authConfig.basePath}/signin`, publicBase(authConfig) ?? request.url);
  if (callbackUrl !== undefined) url.searchParams.set("callbackUrl", callbackUrl);
  return url.href;
}

/**
 * The configured public URL, as the handler reads it. A config the handler
 * refuses (a malformed AUTH_URL among others) gives none: the sign-in page on the
 * request's own origin then answers the configuration error, where a `TypeError`
 * here would have been a bare 500 on every protected page.
 */
function publicBase(config: AuthConfig): URL | undefined {
  return resolveConfigOrUndefined(config)?.url;
}

export interface AuthMiddlewareOptions {
  /** Paths that need a session: prefixes (`"/account"` covers `/account/...`), patterns, or a test. */
  protectedPaths: readonly (string | RegExp)[] | ((pathname: string) => boolean);
  /** Where visitors without a session go; default the built-in page, `<prefix>/signin`. */
  signInPage?: string;
}

/**
 * An `onRequest` middleware (`createMiddleware({ onRequest: [authMiddleware(config, {...})] })`)
 * that answers a request for a protected path without a session with a 303 to
 * sign-in, carrying the page as `callbackUrl`. It puts the session on
 * `event.locals.session` for later code. Middleware sees full page loads only;
 * protect data in server functions too (`getSession` + `redirect`).
 */
export function authMiddleware(config: SolidAuthConfig, options: AuthMiddlewareOptions) {
  const isProtected = pathMatcher(options.protectedPaths);
  return async (event: RequestEventLike): Promise<Response | undefined> => {
    const url = new URL(event.request.url);
    if (!isProtected(url.pathname)) return undefined;
    const session = await getSession(event, config);
    if (event.locals) event.locals.session = session;
    if (session?.user) return undefined;
    const signInPage = options.signInPage ?? `${solidStartConfig(config, processEnv()).basePath}/signin`;
    const target = `${signInPage}?${new URLSearchParams({ callbackUrl: url.pathname + url.search })}`;
    return new Response(null, { status: 303, headers: { Location: target, "Cache-Control": "no-store" } });
  };
}

function pathMatcher(paths: AuthMiddlewareOptions["protectedPaths"]): (pathname: string) => boolean {
  if (typeof paths === "function") return paths;
  return (pathname) =>
    paths.some((path) =>
      typeof path === "string" ? pathname === path || pathname.startsWith(path.endsWith("/") ? path : `${path}/`) : path.test(pathname),
    );
}
