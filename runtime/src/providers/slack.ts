/** Sign in with Slack, OpenID Connect: the profile is the ID token's claims. */
import { accountId, emailFromVerifiedClaim, firstText, joinName, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a Slack ID token (scope `openid profile email`). */
export interface SlackProfile {
  iss: "https://slack.com";
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time: number;
  /** Slack always sends it: the one from the request, or `""`. */
  nonce: string;
  at_hash: string;
  "https://slack.com/user_id": string;
  "https://slack.com/team_id": string;
  "https://slack.com/enterprise_id"?: string;
  email?: string;
  email_verified?: boolean;
  date_email_verified?: number;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  "https://slack.com/team_name"?: string;
  "https://slack.com/team_domain"?: string;
  "https://slack.com/user_image_24"?: string;
  "https://slack.com/user_image_32"?: string;
  "https://slack.com/user_image_48"?: string;
  "https://slack.com/user_image_72"?: string;
  "https://slack.com/user_image_192"?: string;
  "https://slack.com/user_image_512"?: string;
  "https://slack.com/team_image_34"?: string;
  "https://slack.com/team_image_44"?: string;
  "https://slack.com/team_image_68"?: string;
  "https://slack.com/team_image_88"?: string;
  "https://slack.com/team_image_102"?: string;
  "https://slack.com/team_image_132"?: string;
  "https://slack.com/team_image_230"?: string;
  "https://slack.com/team_image_default"?: boolean;
  [claim: string]: unknown;
}

/**
 * Sign in with Slack. Create an app at https://api.slack.com/apps, add the
 * redirect URL `<origin>/auth/callback/slack` under "OAuth & Permissions"
 * (Slack only accepts https redirect URLs, so use a tunnel in development)
 * and the user scopes `openid`, `profile`, `email`; then set `AUTH_SLACK_ID`
 * and `AUTH_SLACK_SECRET`. The account id is the Slack user id, which is per
 * workspace.
 *
 * @example
 * ```ts
 * import { Slack } from "@gatehouse/runtime/providers";
 *
 * providers: [Slack]
 * ```
 */
export function Slack(config?: OAuthUserConfig<SlackProfile>): OAuthConfig<SlackProfile> {
  return {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    authorization: { params: { scope: "openid profile email" } },
    // No PKCE: Slack's OpenID token endpoint fails a confidential client that
    // also sends a code_verifier. The nonce must be on: Slack puts a `nonce`
    // claim ("" when none was sent) in every ID token.
    checks: ["state", "nonce"],
    profile(profile) {
      return {
        id: accountId(profile.sub),
        name: firstText(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(profile.email),
        image: firstText(profile.picture, profile["https://slack.com/user_image_512"]),
      };
    },
    // Slack's ID token carries the standard `email_verified` claim for the member's address.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#4A154B", text: "#fff", brandColor: "#611f69" },
    options: config as Record<string, unknown>,
  };
}
