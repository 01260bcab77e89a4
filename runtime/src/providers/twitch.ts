/** Twitch, OpenID Connect: the profile is the ID token's claims. */
import { accountId, emailFromVerifiedClaim, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of a Twitch ID token, with the optional claims this provider requests. */
export interface TwitchProfile {
  iss: "https://id.twitch.tv/oauth2";
  aud: string;
  azp: string;
  sub: string;
  iat: number;
  exp: number;
  nonce?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  updated_at?: string;
  [claim: string]: unknown;
}

/**
 * Twitch answers the token request in its own shape: `scope` is an array
 * (OAuth wants a space-separated string) and errors are `{ status, message }`.
 * Rewrites both into the standard form; anything else passes unchanged.
 */
export async function conformTwitchTokenResponse(response: Response): Promise<Response | undefined> {
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return undefined;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  let fixed: Record<string, unknown> | undefined;
  if (response.ok && Array.isArray(fields.scope)) fixed = { ...fields, scope: fields.scope.join(" ") };
  else if (!response.ok && typeof fields.error !== "string") {
    fixed = { error: "invalid_request", error_description: text(fields.message) ?? `Twitch answered ${response.status}` };
  }
  if (!fixed) return undefined;
  const headers = new Headers(response.headers);
  // The body changes length; the original's encoding and length no longer apply.
  headers.delete("content-length");
  headers.delete("content-encoding");
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(fixed), { status: response.status, statusText: response.statusText, headers });
}

/**
 * Sign in with Twitch. Register an application at https://dev.twitch.tv/console/apps
 * (client type "Confidential", redirect URL `<origin>/auth/callback/twitch`),
 * then set `AUTH_TWITCH_ID` and `AUTH_TWITCH_SECRET`. Twitch puts the email,
 * picture and username into the ID token only when asked through the
 * `claims` parameter, which this provider does.
 *
 * @example
 * ```ts
 * import { Twitch } from "@gatehouse/runtime/providers";
 *
 * providers: [Twitch]
 * ```
 */
export function Twitch(config?: OAuthUserConfig<TwitchProfile>): OAuthConfig<TwitchProfile> {
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    authorization: {
      params: {
        scope: "openid user:read:email",
        claims: { id_token: { email: null, email_verified: null, picture: null, preferred_username: null } },
      },
    },
    token: { conform: conformTwitchTokenResponse },
    // Twitch's token endpoint takes the client secret in the body only.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: accountId(profile.sub),
        name: text(profile.preferred_username),
        email: text(profile.email),
        image: text(profile.picture),
      };
    },
    // Twitch sends `email_verified` in the ID token because `claims` above asks for it.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#9146FF", text: "#fff", brandColor: "#9146FF" },
    options: config as Record<string, unknown>,
  };
}
