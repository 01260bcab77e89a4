/** Keycloak, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a Keycloak ID token (scope `openid profile email`). */
export interface KeycloakProfile {
  exp: number;
  iat: number;
  auth_time?: number;
  jti: string;
  iss: string;
  aud: string;
  sub: string;
  typ: "ID";
  azp: string;
  nonce?: string;
  session_state?: string;
  sid?: string;
  at_hash?: string;
  acr?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * Sign in with Keycloak. In your realm's admin console create an OpenID
 * Connect client with "Client authentication" on and the valid redirect URI
 * `<origin>/auth/callback/keycloak`, then set `AUTH_KEYCLOAK_ID`,
 * `AUTH_KEYCLOAK_SECRET` (Credentials tab) and `AUTH_KEYCLOAK_ISSUER`:
 * `https://<keycloak host>/realms/<realm>`.
 *
 * @example
 * ```ts
 * import { Keycloak } from "@gatehouse/runtime/providers";
 *
 * providers: [Keycloak] // issuer from AUTH_KEYCLOAK_ISSUER
 * ```
 */
export function Keycloak(config?: OAuthUserConfig<KeycloakProfile>): OAuthConfig<KeycloakProfile> {
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile, profile.preferred_username);
    },
    // Keycloak's `email_verified` claim mirrors the user's "Email verified" flag (set by its verify-email action or an admin).
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#008aaa", text: "#fff", brandColor: "#428bca" },
    options: config as Record<string, unknown>,
  };
}
