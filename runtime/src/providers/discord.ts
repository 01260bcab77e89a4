/** Discord, OAuth 2; the profile is `GET /users/@me`. */
import { accountId, firstText, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** Discord's user object, as `GET /users/@me` returns it with the `identify email` scopes. */
export interface DiscordProfile {
  /** A snowflake, as a string. */
  id: string;
  username: string;
  /** `"0"` for accounts on the new unique usernames; a four-digit tag for legacy accounts. */
  discriminator: string;
  global_name: string | null;
  /** An image hash; `a_` in front means animated. */
  avatar: string | null;
  bot?: boolean;
  system?: boolean;
  mfa_enabled: boolean;
  banner?: string | null;
  accent_color?: number | null;
  locale: string;
  /** Whether `email` is verified. */
  verified: boolean;
  email: string | null;
  flags: number;
  premium_type: number;
  public_flags: number;
  avatar_decoration_data?: { asset: string; sku_id: string } | null;
  [field: string]: unknown;
}

const CDN = "https://cdn.discordapp.com";

/**
 * The avatar URL: the user's own, or Discord's default one, which is chosen
 * from the id (new usernames) or the legacy discriminator. `null` when the
 * parts to build it from are missing.
 */
function avatarUrl(profile: DiscordProfile): string | null {
  const id = text(profile.id);
  const hash = text(profile.avatar);
  if (id && hash) return `${CDN}/avatars/${id}/${hash}.${hash.startsWith("a_") ? "gif" : "png"}`;
  const discriminator = text(profile.discriminator);
  if (discriminator && discriminator !== "0" && /^\d+$/.test(discriminator)) {
    return `${CDN}/embed/avatars/${Number(discriminator) % 5}.png`;
  }
  if (id && /^\d+$/.test(id)) return `${CDN}/embed/avatars/${Number((BigInt(id) >> 22n) % 6n)}.png`;
  return null;
}

/**
 * Sign in with Discord. Create an application at https://discord.com/developers/applications,
 * add the redirect `<origin>/auth/callback/discord` under OAuth2, then set
 * `AUTH_DISCORD_ID` and `AUTH_DISCORD_SECRET`. An unverified email is not
 * passed on (`email: null`).
 *
 * @example
 * ```ts
 * import { Discord } from "@gatehouse/runtime/providers";
 *
 * providers: [Discord]
 * ```
 */
export function Discord(config?: OAuthUserConfig<DiscordProfile>): OAuthConfig<DiscordProfile> {
  return {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    profile(profile) {
      return {
        id: accountId(profile.id),
        name: firstText(profile.global_name, profile.username),
        // Discord hands out addresses the user never confirmed; those must not identify anyone.
        email: profile.verified === false ? null : text(profile.email),
        image: avatarUrl(profile),
      };
    },
    // Discord's `verified` flag says whether the user confirmed `email`.
    verifiedEmail: (profile) => (profile.verified === true ? text(profile.email) : null),
    style: { bg: "#5865F2", text: "#fff", brandColor: "#5865F2" },
    options: config as Record<string, unknown>,
  };
}
