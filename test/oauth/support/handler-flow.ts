/**
 * Drives our handler through an OAuth sign-in the way a browser would: POST
 * signin/<id> (with the CSRF token), follow the redirect to the provider with the
 * provider's user agent, then bring the provider's answer back to the callback
 * (a redirect, or a form_post page, which a browser posts cross-site and so
 * without our SameSite=Lax cookies).
 */
import type { AuthConfig } from "@gatehouse/runtime";
import { call, CookieJar, csrfToken, locationOf } from "../../helpers.js";
import { ProviderUserAgent, type AuthorizeOptions, type AuthorizeResult } from "./user-agent.js";

export interface StartedSignIn {
  response: Response;
  /** The authorization URL the handler redirected to. */
  authorizationUrl: URL;
}

/** `POST /auth/signin/<id>`; `query` is appended to the sign-in URL (allow-listed authorization params). */
export async function startSignIn(
  config: AuthConfig,
  jar: CookieJar,
  providerId: string,
  options: { callbackUrl?: string; query?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<StartedSignIn> {
  const token = await csrfToken(config, jar);
  const search = options.query ? `?${new URLSearchParams(options.query)}` : "";
  const form: Record<string, string> = { csrfToken: token, ...options.form };
  if (options.callbackUrl) form.callbackUrl = options.callbackUrl;
  const response = await call(config, `/auth/signin/${providerId}${search}`, { jar, form });
  if (response.status !== 302) throw new Error(`sign-in did not redirect (status ${response.status}): ${await response.text()}`);
  return { response, authorizationUrl: locationOf(response) };
}

/** The path + query of an absolute callback URL, for `call()`. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * Brings the provider's answer to the handler. A form_post answer is posted
 * without cookies (cross-site), then the handler's 303 is followed with them.
 */
export async function returnToCallback(config: AuthConfig, jar: CookieJar, result: AuthorizeResult): Promise<Response> {
  if (result.callbackUrl !== undefined) return call(config, pathOf(result.callbackUrl), { jar });
  const posted = await call(config, pathOf(result.formPost.action), { form: result.formPost.fields });
  if (posted.status !== 303) return posted;
  return call(config, pathOf(locationOf(posted).href), { jar });
}

export interface SignInResult {
  started: StartedSignIn;
  provider: AuthorizeResult;
  callback: Response;
}

/** The whole sign-in: start, log in at the provider as `login`, return to the callback. */
export async function signInThroughProvider(
  config: AuthConfig,
  jar: CookieJar,
  providerId: string,
  authorizeOptions: AuthorizeOptions,
  options: { callbackUrl?: string; agent?: ProviderUserAgent; query?: Record<string, string> } = {},
): Promise<SignInResult> {
  const started = await startSignIn(config, jar, providerId, options);
  const agent = options.agent ?? new ProviderUserAgent();
  const provider = await agent.authorize(started.authorizationUrl, authorizeOptions);
  const callback = await returnToCallback(config, jar, provider);
  return { started, provider, callback };
}
