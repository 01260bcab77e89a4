/**
 * The adapter contract: every method optional, as in the specification and in
 * Auth.js, so Auth.js adapters plug in unchanged. A method the running flow needs
 * but the adapter lacks fails with `MissingAdapterMethods`.
 */
import type { Account, Authenticator, Awaitable, User } from "../model.js";

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
  /**
   * gatehouse extension: when the session was created (the sign-in), where the
   * adapter stores it; `null` for a session stored before it did.
   */
  createdAt?: Date | null;
  /** gatehouse extension: the `User-Agent` of the browser that signed in (at most 512 characters), where stored. */
  userAgent?: string | null;
}

/** What `createSession` stores: the contract's fields, and what the adapter may keep beyond them. */
export interface AdapterNewSession {
  sessionToken: string;
  userId: string;
  expires: Date;
  /** gatehouse extension: the browser's `User-Agent` (at most 512 characters), kept for the user's list of sessions. */
  userAgent?: string | null;
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

/** A user `createUserWithAccount` creates: without an id, the adapter (or its database) assigns one. */
export type AdapterNewUser = Omit<AdapterUser, "id"> & { id?: string };

/**
 * An account `createUserWithAccount` links to the user it creates: an
 * `AdapterAccount` without `userId`, which the adapter sets. (A key-remapping
 * type, not `Omit`: `Omit` of a type with an index signature, as accounts have,
 * would drop every named field.)
 */
export type AdapterNewAccount = { [Key in keyof AdapterAccount as Key extends "userId" ? never : Key]: AdapterAccount[Key] };

export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  /**
   * gatehouse extension (not in Auth.js): creates a user and links its first
   * account to it, and for a passkey sign-up stores its first authenticator too,
   * in ONE transaction: either all of it is stored or none of it. Returns the
   * created user (with its id: the given one, or one the adapter assigned).
   *
   * It throws, having stored nothing, when any part fails: a user with that
   * email (or id) exists, the provider account is linked already, an
   * authenticator with that `credentialID` exists, or the database fails. The
   * account's and the authenticator's `userId` are the new user's id; any
   * `userId` they carry is ignored. Each part is stored as `createUser`,
   * `linkAccount` and `createAuthenticator` store it (`token_type` lowercased ...).
   *
   * The first sign-in (OAuth, OIDC, email link) and a passkey sign-up use it when
   * the adapter has it. Without it they call `createUser`, then `linkAccount` (and
   * `createAuthenticator`), deleting the new user again if a later call fails; a
   * process that dies between the calls still leaves a user without its account,
   * whose email then refuses that person's next sign-in (`OAuthAccountNotLinked`).
   *
   * @example A first sign-in, with nothing half-written if it fails
   * ```ts
   * try {
   *   const user = await adapter.createUserWithAccount?.(
   *     { email: profile.email, name: profile.name, image: null, emailVerified: null },
   *     { type: "oidc", provider: "google", providerAccountId: profile.sub, access_token, token_type: "bearer" },
   *   );
   * } catch (error) {
   *   // Nothing was stored: e.g. a concurrent first sign-in of the same person stored
   *   // the user and the account first (read them with getUserByAccount), or the email is taken.
   * }
   * ```
   */
  createUserWithAccount?(
    user: AdapterNewUser,
    account: AdapterNewAccount,
    authenticator?: Omit<AdapterAuthenticator, "userId">,
  ): Awaitable<AdapterUser>;
  /**
   * gatehouse extension (not in Auth.js): hands a user whose email address was
   * never proven to the person who has just proven it (followed an email link
   * to it, or signed in with a provider that vouches for it).
   *
   * Whoever created that user only claimed the address, so nothing they set up
   * may come along: in ONE transaction, and only while the user still has
   * `email` and `emailVerified` is `null`, it deletes every account linked to
   * the user (OAuth, OIDC, email, passkey), its authenticators, its sessions and
   * its password (what `getUserPassword` reads; the `user_passwords` row of
   * gatehouse's schema), then sets `emailVerified`. Name, image and the user's
   * id (so the app's own rows) stay.
   * Returns the updated user and `revoked: true`.
   *
   * When the address is already proven (another request proved it first) it
   * changes nothing and returns the user with `revoked: false`; when the user is
   * gone or has another email now, `null`.
   *
   * @example An email link proves the address of a user a password sign-up created
   * ```ts
   * const holder = await adapter.getUserByEmail("ada@example.com");
   * if (holder && !holder.emailVerified) {
   *   const adopted = await adapter.adoptUnprovenUser?.(holder.id, { email: holder.email, emailVerified: new Date() });
   *   // adopted.user: no accounts, passkeys, sessions or password left; the prover's own are added next.
   * }
   * ```
   */
  adoptUnprovenUser?(
    userId: string,
    proof: { email: string; emailVerified: Date },
  ): Awaitable<{ user: AdapterUser; revoked: boolean } | null>;
  /**
   * gatehouse extension (not in Auth.js): creates a user together with its
   * password hash, for an email + password sign-up, in ONE transaction (or one
   * statement): both are stored or neither, so no user is ever left without the
   * password it signed up with. Returns the created user (with its id: the given
   * one, or one the adapter assigned) and `emailVerified` as given.
   *
   * When a user with that email exists already it stores nothing and returns
   * `null`; it never throws for that, so of two concurrent sign-ups for one
   * address exactly one gets a user and the other `null`. Emails are compared
   * as `getUserByEmail` compares them: exactly as given, so normalize first.
   * Any other failure (a taken id, the database) throws, having stored nothing.
   *
   * The hash is stored as given (hash with `@gatehouse/runtime/password`; never
   * pass the password itself). No adapter method returns it but `getUserPassword`.
   *
   * @example A sign-up form
   * ```ts
   * const user = await adapter.createUserWithPassword?.(
   *   { email: normalizedEmail, name, image: null, emailVerified: null },
   *   await hashPassword(password),
   * );
   * if (!user) {
   *   // The address is taken. Answer as for a new one (e.g. "check your inbox"), so the form does not tell who has an account.
   * }
   * ```
   */
  createUserWithPassword?(user: AdapterNewUser, passwordHash: string): Awaitable<AdapterUser | null>;
  /**
   * gatehouse extension (not in Auth.js): the user's password hash (as
   * `createUserWithPassword` or `setUserPassword` stored it), or `null` when the
   * user has none or does not exist.
   *
   * @example A password sign-in
   * ```ts
   * const user = await adapter.getUserByEmail(normalizedEmail);
   * const stored = user && (await adapter.getUserPassword?.(user.id));
   * if (!stored || !(await passwordMatches(password, stored))) {
   *   // Refuse the sign-in, the same way whichever check failed.
   * }
   * ```
   */
  getUserPassword?(userId: string): Awaitable<string | null>;
  /**
   * gatehouse extension (not in Auth.js): stores `passwordHash` as the user's
   * password, and moves its last-changed time (`updatedAt`) to now. What
   * `options.previous` says decides whether it writes:
   *
   * - `undefined` (or no `options`): always; the password is inserted or replaced.
   * - a string: only while the stored hash equals it (compare-and-set). A re-hash
   *   at sign-in passes the hash it checked, so it never undoes a password
   *   change made meanwhile; of two concurrent calls with the same `previous`,
   *   exactly one writes.
   * - `null`: only while the user has no password yet (adding a password to a
   *   user who signed up another way); of two concurrent calls, exactly one writes.
   *
   * With `options.revokeSessions: true` it also deletes every database session
   * of the user and increments the user's session version (which ends its JWT
   * sessions), in the same transaction and only when it wrote: a password
   * reset signs out whoever knew the old password.
   *
   * Returns `true` when it wrote; `false`, having changed nothing, when the
   * condition did not hold or the user does not exist. It never throws for
   * those; it throws when the database fails, and then nothing is changed.
   *
   * @example A password reset, and a re-hash at sign-in
   * ```ts
   * // The reset link was valid: the new password, and every session of the old one ends.
   * await adapter.setUserPassword?.(userId, await hashPassword(newPassword), { revokeSessions: true });
   *
   * // Signed in with a hash made with weaker parameters: replace it, unless it changed meanwhile.
   * if (passwordNeedsRehash(stored)) await adapter.setUserPassword?.(userId, await hashPassword(password), { previous: stored });
   * ```
   */
  setUserPassword?(
    userId: string,
    passwordHash: string,
    options?: { previous?: string | null; revokeSessions?: boolean },
  ): Awaitable<boolean>;
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
  createSession?(session: AdapterNewSession): Awaitable<AdapterSession>;
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>;
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>;
  /**
   * gatehouse extension (not in Auth.js): every stored session of the user, for
   * a "where you are signed in" list, with `createdAt` and `userAgent` where the
   * adapter stores them. Expired sessions not yet deleted may be among them (the
   * caller leaves them out); an unknown user has none. Oldest first (sessions
   * created within one millisecond may come in either order).
   *
   * @example The account page's list of sessions
   * ```ts
   * const sessions = (await adapter.listSessionsByUserId?.(user.id)) ?? [];
   * const live = sessions.filter((session) => session.expires > new Date());
   * ```
   */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>;
  /**
   * gatehouse extension (not in Auth.js): ends the user's sessions, in ONE
   * transaction: deletes every database session of the user but the one whose
   * token is `options.except`, and increments the user's session version
   * (`getUserSessionVersion`), which ends the user's JWT sessions issued before
   * (each carries the version it was issued with). Returns the new version, or
   * `null` when the user does not exist (nothing changed).
   *
   * `setUserPassword` with `revokeSessions: true` does the same, without an
   * exception, in its own transaction.
   *
   * @example "Sign out everywhere else"
   * ```ts
   * const version = await adapter.revokeUserSessions?.(user.id, { except: currentSessionToken });
   * ```
   */
  revokeUserSessions?(userId: string, options?: { except?: string }): Awaitable<number | null>;
  /**
   * gatehouse extension (not in Auth.js): the user's session version, a
   * counter that `revokeUserSessions` and `setUserPassword` (with
   * `revokeSessions`) increment; 0 for a user whose sessions were never
   * revoked, `null` for an unknown user. A JWT session carries the version it
   * was issued with and ends once the stored one differs: the read a JWT
   * session makes where the adapter has this method (each process reuses it
   * for `session.revocationDelay` seconds).
   */
  getUserSessionVersion?(userId: string): Awaitable<number | null>;
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>;
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  getAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>;
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator["userId"]): Awaitable<AdapterAuthenticator[]>;
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>;
  /**
   * gatehouse extension (not in Auth.js): every account linked to the user
   * (OAuth, OIDC, email, passkey), for the account page's list of ways to sign
   * in. An unknown user has none.
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
  /**
   * gatehouse extension (not in Auth.js): names a passkey of the user (`null`
   * clears the name). Only the passkey of THIS user with that credential id
   * changes: another user's, or none, returns `null` and changes nothing.
   */
  renameAuthenticator?(userId: string, credentialID: string, name: string | null): Awaitable<AdapterAuthenticator | null>;
  /**
   * gatehouse extension (not in Auth.js): removes a passkey of the user and its
   * `webauthn` account (whose `providerAccountId` is the credential id), in ONE
   * transaction. Only the user's own: another user's, or none, returns `null`
   * and removes nothing. Returns the removed authenticator.
   */
  deleteAuthenticator?(userId: string, credentialID: string): Awaitable<AdapterAuthenticator | null>;
}
