/** X (formerly Twitter), OAuth 2 with PKCE; the profile is `GET /2/users/me`. */
import { accountId, firstText, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The user object of the X API v2, with the fields this provider asks for. */
export interface TwitterUser {
  id: string;
  name: string;
  username: string;
  profile_image_url?: string;
  /** Only when asked for in `user.fields` and granted the email permission. */
  confirmed_email?: string;
  created_at?: string;
  description?: string;
  location?: string;
  protected?: boolean;
  url?: string;
  verified?: boolean;
  verified_type?: string;
  [field: string]: unknown;
}

/** `GET /2/users/me`: the user under `data`. */
export interface TwitterProfile {
  data: TwitterUser;
  [field: string]: unknown;
}

/**
 * Sign in with X. In https://developer.x.com/en/portal/dashboard open your
 * app's "User authentication settings": type "Web App" (a confidential
 * client), callback `<origin>/auth/callback/twitter` (X rejects `localhost`:
 * use `http://127.0.0.1:<port>` in development); then set `AUTH_TWITTER_ID`
 * and `AUTH_TWITTER_SECRET` from the OAuth 2.0 keys. X sends no email unless
 * your app has the email permission and asks for `confirmed_email` (see the
 * second example); otherwise users have `email: null`.
 *
 * @example
 * ```ts
 * import { Twitter } from "@gatehouse/runtime/providers"; // also exported as `X`
 *
 * providers: [Twitter]
 * providers: [Twitter({
 *   authorization: { params: { scope: "users.read tweet.read users.email offline.access" } },
 *   userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
 * })]
 * ```
 */
export function Twitter(config?: OAuthUserConfig<TwitterProfile>): OAuthConfig<TwitterProfile> {
  return {
    id: "twitter",
    name: "X",
    type: "oauth",
    // `tweet.read` is needed by /2/users/me too; `offline.access` returns a refresh token (as Auth.js asks).
    authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
    profile(profile) {
      const user: Partial<TwitterUser> = profile?.data ?? {};
      return {
        id: accountId(user.id),
        name: firstText(user.name, user.username),
        email: text(user.confirmed_email),
        image: text(user.profile_image_url),
      };
    },
    // X sends no verification flag; the opt-in `confirmed_email` stays a claim (an app that trusts it can set its own).
    verifiedEmail: () => null,
    style: { bg: "#000", text: "#fff", brandColor: "#000" },
    options: config as Record<string, unknown>,
  };
}

/** X is the same provider as {@link Twitter} (id `twitter`). */
export { Twitter as X };
