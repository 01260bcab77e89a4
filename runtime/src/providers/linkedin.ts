/** Sign In with LinkedIn using OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a LinkedIn ID token (scope `openid profile email`). */
export interface LinkedInProfile {
  iss: "https://www.linkedin.com/oauth";
  aud: string;
  iat: number;
  exp: number;
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  email?: string;
  email_verified?: boolean;
  locale?: string | { country: string; language: string };
  [claim: string]: unknown;
}

/**
 * Sign in with LinkedIn. Create an app at https://www.linkedin.com/developers/apps,
 * add the product "Sign In with LinkedIn using OpenID Connect" and the
 * redirect URL `<origin>/auth/callback/linkedin` (Auth tab), then set
 * `AUTH_LINKEDIN_ID` and `AUTH_LINKEDIN_SECRET`.
 *
 * @example
 * ```ts
 * import { LinkedIn } from "@gatehouse/runtime/providers";
 *
 * providers: [LinkedIn]
 * ```
 */
export function LinkedIn(config?: OAuthUserConfig<LinkedInProfile>): OAuthConfig<LinkedInProfile> {
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    authorization: { params: { scope: "openid profile email" } },
    // LinkedIn's token endpoint takes the client secret in the body only.
    client: { token_endpoint_auth_method: "client_secret_post" },
    // State only: LinkedIn's ID tokens carry no nonce, and its token endpoint
    // refuses a code_verifier for web apps (PKCE is for approved native apps).
    checks: ["state"],
    profile(profile) {
      return userFromStandardClaims(profile);
    },
    // LinkedIn's ID token carries the standard `email_verified` claim for the member's primary address.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#0a66c2", text: "#fff", brandColor: "#0a66c2" },
    options: config as Record<string, unknown>,
  };
}
