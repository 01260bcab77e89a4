/**
 * Any OAuth 2 or OpenID Connect provider the catalog does not list. These only
 * fill in `type`; everything else is the provider exactly as given.
 */
import type { Profile } from "../types.js";
import type { OAuthConfig } from "./types.js";

/** A provider config without its `type`: what `OAuth()` and `OIDC()` accept. */
export type OAuthProviderInput<P = Profile> = Omit<OAuthConfig<P>, "type">;

/**
 * A plain OAuth 2 provider: explicit `authorization` and `token` endpoints, and
 * `userinfo` (a URL or a `request` function) to read the profile. Set `scope`
 * in `authorization.params`: the default, `openid profile email`, is only right
 * for OpenID Connect servers. An email counts as verified when the profile has
 * `email_verified: true` (the core's default); set `verifiedEmail` if your API
 * says so differently, or `() => null` if it never verifies addresses.
 *
 * @example
 * ```ts
 * OAuth({
 *   id: "acme",
 *   name: "Acme",
 *   authorization: { url: "https://acme.example/oauth/authorize", params: { scope: "read:user" } },
 *   token: "https://acme.example/oauth/token",
 *   userinfo: "https://api.acme.example/me",
 *   profile: (p) => ({ id: String(p.id), name: p.display_name ?? null, email: p.email ?? null, image: null }),
 * })
 * ```
 */
export function OAuth<P = Profile>(config: OAuthProviderInput<P>): OAuthConfig<P> {
  return { ...config, type: "oauth" };
}

/**
 * An OpenID Connect provider: its `issuer` is enough (endpoints come from
 * discovery), and the profile is the validated ID token's claims. The client id,
 * secret and issuer can come from `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET` and
 * `AUTH_<ID>_ISSUER`. An email counts as verified when the `email_verified`
 * claim is true, unless `verifiedEmail` says otherwise.
 *
 * @example
 * ```ts
 * OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.corp.example" })
 * ```
 */
export function OIDC<P = Profile>(config: OAuthProviderInput<P>): OAuthConfig<P> {
  return { ...config, type: "oidc" };
}
