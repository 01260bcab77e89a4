/** Okta, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of an Okta ID token (scope `openid profile email`). */
export interface OktaProfile {
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  sub: string;
  ver?: number;
  jti?: string;
  amr?: string[];
  idp?: string;
  nonce?: string;
  auth_time?: number;
  at_hash?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  middle_name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  locale?: string;
  zoneinfo?: string;
  picture?: string;
  updated_at?: number;
  groups?: string[];
  [claim: string]: unknown;
}

/**
 * Sign in with Okta. In your Okta Admin Console (`https://<org>-admin.okta.com`)
 * create an app integration (OIDC, "Web Application") with the sign-in
 * redirect URI `<origin>/auth/callback/okta`, then set `AUTH_OKTA_ID`,
 * `AUTH_OKTA_SECRET` and `AUTH_OKTA_ISSUER`: the authorization server, such as
 * `https://<org>.okta.com/oauth2/default`, or `https://<org>.okta.com` for the
 * org authorization server.
 *
 * @example
 * ```ts
 * import { Okta } from "@gatehouse/runtime/providers";
 *
 * providers: [Okta] // issuer from AUTH_OKTA_ISSUER
 * ```
 */
export function Okta(config?: OAuthUserConfig<OktaProfile>): OAuthConfig<OktaProfile> {
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile, profile.preferred_username);
    },
    // Okta's `email_verified` claim: true once the user confirmed the address (activation email or an admin).
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#191919", text: "#fff", brandColor: "#191919" },
    options: config as Record<string, unknown>,
  };
}
