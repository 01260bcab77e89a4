/**
 * The callback's identity half: the provider's profile (ID token claims, the
 * userinfo endpoint, or the provider's own `userinfo.request`), mapped by its
 * `profile()` to a user, and the account to store.
 */
import * as o from "oauth4webapi";
import type { Account, Profile, TokenSet, User } from "../../types.js";
import { canonicalEmailOrUndefined } from "../identity/email-address.js";
import { AuthError, OAuthCallbackError, OAuthProfileParseError } from "../errors/errors.js";
import { describeOAuthError } from "./describe-error.js";
import type { Exchanged } from "./exchange.js";
import type { OAuthRuntime } from "./provider.js";
import { requestOptions } from "./server.js";

export interface MappedIdentity {
  /** The raw profile, as the provider sent it. */
  profile: Profile;
  /** What `profile()` made of it; `id` is the provider's account id, email lowercased. */
  user: User & { id: string };
  account: Account;
  /** The provider vouches for `user.email` (see `verifiedEmail`): only then is it the user's proven address. */
  emailProven: boolean;
}

async function fetchProfile(
  oauth: OAuthRuntime,
  metadata: o.AuthorizationServer,
  client: o.Client,
  exchanged: Exchanged,
  providerId: string,
): Promise<Profile> {
  const { tokens, claims } = exchanged;
  if (oauth.profileFromIdToken && claims && !oauth.userinfoAfterIdToken) return { ...claims } as Profile;
  try {
    if (oauth.userinfoRequest) {
      const provider = {
        ...oauth.config,
        userinfo: { ...(typeof oauth.config.userinfo === "object" ? oauth.config.userinfo : {}), url: metadata.userinfo_endpoint },
        fetch: oauth.fetch,
      };
      const profile = await oauth.userinfoRequest({ tokens, provider });
      if (!profile || typeof profile !== "object") throw new TypeError("userinfo.request returned no profile object");
      return profile;
    }
    if (!metadata.userinfo_endpoint) throw new TypeError("the provider has no userinfo endpoint; set `userinfo`");
    const response = await o.userInfoRequest(metadata, client, tokens.access_token!, requestOptions(oauth));
    if (claims) {
      // The userinfo response must be about the subject of the ID token.
      return (await o.processUserInfoResponse(metadata, client, claims.sub, response)) as Profile;
    }
    if (!response.ok) throw new TypeError(`the userinfo endpoint answered ${response.status}`);
    const body: unknown = await response.json();
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new TypeError("the userinfo response is not a JSON object");
    return body as Profile;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const at = metadata.userinfo_endpoint ? ` at ${metadata.userinfo_endpoint}` : "";
    throw new OAuthCallbackError(`Reading the profile from provider "${providerId}"${at} failed: ${describeOAuthError(error)}.`, {
      err: error as Error,
      provider: providerId,
    });
  }
}

function stringId(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  return undefined;
}

export async function mapIdentity(
  oauth: OAuthRuntime,
  metadata: o.AuthorizationServer,
  client: o.Client,
  exchanged: Exchanged,
  callbackParams: URLSearchParams,
  providerId: string,
): Promise<MappedIdentity> {
  let profile = await fetchProfile(oauth, metadata, client, exchanged, providerId);
  const tokens: TokenSet = exchanged.tokens;
  // Read from what the provider itself sent, before the unsigned callback parameters are merged in.
  const vouched = readVerifiedEmail(oauth, profile, tokens, providerId);
  const extra = oauth.callbackProfile?.(callbackParams);
  // Signed claims win over what the unsigned callback parameters add.
  if (extra) profile = { ...extra, ...profile };
  let mapped: User;
  try {
    mapped = await oauth.profile(profile, tokens);
  } catch (error) {
    throw new OAuthProfileParseError(`The profile() of provider "${providerId}" threw.`, { err: error as Error, provider: providerId });
  }
  const id = stringId(mapped?.id);
  if (!mapped || typeof mapped !== "object" || id === undefined) {
    throw new OAuthProfileParseError(`The profile() of provider "${providerId}" returned no \`id\`; it must return the provider's id of the user.`, {
      provider: providerId,
    });
  }
  const email = profileEmail(mapped.email, providerId);
  const user = { ...mapped, id, email };
  const fields = oauth.account(tokens) ?? {};
  const account: Account = {
    ...fields,
    ...(typeof fields.token_type === "string" ? { token_type: fields.token_type.toLowerCase() } : {}),
    provider: providerId,
    type: oauth.kind,
    providerAccountId: id,
  };
  return { profile, user, account, emailProven: email !== null && vouched === email };
}

/**
 * The profile's address in the canonical form every other way in stores
 * (`email-address.ts`), or `null` without one. An address that has no such
 * form (NUL, a bidi override, two addresses) is the provider's fault: the
 * sign-in is refused, rather than a look-alike user stored or the database
 * handed a NUL.
 */
function profileEmail(value: unknown, providerId: string): string | null {
  if (typeof value !== "string" || value === "") return null;
  const canonical = canonicalEmailOrUndefined(value);
  if (canonical === undefined) {
    // The address itself is not logged: it is personal data, and may hold characters that garble a log.
    throw new OAuthProfileParseError(
      `The email of provider "${providerId}"'s profile is not a plain email address (a control, format or invisible character, or more than one address).`,
      { provider: providerId },
    );
  }
  return canonical;
}

/** The provider's verified address, in the canonical form the user's email has; a `verifiedEmail` that throws fails the sign-in. */
function readVerifiedEmail(oauth: OAuthRuntime, profile: Profile, tokens: TokenSet, providerId: string): string | null {
  let vouched: unknown;
  try {
    vouched = oauth.verifiedEmail(profile, tokens);
  } catch (error) {
    throw new OAuthProfileParseError(`The verifiedEmail() of provider "${providerId}" threw.`, { err: error as Error, provider: providerId });
  }
  // An address without a canonical form vouches for nothing.
  return typeof vouched === "string" && vouched !== "" ? (canonicalEmailOrUndefined(vouched) ?? null) : null;
}
