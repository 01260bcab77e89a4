/** Facebook Login, OAuth 2; the profile is the Graph API's `/me`. */
import { accountId, joinName, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/**
 * The Graph API version the endpoints are pinned to. Meta keeps a version for
 * about two years; pinning keeps responses stable until this is raised.
 */
const GRAPH_VERSION = "v23.0";

/** `GET /me?fields=id,name,first_name,last_name,email,picture.type(large)`. */
export interface FacebookProfile {
  /** App-scoped user id. */
  id: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  /** Absent when the user declined it or has no confirmed address (phone-only accounts). */
  email?: string;
  picture?: {
    data?: { height?: number; width?: number; is_silhouette?: boolean; url?: string };
  };
  [field: string]: unknown;
}

/**
 * Sign in with Facebook. Create an app with the "Authenticate and request data
 * from users with Facebook Login" use case at https://developers.facebook.com/apps/,
 * add `<origin>/auth/callback/facebook` to "Valid OAuth Redirect URIs"
 * (https, except `localhost` while the app is in development mode), then set
 * `AUTH_FACEBOOK_ID` and `AUTH_FACEBOOK_SECRET` (App ID and App Secret).
 *
 * @example
 * ```ts
 * import { Facebook } from "@gatehouse/runtime/providers";
 *
 * providers: [Facebook]
 * ```
 */
export function Facebook(config?: OAuthUserConfig<FacebookProfile>): OAuthConfig<FacebookProfile> {
  return {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: `https://www.facebook.com/${GRAPH_VERSION}/dialog/oauth`, params: { scope: "email public_profile" } },
    token: `https://graph.facebook.com/${GRAPH_VERSION}/oauth/access_token`,
    userinfo: `https://graph.facebook.com/${GRAPH_VERSION}/me?fields=id,name,first_name,last_name,email,picture.type(large)`,
    profile(profile) {
      return {
        id: accountId(profile.id),
        name: text(profile.name) ?? joinName(profile.first_name, profile.last_name),
        email: text(profile.email),
        image: text(profile.picture?.data?.url),
      };
    },
    // The Graph API returns `email` with no verification flag: it stays the user's claim.
    verifiedEmail: () => null,
    style: { bg: "#0866FF", text: "#fff", brandColor: "#0866FF" },
    options: config as Record<string, unknown>,
  };
}
