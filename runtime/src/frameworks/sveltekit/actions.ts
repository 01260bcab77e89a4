/**
 * The `signIn` and `signOut` form actions. They run the handler in-process (no
 * HTTP round trip), copy its cookies onto SvelteKit's `event.cookies` and answer
 * with SvelteKit's `redirect`. A refused credentials sign-in is thrown to the
 * action (the spec's rule for server-side form actions): catch `CredentialsSignin`
 * and return `fail(...)`, and let everything else — SvelteKit's redirect
 * included — propagate.
 */
import { error, redirect, type RequestEvent } from "@sveltejs/kit";
import { authRaw } from "../../core/auth.js";
import { resolveConfigOrUndefined } from "../../core/config/config.js";
import { CONFIGURATION_MESSAGE } from "../../core/errors/error-response.js";
import type { AuthConfig, Cookie, ResponseInternal } from "../../types.js";
import { glueClientAddress } from "../client-address.js";

/** Form fields the actions read themselves; everything else goes to the provider (e.g. credentials). */
const PROVIDER_FIELD = "providerId";
const REDIRECT_FIELD = "redirectTo";
/**
 * `authorizationParams-login_hint` and the like (what Auth.js's SignIn component
 * sends): they go to the handler as the sign-in's query, where the provider's
 * `allowedAuthorizationParams` decides which reach the authorization URL.
 */
const AUTHORIZATION_PARAM_PREFIX = "authorizationParams-";
/** The handler's status for a sign-in refused by `rateLimit` (the only 429 it answers). */
const RATE_LIMITED = 429;

export async function signInAction(event: RequestEvent, config: AuthConfig): Promise<never> {
  const fields = await formFields(event);
  const providerId = fields.get(PROVIDER_FIELD) ?? "";
  const redirectTo = fields.get(REDIRECT_FIELD) ?? pageRedirectTarget(event);
  fields.delete(PROVIDER_FIELD);
  fields.delete(REDIRECT_FIELD);
  const basePath = config.basePath!;
  if (!providerId) {
    // No provider chosen: the built-in page lists them all.
    redirect(303, `${basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`);
  }
  const action = providerType(config, providerId) === "credentials" ? "callback" : "signin";
  fields.set("callbackUrl", redirectTo);
  const query = new URLSearchParams();
  for (const [name, value] of fields) {
    if (!name.startsWith(AUTHORIZATION_PARAM_PREFIX)) continue;
    query.set(name.slice(AUTHORIZATION_PARAM_PREFIX.length), value);
    fields.delete(name);
  }
  const path = `${basePath}/${action}/${encodeURIComponent(providerId)}${query.size > 0 ? `?${query}` : ""}`;
  const request = handlerPost(event, path, fields);
  const result = await authRaw(request, config, true, glueClientAddress(config, event.request, event, svelteKitClientAddress));
  return finish(event, result, config);
}

/** SvelteKit's view of the client (adapter-node honours its ADDRESS_HEADER); none where the adapter cannot tell. */
export function svelteKitClientAddress(event: RequestEvent): string | undefined {
  try {
    return event.getClientAddress();
  } catch {
    // Prerendering, or an adapter without getClientAddress: only the per-identifier limit applies.
    return undefined;
  }
}

export async function signOutAction(event: RequestEvent, config: AuthConfig): Promise<never> {
  const fields = await formFields(event);
  const body = new URLSearchParams({ callbackUrl: fields.get(REDIRECT_FIELD) ?? pageRedirectTarget(event, "/") });
  const result = await authRaw(handlerPost(event, `${config.basePath}/signout`, body), config);
  return finish(event, result, config);
}

/** Copies the handler's cookies onto SvelteKit's response. */
export function setCookies(event: RequestEvent, cookies: readonly Cookie[]): void {
  for (const { name, value, options } of cookies) {
    event.cookies.set(name, value, { ...options, path: options.path ?? "/" });
  }
}

function finish(event: RequestEvent, result: ResponseInternal, config: AuthConfig): never {
  setCookies(event, result.cookies ?? []);
  if (result.status === RATE_LIMITED) rateLimited(event, result);
  // A config the handler refuses (logged there) is answered with its error page, not a redirect: say so, rather than send the user home as if it had worked.
  if (result.redirect === undefined && (result.status ?? 200) >= 500) error(500, { message: resolveConfigOrUndefined(config) === undefined ? CONFIGURATION_MESSAGE : "Something went wrong. Check the server logs." });
  // The handler answers every other sign-in and sign-out with a redirect, errors included (to the error page).
  redirect(303, result.redirect ?? "/");
}


/**
 * A sign-in refused by `rateLimit`: SvelteKit's own 429 (the app's error page
 * shows the message), with `Retry-After`. An action that wants a form message
 * instead catches it: `if (isHttpError(e, 429)) return fail(429, { error: e.body.message })`.
 */
function rateLimited(event: RequestEvent, result: ResponseInternal): never {
  const retryAfter = new Headers(result.headers).get("retry-after");
  try {
    if (retryAfter) event.setHeaders({ "retry-after": retryAfter });
  } catch {
    // Set already by the app's own code: its value stands.
  }
  error(RATE_LIMITED, { message: "Too many sign-in attempts. Please wait a few minutes and try again." });
}

async function formFields(event: RequestEvent): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  const form = await event.request.formData();
  for (const [name, value] of form) {
    if (typeof value === "string" && !fields.has(name)) fields.set(name, value);
  }
  return fields;
}

/** Where to go after signing in when the form does not say: the page's `redirectTo` or `callbackUrl` query, else the home page. */
function pageRedirectTarget(event: RequestEvent, fallback = "/"): string {
  return event.url.searchParams.get(REDIRECT_FIELD) ?? event.url.searchParams.get("callbackUrl") ?? fallback;
}

/** A broken config has none: the handler reports it itself on the request below. */
function providerType(config: AuthConfig, providerId: string): string | undefined {
  return resolveConfigOrUndefined(config)?.providerById.get(providerId)?.type;
}

/**
 * The request the handler sees: a same-origin form POST carrying the browser's
 * cookies. The CSRF token is not needed: SvelteKit checked the form's origin.
 */
function handlerPost(event: RequestEvent, path: string, body: Map<string, string> | URLSearchParams): Request {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  const cookie = event.request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  return new Request(new URL(path, event.url), { method: "POST", headers, body: new URLSearchParams([...body]) });
}
