/** GitLab (gitlab.com or self-managed), OAuth 2; the profile is `GET /api/v4/user`. */
import { accountId, firstText, text, trimTrailingSlash } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** `GET /api/v4/user` for the signed-in user. */
export interface GitLabProfile {
  id: number;
  username: string;
  name: string;
  state: string;
  locked?: boolean;
  avatar_url: string | null;
  web_url: string;
  created_at: string;
  bio: string;
  location: string | null;
  public_email: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  discord?: string;
  website_url: string;
  organization: string | null;
  job_title: string;
  pronouns?: string | null;
  bot: boolean;
  work_information: string | null;
  local_time?: string | null;
  last_sign_in_at: string | null;
  /** When the user confirmed `email`; `null` while unconfirmed. */
  confirmed_at: string | null;
  last_activity_on: string | null;
  /** The primary email; confirmed when `confirmed_at` is set. */
  email: string;
  theme_id: number;
  color_scheme_id: number;
  projects_limit: number;
  current_sign_in_at: string | null;
  identities: { provider: string; extern_uid: string }[];
  can_create_group: boolean;
  can_create_project: boolean;
  two_factor_enabled: boolean;
  external: boolean;
  private_profile: boolean;
  commit_email?: string;
  [field: string]: unknown;
}

export interface GitLabUserConfig extends OAuthUserConfig<GitLabProfile> {
  /** A self-managed instance, e.g. `https://gitlab.example.com` (default `https://gitlab.com`). */
  baseUrl?: string;
}

/**
 * Sign in with GitLab. Add an application at https://gitlab.com/-/user_settings/applications
 * (or your instance's `/-/user_settings/applications`) with the scope `read_user`
 * and the redirect URI `<origin>/auth/callback/gitlab`, then set `AUTH_GITLAB_ID`
 * and `AUTH_GITLAB_SECRET`.
 *
 * The address counts as verified when `confirmed_at` is set. A self-managed
 * instance whose admin turned email confirmation off marks every account
 * confirmed; there, set `verifiedEmail: () => null` unless you trust its users'
 * addresses.
 *
 * @example
 * ```ts
 * import { GitLab } from "@gatehouse/runtime/providers";
 *
 * providers: [GitLab]
 * providers: [GitLab({ baseUrl: "https://gitlab.example.com" })]
 * ```
 */
export function GitLab(config?: GitLabUserConfig): OAuthConfig<GitLabProfile> {
  const { baseUrl, ...options } = config ?? {};
  const base = trimTrailingSlash(baseUrl ?? "https://gitlab.com");
  return {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: { url: `${base}/oauth/authorize`, params: { scope: "read_user" } },
    token: `${base}/oauth/token`,
    userinfo: `${base}/api/v4/user`,
    profile(profile) {
      return {
        id: accountId(profile.id),
        name: firstText(profile.name, profile.username),
        email: firstText(profile.email, profile.public_email),
        image: text(profile.avatar_url),
      };
    },
    // GitLab sets `confirmed_at` once the primary address is confirmed (an instance with confirmation off sets it for everyone).
    verifiedEmail: (profile) => (text(profile.confirmed_at) ? text(profile.email) : null),
    style: { bg: "#FC6D26", text: "#fff", brandColor: "#FC6D26" },
    options: options as Record<string, unknown>,
  };
}
