/**
 * Microsoft Entra ID (formerly Azure AD), OpenID Connect. The profile is the ID
 * token's claims; the profile photo needs a Microsoft Graph call and is off
 * unless asked for.
 */
import { customFetch } from "../core/symbols.js";
import type { TokenSet } from "../types.js";
import { accountId, firstText, joinName, text } from "./profile-fields.js";
import type { OAuthConfig, OAuthUserConfig } from "./types.js";

/** The claims of an Entra ID v2.0 ID token. */
export interface MicrosoftEntraIDProfile {
  aud: string;
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  /** Pairwise: unique per user and application. The account id. */
  sub: string;
  /** The user's object id in the tenant, the same for every application. */
  oid?: string;
  /** The tenant the user signed in from. */
  tid?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  /** The sign-in name (often a UPN such as `ada@contoso.onmicrosoft.com`); not necessarily a mailbox. */
  preferred_username?: string;
  /** Only when the account has one and the `email` scope is granted; not verified (see `xms_edov`). */
  email?: string;
  /**
   * Optional claim "email domain owner verified": the tenant verified the
   * domain of `email` (or the account is a Microsoft, Google or one-time-passcode
   * one). Sent only when the app registration adds it to the ID token.
   */
  xms_edov?: boolean | string;
  login_hint?: string;
  nonce?: string;
  roles?: string[];
  groups?: string[];
  sid?: string;
  uti?: string;
  rh?: string;
  ver?: "2.0";
  [claim: string]: unknown;
}

/** `xms_edov` arrives as a boolean, or as `"true"` / `"1"` in some tokens. */
function isEdovTrue(value: unknown): boolean {
  return value === true || value === "true" || value === "1";
}

/** The square sizes Microsoft Graph serves profile photos in. */
export type EntraPhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648;

export interface MicrosoftEntraIDUserConfig extends OAuthUserConfig<MicrosoftEntraIDProfile> {
  /**
   * Fetch the user's photo from Microsoft Graph as a `data:` URL (adds the
   * `User.Read` scope). Off by default: it is one more request per sign-in and
   * the image is stored in the user record (and the JWT, with JWT sessions),
   * so keep the size small. `true` means 48 x 48.
   */
  profilePhoto?: boolean | { size?: EntraPhotoSize };
  /** Auth.js's option: setting it turns the photo on at that size. */
  profilePhotoSize?: EntraPhotoSize;
}

function photoSize(config: MicrosoftEntraIDUserConfig): EntraPhotoSize | null {
  const { profilePhoto, profilePhotoSize } = config;
  if (profilePhoto === false) return null;
  if (typeof profilePhoto === "object" && profilePhoto !== null) return profilePhoto.size ?? profilePhotoSize ?? 48;
  if (profilePhoto === true) return profilePhotoSize ?? 48;
  return profilePhotoSize ?? null;
}

/** Bytes to base64 without `Buffer`, so this runs on edge runtimes too. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The photo as a `data:` URL, or `null` (no photo, no `User.Read`, Graph down): a photo never blocks a sign-in. */
async function fetchPhoto(fetchFn: typeof fetch, size: EntraPhotoSize, tokens: TokenSet): Promise<string | null> {
  if (!tokens.access_token) return null;
  try {
    const response = await fetchFn(`https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    if (!response.ok) return null;
    const type = (response.headers.get("content-type") ?? "image/jpeg").split(";")[0]!.trim();
    if (!type.startsWith("image/")) return null;
    return `data:${type};base64,${toBase64(new Uint8Array(await response.arrayBuffer()))}`;
  } catch {
    return null;
  }
}

/**
 * Sign in with Microsoft Entra ID. Register an app at
 * https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade
 * (platform "Web", redirect URI `<origin>/auth/callback/microsoft-entra-id`),
 * add a client secret, then set `AUTH_MICROSOFT_ENTRA_ID_ID`,
 * `AUTH_MICROSOFT_ENTRA_ID_SECRET` and `AUTH_MICROSOFT_ENTRA_ID_ISSUER`.
 *
 * The issuer must name your tenant: `https://login.microsoftonline.com/<tenant id>/v2.0`.
 * There is deliberately no default: the multi-tenant `.../common/v2.0` (or
 * `organizations`, `consumers`) discovery document reports the issuer
 * `https://login.microsoftonline.com/{tenantid}/v2.0`, a template that matches
 * no configured issuer, and each tenant's ID tokens carry their own `iss`, so
 * they cannot be validated against one issuer. Personal Microsoft accounts
 * sign in through the consumers tenant, `9188040d-6c67-4c5b-b112-36a304b66dad`.
 *
 * The account id is `sub` (per app). `email` is often absent for work accounts
 * and is not used as a fallback for `preferred_username`, which need not be
 * a mailbox the user controls.
 *
 * `email` is the account's mail attribute, which a tenant's admin can set to
 * any address and Entra does not verify (the "nOAuth" takeover), so it counts
 * as verified only when the ID token also carries the optional claim
 * `xms_edov` as true. The app must enable that claim in its registration:
 * Token configuration > Add optional claim > ID > `email` and `xms_edov`.
 * Without it users still sign in, but their address is only a claim: it never
 * links to or takes over an existing user.
 *
 * @example
 * ```ts
 * import { MicrosoftEntraID } from "@gatehouse/runtime/providers";
 *
 * providers: [MicrosoftEntraID] // issuer from AUTH_MICROSOFT_ENTRA_ID_ISSUER
 * providers: [MicrosoftEntraID({ issuer: `https://login.microsoftonline.com/${tenantId}/v2.0`, profilePhoto: true })]
 * ```
 */
export function MicrosoftEntraID(config?: MicrosoftEntraIDUserConfig): OAuthConfig<MicrosoftEntraIDProfile> {
  const { profilePhoto: _photo, profilePhotoSize: _size, ...options } = config ?? {};
  const size = photoSize(config ?? {});
  // Read at sign-in time, so a `customFetch` given to the factory also carries the Graph call.
  const graphFetch: typeof fetch = (...args) => (config?.[customFetch] ?? fetch)(...args);
  return {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    authorization: { params: { scope: size ? "openid profile email User.Read" : "openid profile email" } },
    async profile(profile, tokens) {
      return {
        id: accountId(profile.sub),
        name: firstText(profile.name) ?? joinName(profile.given_name, profile.family_name),
        email: text(profile.email),
        image: size ? await fetchPhoto(graphFetch, size, tokens) : null,
      };
    },
    // `email` is a mail attribute any tenant admin can set, unverified ("nOAuth"); only the optional `xms_edov` claim vouches for it.
    verifiedEmail: (profile) => (isEdovTrue(profile.xms_edov) ? text(profile.email) : null),
    style: { bg: "#0072c6", text: "#fff", brandColor: "#0072c6" },
    options: options as Record<string, unknown>,
  };
}
