/** Google, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a Google ID token (scope `openid profile email`). */
export interface GoogleProfile {
  iss: string;
  azp: string;
  aud: string;
  sub: string;
  email?: string;
  email_verified?: boolean;
  at_hash?: string;
  nonce?: string;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  /** The Google Workspace domain of the account; absent for consumer accounts. */
  hd?: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/**
 * Sign in with Google. Create an OAuth client ID ("Web application") at
 * https://console.cloud.google.com/apis/credentials with the redirect URI
 * `<origin>/auth/callback/google`, then set `AUTH_GOOGLE_ID` and
 * `AUTH_GOOGLE_SECRET`. Google issues refresh tokens only with
 * `access_type: "offline"` (and `prompt: "consent"` to get one again).
 *
 * @example
 * ```ts
 * import { Google } from "@gatehouse/runtime/providers";
 *
 * providers: [Google]
 * // a refresh token, and only accounts of one Workspace domain offered:
 * providers: [Google({ authorization: { params: { access_type: "offline", prompt: "consent", hd: "example.com" } } })]
 * ```
 * `hd` only preselects; check `profile.hd` in the `signIn` callback to enforce it.
 */
export function Google(config?: OAuthUserConfig<GoogleProfile>): OAuthConfig<GoogleProfile> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile);
    },
    // Google's `email_verified` claim says whether Google confirmed the account's address.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#fff", text: "#1f1f1f", brandColor: "#1a73e8" },
    options: config as Record<string, unknown>,
  };
}
