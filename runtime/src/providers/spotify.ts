/** Spotify, OAuth 2; the profile is `GET /v1/me`. */
import { accountId, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

export interface SpotifyImage {
  url: string;
  height: number | null;
  width: number | null;
}

/** `GET /v1/me` with the `user-read-email` scope. */
export interface SpotifyProfile {
  id: string;
  display_name: string | null;
  /** Spotify does not verify it: never link accounts by it. */
  email?: string;
  images?: SpotifyImage[];
  country?: string;
  product?: string;
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean };
  external_urls: { spotify: string };
  followers: { href: string | null; total: number };
  href: string;
  type: "user";
  uri: string;
  [field: string]: unknown;
}

/** The largest image; Spotify usually lists a 300 px and a 64 px one. */
function largestImage(images: SpotifyImage[] | undefined): string | null {
  if (!Array.isArray(images)) return null;
  const usable = images.filter((image) => text(image?.url));
  usable.sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
  return usable[0]?.url ?? null;
}

/**
 * Sign in with Spotify. Create an app at https://developer.spotify.com/dashboard
 * (Web API) with the redirect URI `<origin>/auth/callback/spotify`: Spotify
 * refuses `localhost`, so use `http://127.0.0.1:<port>` in development; then
 * set `AUTH_SPOTIFY_ID` and `AUTH_SPOTIFY_SECRET`. Spotify does not verify
 * email addresses, so do not turn on `allowDangerousEmailAccountLinking`.
 *
 * @example
 * ```ts
 * import { Spotify } from "@gatehouse/runtime/providers";
 *
 * providers: [Spotify]
 * ```
 */
export function Spotify(config?: OAuthUserConfig<SpotifyProfile>): OAuthConfig<SpotifyProfile> {
  return {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile(profile) {
      return {
        id: accountId(profile.id),
        name: text(profile.display_name),
        email: text(profile.email),
        image: largestImage(profile.images),
      };
    },
    // Spotify says the address is not verified: it vouches for none.
    verifiedEmail: () => null,
    style: { bg: "#1DB954", text: "#000", brandColor: "#1DB954" },
    options: config as Record<string, unknown>,
  };
}
