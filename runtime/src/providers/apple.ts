/**
 * Sign in with Apple, OpenID Connect with a `form_post` callback. Apple puts
 * no name in its ID token: it posts the name once, on the user's first
 * sign-in, in a `user` form field, which `callbackProfile` reads.
 */
import { accountId, emailFromVerifiedClaim, joinName, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** What Apple's `user` form field holds on the first sign-in (JSON). */
export interface AppleUserData {
  name?: { firstName?: string; lastName?: string };
  email?: string;
}

/** The claims of an Apple ID token, plus `user` from the first sign-in's form field. */
export interface AppleProfile {
  iss: "https://appleid.apple.com";
  aud: string;
  iat: number;
  exp: number;
  sub: string;
  nonce?: string;
  nonce_supported?: boolean;
  at_hash?: string;
  auth_time?: number;
  /** The user's email, or a private relay address (`...@privaterelay.appleid.com`). */
  email?: string;
  /** Apple sends `"true"`/`"false"` strings in some tokens, booleans in others. */
  email_verified?: boolean | "true" | "false";
  is_private_email?: boolean | "true" | "false";
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2;
  transfer_sub?: string;
  /** Only on the first sign-in: the name the user chose to share. */
  user?: AppleUserData;
  [claim: string]: unknown;
}

/**
 * Reads the `user` field Apple posts on the first sign-in. Only the name is
 * kept: the field is not signed, so the email comes from the ID token alone.
 */
export function readAppleUser(params: URLSearchParams): { user: AppleUserData } | undefined {
  const raw = params.get("user");
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const name = (parsed as { name?: unknown } | null)?.name;
  if (!name || typeof name !== "object") return undefined;
  const { firstName, lastName } = name as Record<string, unknown>;
  const kept: { firstName?: string; lastName?: string } = {};
  if (typeof firstName === "string") kept.firstName = firstName;
  if (typeof lastName === "string") kept.lastName = lastName;
  return { user: { name: kept } };
}

/**
 * Sign in with Apple. In https://developer.apple.com/account/resources/identifiers/list/serviceId
 * create a Services ID (its identifier is `AUTH_APPLE_ID`), enable Sign in with
 * Apple with your domain and the return URL `https://<your domain>/auth/callback/apple`
 * (Apple accepts https on a real domain only: no localhost, use a tunnel in
 * development), and create a key with Sign in with Apple enabled. The client
 * secret is a JWT signed with that key, valid for at most 180 days:
 * make `AUTH_APPLE_SECRET` with {@link createAppleClientSecret} and renew it in time.
 *
 * Apple sends the user's name only on the first sign-in; later sign-ins have
 * `name: null` unless the adapter kept it. Apple calls the callback with a
 * cross-site POST (`response_mode: form_post`).
 *
 * @example
 * ```ts
 * import { Apple } from "@gatehouse/runtime/providers";
 *
 * providers: [Apple] // AUTH_APPLE_ID, AUTH_APPLE_SECRET
 * ```
 */
export function Apple(config?: OAuthUserConfig<AppleProfile>): OAuthConfig<AppleProfile> {
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    // Apple's token endpoint takes the client secret in the body only.
    client: { token_endpoint_auth_method: "client_secret_post" },
    // Apple documents no PKCE and its discovery lists no code_challenge_methods;
    // state and nonce bind the callback to the browser instead.
    checks: ["state", "nonce"],
    callbackProfile: readAppleUser,
    profile(profile) {
      return {
        id: accountId(profile.sub),
        name: joinName(profile.user?.name?.firstName, profile.user?.name?.lastName),
        email: text(profile.email),
        image: null,
      };
    },
    // Apple's ID token says whether it verified the address, as `"true"` in some tokens; relay addresses always are.
    verifiedEmail: emailFromVerifiedClaim,
    style: { bg: "#000", text: "#fff", brandColor: "#000" },
    options: config as Record<string, unknown>,
  };
}
