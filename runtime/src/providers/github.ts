/**
 * GitHub (github.com or GitHub Enterprise Server), OAuth 2. The profile is
 * `GET /user`; `GET /user/emails` (read alongside) says whether the address is
 * verified, and supplies one, primary and verified first, when the user keeps
 * theirs private.
 */
import type { Profile } from "../types.js";
import { accountId, firstText, text, trimTrailingSlash } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig, UserinfoRequestContext } from "./types.js";

/** `GET /user` of the GitHub REST API, as it answers for the signed-in user. */
export interface GitHubProfile {
  login: string;
  id: number;
  node_id: string;
  avatar_url: string;
  gravatar_id: string | null;
  url: string;
  html_url: string;
  type: string;
  site_admin: boolean;
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  /** The public email only; `null` when the user keeps it private (then one is picked from `/user/emails`). */
  email: string | null;
  /**
   * Added by this provider, not GitHub: whether `/user/emails` lists `email` as
   * verified. `false` when that list could not be read (`user:email` not granted).
   */
  email_verified?: boolean;
  hireable: boolean | null;
  bio: string | null;
  twitter_username?: string | null;
  public_repos: number;
  public_gists: number;
  followers: number;
  following: number;
  created_at: string;
  updated_at: string;
  private_gists?: number;
  total_private_repos?: number;
  owned_private_repos?: number;
  disk_usage?: number;
  collaborators?: number;
  two_factor_authentication?: boolean;
  plan?: { collaborators: number; name: string; space: number; private_repos: number };
  [field: string]: unknown;
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: "public" | "private" | null;
}

export interface GitHubUserConfig extends OAuthUserConfig<GitHubProfile> {
  /** GitHub Enterprise Server: its web address (`https://github.example.com`); the API is `${baseUrl}/api/v3`. */
  enterprise?: { baseUrl?: string };
}

/** GitHub's REST API rejects requests without a `User-Agent`. */
const USER_AGENT = "gatehouse";

function apiHeaders(accessToken: string | undefined): HeadersInit {
  return {
    Authorization: `Bearer ${accessToken ?? ""}`,
    Accept: "application/vnd.github+json",
    "User-Agent": USER_AGENT,
    "X-GitHub-Api-Version": "2022-11-28",
  };
}

function isEmailEntry(value: unknown): value is GitHubEmail {
  return typeof value === "object" && value !== null && typeof (value as GitHubEmail).email === "string";
}

/** The verified addresses of `/user/emails`, in GitHub's order. */
function verifiedEntries(list: readonly GitHubEmail[]): GitHubEmail[] {
  return list.filter((entry) => entry.verified === true && text(entry.email));
}

/**
 * The address to sign in with from `/user/emails`: the primary one if it is
 * verified, else any verified one, else none. An unverified address is never
 * picked: anyone can add one to a GitHub account.
 */
function pickGitHubEmail(list: readonly GitHubEmail[]): string | null {
  const verified = verifiedEntries(list);
  return (verified.find((entry) => entry.primary === true) ?? verified[0])?.email ?? null;
}

/** `/user/emails`, or `null` when it cannot be read (scope not granted, server error, odd body). */
async function fetchEmails(fetchFn: typeof fetch, url: string, accessToken: string | undefined): Promise<GitHubEmail[] | null> {
  try {
    const response = await fetchFn(url, { headers: apiHeaders(accessToken) });
    if (!response.ok) return null;
    const list: unknown = await response.json();
    return Array.isArray(list) ? list.filter(isEmailEntry) : null;
  } catch {
    // Not worth failing the sign-in over: the user signs in with no verified email.
    return null;
  }
}

/**
 * The profile's email and whether GitHub verified it: the public address when
 * there is one (verified only if `/user/emails` lists exactly it as verified:
 * a mismatch fails safe, as unverified), else one picked from `/user/emails`.
 */
function chooseEmail(publicEmail: string | null, list: readonly GitHubEmail[] | null): { email: string | null; email_verified: boolean } {
  if (publicEmail !== null) {
    const verified = list !== null && verifiedEntries(list).some((entry) => entry.email === publicEmail);
    return { email: publicEmail, email_verified: verified };
  }
  const picked = list && pickGitHubEmail(list);
  return { email: picked ?? null, email_verified: picked != null };
}

/**
 * Sign in with GitHub. Register an OAuth App at https://github.com/settings/developers
 * (callback URL: `<origin>/auth/callback/github`), then set `AUTH_GITHUB_ID` and
 * `AUTH_GITHUB_SECRET`. The default scope `read:user user:email` lets the
 * provider read the user's addresses: whether the email is verified, and a
 * verified one when the user's is private. Without `user:email` the public
 * address is still used, but only as the user's claim.
 *
 * @example
 * ```ts
 * import { GitHub } from "@gatehouse/runtime/providers";
 *
 * providers: [GitHub]
 * // GitHub Enterprise Server:
 * providers: [GitHub({ enterprise: { baseUrl: "https://github.example.com" } })]
 * ```
 */
export function GitHub(config?: GitHubUserConfig): OAuthConfig<GitHubProfile> {
  const { enterprise, ...options } = config ?? {};
  const webBase = enterprise?.baseUrl ? trimTrailingSlash(enterprise.baseUrl) : "https://github.com";
  const apiBase = enterprise?.baseUrl ? `${webBase}/api/v3` : "https://api.github.com";
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorization: { url: `${webBase}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${webBase}/login/oauth/access_token`,
    userinfo: {
      url: `${apiBase}/user`,
      async request({ tokens, provider }: UserinfoRequestContext): Promise<Profile> {
        const configured = typeof provider.userinfo === "object" ? provider.userinfo?.url : undefined;
        // Both at once: even a public email needs /user/emails to say whether it is verified.
        const [response, emails] = await Promise.all([
          provider.fetch(String(configured ?? `${apiBase}/user`), { headers: apiHeaders(tokens.access_token) }),
          fetchEmails(provider.fetch, `${apiBase}/user/emails`, tokens.access_token),
        ]);
        if (!response.ok) throw new Error(`GitHub answered ${response.status} to GET /user`);
        const profile: unknown = await response.json();
        if (!profile || typeof profile !== "object" || Array.isArray(profile)) throw new Error("GitHub's GET /user is not a JSON object");
        const user = profile as GitHubProfile;
        // `Profile` types `id` as a string; GitHub's is a number until profile() maps it.
        return { ...user, ...chooseEmail(text(user.email), emails) } as unknown as Profile;
      },
    },
    profile(profile) {
      return {
        id: accountId(profile.id),
        name: firstText(profile.name, profile.login),
        email: text(profile.email),
        image: text(profile.avatar_url),
      };
    },
    // GitHub vouches only for addresses /user/emails lists as verified; userinfo.request records that in `email_verified`.
    verifiedEmail: (profile) => (profile.email_verified === true ? text(profile.email) : null),
    style: { bg: "#24292f", text: "#fff", brandColor: "#24292f" },
    options: options as Record<string, unknown>,
  };
}
