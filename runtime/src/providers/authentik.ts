/** authentik, OpenID Connect: the profile is the ID token's claims. */
import { accountId, emailFromVerifiedClaim, firstText, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of an authentik ID token (scope `openid profile email`). */
export interface AuthentikProfile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time: number;
  acr?: string;
  amr?: string[];
  nonce?: string;
  at_hash?: string;
  sid?: string;
  c_hash?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  nickname?: string;
  picture?: string;
  groups?: string[];
  [claim: string]: unknown;
}

/**
 * Sign in with authentik. In your authentik admin interface
 * (`https://<authentik host>/if/admin/`) create an OAuth2/OpenID provider
 * (client type "Confidential", redirect URI `<origin>/auth/callback/authentik`)
 * and an application using it, then set `AUTH_AUTHENTIK_ID`,
 * `AUTH_AUTHENTIK_SECRET` and `AUTH_AUTHENTIK_ISSUER`:
 * `https://<authentik host>/application/o/<application slug>/`, trailing
 * slash included (it is part of authentik's issuer).
 *
 * An address counts as verified only when the ID token says `email_verified:
 * true`. authentik 2025.10 and later send `false` unless you add an email scope
 * mapping that says otherwise; older versions send `true` for every address,
 * verified or not, so on those set `verifiedEmail: () => null` or upgrade.
 *
 * @example
 * ```ts
 * import { Authentik } from "@gatehouse/runtime/providers";
 *
 * providers: [Authentik] // issuer from AUTH_AUTHENTIK_ISSUER
 * ```
 */
export function Authentik(config?: OAuthUserConfig<AuthentikProfile>): OAuthConfig<AuthentikProfile> {
  return {
    id: "authentik",
    name: "authentik",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return {
        id: accountId(profile.sub),
        name: firstText(profile.name, profile.nickname, profile.preferred_username),
        email: text(profile.email),
        image: text(profile.picture),
      };
    },
    // authentik's email scope mapping sets `email_verified` (false by default since 2025.10; older versions said true for every address).
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#fd4b2d", text: "#fff", brandColor: "#fd4b2d" },
    options: config as Record<string, unknown>,
  };
}
