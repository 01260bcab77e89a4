/**
 * `@gatehouse/runtime/sveltekit`: one `handle` hook serves the auth routes and
 * gives every request `event.locals.auth()`; `signIn` and `signOut` are form
 * actions for the app's `/signin` and `/signout` routes.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@gatehouse/runtime/sveltekit";
 * import { Credentials } from "@gatehouse/runtime/providers";
 *
 * export const { handle, signIn, signOut } = SvelteKitAuth({
 *   providers: [Credentials({ authorize: checkPassword })],
 * });
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth";
 * ```
 */
import type { Handle, RequestEvent } from "@sveltejs/kit";
import { env } from "$env/dynamic/private";
import { base } from "$app/paths";
import { dev } from "$app/environment";
import { authWithClientAddress } from "../../core/auth.js";
import { checkRequestOrigin } from "../../core/http/request-origin.js";
import { isAuthPath, route } from "../../core/http/router.js";
import { resolveConfigOrUndefined } from "../../core/config/config.js";
import type { AccountBody, AuthConfig, Awaitable, Session } from "../../types.js";
import { glueClientAddress } from "../client-address.js";
import { readRequestAccount, readRequestSession } from "../session.js";
import { setCookies, signInAction, signOutAction, svelteKitClientAddress } from "./actions.js";
import { svelteKitConfig, type SvelteKitAuthConfig } from "./config.js";

export type { SvelteKitAuthConfig } from "./config.js";
export { AuthError, CredentialsSignin, SessionUnavailable } from "../../core/errors/errors.js";
export type { Account, AccountBody, DefaultSession, ListedSession, Profile, Session, User } from "../../types.js";
// What @auth/sveltekit and @auth/solid-start export beside the handler, so an Auth.js app moves over by its imports alone.
export { customFetch } from "../../core/symbols.js";

declare global {
  namespace App {
    interface Locals {
      /** The session of this request, or `null`; read once per request however often it is called. */
      auth(): Promise<Session | null>;
      /**
       * The signed-in user's account (the user, whether they have a password, their sessions:
       * see `GET <basePath>/account`), or `null`; for an account page's `load`.
       */
      account(): Promise<AccountBody | null>;
      /** @deprecated `auth()` under the name older `@auth/sveltekit` versions gave it, for apps moved from Auth.js. */
      getSession(): Promise<Session | null>;
    }
  }
}

export interface SvelteKitAuthResult {
  /** The `handle` hook: export it from `src/hooks.server.ts` (first in a `sequence`). */
  handle: Handle;
  /** Form action: signs in with the form's `providerId` (credential fields included) and redirects. */
  signIn: (event: RequestEvent) => Promise<never>;
  /** Form action: signs out and redirects to the form's `redirectTo` (default `/`). */
  signOut: (event: RequestEvent) => Promise<never>;
}

/**
 * @param config the auth config, or a function of the request event that returns
 * it, to read platform env lazily (e.g. `event.platform.env` on Cloudflare). The
 * function should return the same object for the same env: each new object is
 * resolved anew.
 */
export function SvelteKitAuth(
  config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>),
): SvelteKitAuthResult {
  const configFor = async (event: RequestEvent): Promise<AuthConfig> =>
    svelteKitConfig(typeof config === "function" ? await config(event) : config, { env, base, dev });

  return {
    async handle({ event, resolve }) {
      const authConfig = await configFor(event);
      const basePath = authConfig.basePath!;
      let session: Promise<Session | null> | undefined;
      event.locals.auth = () =>
        (session ??= readRequestSession(event.request, authConfig, basePath).then(({ session, cookies }) => {
          setCookies(event, cookies);
          return session;
        }));
      event.locals.getSession = event.locals.auth;
      event.locals.account = () => readRequestAccount(event.request, authConfig, basePath);
      if (!isAuthPath(event.url.pathname, basePath)) return resolve(event);
      return (
        crossSitePostRefusal(event, authConfig, basePath) ??
        authWithClientAddress(event.request, authConfig, glueClientAddress(authConfig, event.request, event, svelteKitClientAddress))
      );
    },
    signIn: async (event) => signInAction(event, await configFor(event)),
    signOut: async (event) => signOutAction(event, await configFor(event)),
  };
}

/** The spec's neutral name for the SvelteKit integration. */
export const FrameworkBAuth = SvelteKitAuth;

/**
 * SvelteKit checks the origin of form posts, which is why the token check is off;
 * this repeats the check for every POST to the auth routes, so the protection
 * holds even where an app turned SvelteKit's off or posts another content type.
 * The rule is the handler's own (`checkRequestOrigin`: Origin, then Sec-Fetch-Site).
 * The one exception is the handler's too: an OAuth callback, which a `form_post`
 * provider (Apple) posts from its own page, changes nothing (the handler answers
 * it with a GET of the same URL) and is bound by the sign-in's state, not by CSRF.
 */
function crossSitePostRefusal(event: RequestEvent, config: AuthConfig, basePath: string): Response | undefined {
  if (event.request.method !== "POST") return undefined;
  if (checkRequestOrigin(event.request.headers, event.url.origin).allowed) return undefined;
  if (isOAuthCallback(event.url.pathname, config, basePath)) return undefined;
  return new Response(`Cross-site POST to ${event.url.pathname} refused.`, {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/** `POST <basePath>/callback/<id>` of an OAuth or OIDC provider (a broken config or an unknown path is not one). */
function isOAuthCallback(pathname: string, config: AuthConfig, basePath: string): boolean {
  let matched: ReturnType<typeof route>;
  try {
    matched = route(pathname, "POST", basePath);
  } catch {
    return false;
  }
  if (matched.action !== "callback" || matched.providerId === undefined) return false;
  return resolveConfigOrUndefined(config)?.providerById.get(matched.providerId)?.oauth !== undefined;
}
