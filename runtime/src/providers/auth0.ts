/** Auth0, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of an Auth0 ID token (scope `openid profile email`). */
export interface Auth0Profile {
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  /** `<connection>|<id>`, e.g. `auth0|64f...` or `google-oauth2|1057...`. */
  sub: string;
  sid?: string;
  nonce?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  picture?: string;
  email?: string;
  email_verified?: boolean;
  locale?: string;
  updated_at?: string;
  org_id?: string;
  [claim: string]: unknown;
}

/**
 * Sign in with Auth0. Create a "Regular Web Application" at
 * https://manage.auth0.com/ with the allowed callback URL
 * `<origin>/auth/callback/auth0`, then set `AUTH_AUTH0_ID`, `AUTH_AUTH0_SECRET`
 * and `AUTH_AUTH0_ISSUER` (`https://<tenant>.<region>.auth0.com/`, or your
 * custom domain; keep the trailing slash: Auth0's issuer has one).
 *
 * @example
 * ```ts
 * import { Auth0 } from "@gatehouse/runtime/providers";
 *
 * providers: [Auth0] // issuer from AUTH_AUTH0_ISSUER
 * providers: [Auth0({ issuer: "https://example.eu.auth0.com/" })]
 * ```
 */
export function Auth0(config?: OAuthUserConfig<Auth0Profile>): OAuthConfig<Auth0Profile> {
  return {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile, profile.nickname);
    },
    // Auth0 sends its own (or the upstream connection's) verdict in the standard `email_verified` claim.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#EB5424", text: "#fff", brandColor: "#EB5424" },
    options: config as Record<string, unknown>,
  };
}
