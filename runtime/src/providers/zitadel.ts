/** ZITADEL, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a ZITADEL ID token (scope `openid profile email`). */
export interface ZitadelProfile {
  iss: string;
  aud: string[] | string;
  azp?: string;
  sub: string;
  iat: number;
  exp: number;
  auth_time?: number;
  amr?: string[];
  nonce?: string;
  at_hash?: string;
  c_hash?: string;
  sid?: string;
  client_id?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  gender?: string;
  locale?: string;
  preferred_username?: string;
  picture?: string;
  updated_at?: number;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  "urn:zitadel:iam:user:resourceowner:id"?: string;
  "urn:zitadel:iam:user:resourceowner:name"?: string;
  "urn:zitadel:iam:user:resourceowner:primary_domain"?: string;
  "urn:zitadel:iam:org:project:roles"?: Record<string, Record<string, string>>;
  [claim: string]: unknown;
}

/**
 * Sign in with ZITADEL. In your instance's console
 * (`https://<instance>.zitadel.cloud/ui/console`, or your own host) create a
 * project and a "Web" application (authentication method "Code", PKCE
 * optional) with the redirect URI `<origin>/auth/callback/zitadel`, then set
 * `AUTH_ZITADEL_ID`, `AUTH_ZITADEL_SECRET` and `AUTH_ZITADEL_ISSUER` (the
 * instance URL, `https://<instance>.zitadel.cloud`). For the profile in the ID
 * token turn on "User Info inside ID Token" in the application's token
 * settings; otherwise it holds little more than `sub`.
 *
 * @example
 * ```ts
 * import { Zitadel } from "@gatehouse/runtime/providers";
 *
 * providers: [Zitadel] // issuer from AUTH_ZITADEL_ISSUER
 * ```
 */
export function Zitadel(config?: OAuthUserConfig<ZitadelProfile>): OAuthConfig<ZitadelProfile> {
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile, profile.preferred_username);
    },
    // ZITADEL's `email_verified` claim mirrors the user's verified flag (code by mail, or set by an admin or IdP).
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#0f172a", text: "#fff", brandColor: "#ff705d" },
    options: config as Record<string, unknown>,
  };
}
