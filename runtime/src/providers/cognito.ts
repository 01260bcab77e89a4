/** Amazon Cognito user pools, OpenID Connect: the profile is the ID token's claims. */
import { emailFromVerifiedClaim, userFromStandardClaims } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a Cognito ID token (scope `openid profile email`). */
export interface CognitoProfile {
  sub: string;
  iss: string;
  aud: string;
  token_use: "id";
  auth_time: number;
  iat: number;
  exp: number;
  jti?: string;
  origin_jti?: string;
  nonce?: string;
  at_hash?: string;
  "cognito:username": string;
  "cognito:groups"?: string[];
  /** Federated sign-ins (Google, SAML...) list their identities here, as a JSON string. */
  identities?: string;
  email?: string;
  /** A boolean in ID tokens; the string `"true"`/`"false"` from the userinfo endpoint. */
  email_verified?: boolean | "true" | "false";
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  picture?: string;
  phone_number?: string;
  phone_number_verified?: boolean;
  [claim: string]: unknown;
}

/**
 * Sign in with Amazon Cognito. In https://console.aws.amazon.com/cognito/home
 * create a user pool and an app client ("Traditional web application", with a
 * client secret), add `<origin>/auth/callback/cognito` to its allowed callback
 * URLs and the scopes `openid profile email`, then set `AUTH_COGNITO_ID`,
 * `AUTH_COGNITO_SECRET` and `AUTH_COGNITO_ISSUER`:
 * `https://cognito-idp.<region>.amazonaws.com/<user pool id>`.
 *
 * @example
 * ```ts
 * import { Cognito } from "@gatehouse/runtime/providers";
 *
 * providers: [Cognito] // issuer from AUTH_COGNITO_ISSUER
 * ```
 */
export function Cognito(config?: OAuthUserConfig<CognitoProfile>): OAuthConfig<CognitoProfile> {
  return {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    profile(profile) {
      return userFromStandardClaims(profile, profile.preferred_username, profile["cognito:username"]);
    },
    // Cognito's `email_verified` user attribute (a string `"true"` from userinfo) says whether the pool verified the address.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#DD344C", text: "#fff", brandColor: "#C17B9E" },
    options: config as Record<string, unknown>,
  };
}
