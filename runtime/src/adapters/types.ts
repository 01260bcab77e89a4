/**
 * The adapter contract: every method optional, as in the specification and in
 * Auth.js, so Auth.js adapters plug in unchanged. A method the running flow needs
 * but the adapter lacks fails with `MissingAdapterMethods`.
 */
import type { Account, Authenticator, Awaitable, User } from "../types.js";

export interface AdapterUser extends User {
  id: string;
  email: string;
  emailVerified: Date | null;
}

export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn";

export interface AdapterAccount extends Account {
  userId: string;
  type: AdapterAccountType;
}

export interface AdapterSession {
  sessionToken: string;
  userId: string;
  expires: Date;
}

export interface VerificationToken {
  identifier: string;
  expires: Date;
  token: string;
}

export interface AdapterAuthenticator extends Authenticator {
  userId: string;
}

/** The token fields of a linked account that `updateAccount` may change. */
export type AdapterAccountTokenField =
  | "access_token"
  | "refresh_token"
  | "expires_at"
  | "id_token"
  | "scope"
  | "token_type"
  | "session_state";

/**
 * What `updateAccount` takes: the account's key, and the token fields to
 * change. `null` clears a field; `undefined` (or leaving it out) keeps it.
 */
export type AdapterAccountUpdate = Pick<AdapterAccount, "provider" | "providerAccountId"> & {
  [Field in AdapterAccountTokenField]?: AdapterAccount[Field] | null | undefined;
};

export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  getUser?(id: string): Awaitable<AdapterUser | null>;
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>;
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>;
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>;
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>;
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>;
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
  /**
   * gatehouse extension (not in Auth.js): replaces token fields of a linked account.
   * Only the fields present in `update` change (a field set to `null` is cleared;
   * `undefined`/absent keeps the stored value); `provider` + `providerAccountId`
   * select the account; `userId` and `type` are never changed by this method.
   * With `condition`, the update happens only if the stored `refresh_token` equals
   * `condition.refresh_token` (compare-and-set, so two servers refreshing the same
   * account at once cannot both win). Returns the updated account, or `null` when no
   * such account exists or the condition did not hold.
   *
   * `token_type` is stored and returned lowercased, as `linkAccount` returns it;
   * `expires_at` is in seconds. Fields other than the token fields are ignored.
   *
   * @example Persisting a refreshed access token, once across servers
   * ```ts
   * // `refresh_token: undefined` keeps the stored one when the provider does not rotate it.
   * const updated = await adapter.updateAccount?.(
   *   { provider, providerAccountId, access_token: tokens.access_token, expires_at, refresh_token: tokens.refresh_token },
   *   { refresh_token: account.refresh_token ?? null },
   * );
   * if (!updated) {
   *   // Another server refreshed it first (or the account is gone): read it again.
   * }
   * ```
   */
  updateAccount?(
    update: AdapterAccountUpdate,
    condition?: { refresh_token: string | null },
  ): Awaitable<AdapterAccount | null>;
  createSession?(session: { sessionToken: string; userId: string; expires: Date }): Awaitable<AdapterSession>;
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>;
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>;
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>;
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  getAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>;
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator["userId"]): Awaitable<AdapterAuthenticator[]>;
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>;
}
