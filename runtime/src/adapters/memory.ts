/**
 * `MemoryAdapter`: the whole adapter contract on `Map`s in this process's memory,
 * for tests, demos and examples. It enforces what a database schema enforces
 * (unique email, unique provider account, unique session and credential ids,
 * users that records point at must exist, deletes cascade), so code that works
 * against it does not break on the first real database.
 *
 * Everything is copied in and out: a caller mutating what it passed or got back
 * never changes the store, as with a database.
 */
import { storedUserAgent } from "./session-user-agent.js";
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterNewUser,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "./types.js";
import { ACCOUNT_TOKEN_FIELDS } from "./account-token-fields.js";

export interface MemoryAdapterOptions {
  /**
   * The environment variables; only `NODE_ENV` is read. The runtime never reads
   * `process.env` itself (it also runs where there is none), so pass yours: the
   * framework glue does, e.g. `process.env` on Node or SolidStart, `env` from
   * `$env/dynamic/private` in SvelteKit. With `NODE_ENV=production` the adapter
   * warns once that its data is not persistent.
   */
  env?: Record<string, string | undefined>;
  /** Receives that warning. Default: `console.warn`. */
  warn?: (message: string) => void;
}

/** A memory adapter: every adapter method, plus `clear()`. */
export interface MemoryAdapterInstance extends Required<Adapter> {
  /** Empties every store (users, accounts, sessions, tokens, authenticators, passwords), e.g. in `beforeEach`. */
  clear(): void;
}

/** What kind of rule a call broke, to `switch` on like a database error code. */
export type MemoryAdapterErrorCode = "unique_violation" | "foreign_key_violation" | "not_found";

/** Thrown where a database would fail the query: a broken constraint or a missing row. */
export class MemoryAdapterError extends Error {
  override name = "MemoryAdapterError";
  readonly code: MemoryAdapterErrorCode;
  constructor(code: MemoryAdapterErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

const PRODUCTION_WARNING =
  "[auth][warn][memory-adapter] MemoryAdapter is in use with NODE_ENV=production. It keeps users, " +
  "accounts and sessions in this process's memory only: all data is lost on restart and is not shared " +
  "between processes or server instances. Use a database adapter in production.";

/**
 * Creates an empty in-memory adapter. Each call has its own stores.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
 *
 * const adapter = MemoryAdapter({ env: process.env });
 * const config: AuthConfig = { adapter, providers: [...] };
 * // in tests: beforeEach(() => adapter.clear());
 * ```
 */
export function MemoryAdapter(options: MemoryAdapterOptions = {}): MemoryAdapterInstance {
  if (options.env?.NODE_ENV === "production") (options.warn ?? console.warn)(PRODUCTION_WARNING);

  const users = new Map<string, AdapterUser>();
  const userIdByEmail = new Map<string, string>();
  const accounts = new Map<string, AdapterAccount>();
  const sessions = new Map<string, AdapterSession>();
  const verificationTokens = new Map<string, VerificationToken>();
  const authenticators = new Map<string, AdapterAuthenticator>();
  /** Password hashes by user id, as a database keeps them apart from the users. */
  const passwords = new Map<string, string>();
  /** Session versions by user id (`revokeUserSessions`); a user without one is at 0. */
  const sessionVersions = new Map<string, number>();

  // Nothing below awaits between checking a constraint and writing, so two
  // concurrent calls cannot both pass the check: each method body runs to the
  // end before the other starts.

  function requireUser(userId: string, what: string): void {
    if (!users.has(userId)) {
      throw new MemoryAdapterError("foreign_key_violation", `Cannot ${what}: there is no user with id "${userId}".`);
    }
  }

  function claimEmail(email: unknown, userId: string): void {
    // Users without an email (some OAuth profiles) do not collide, like NULLs under a UNIQUE constraint.
    if (typeof email !== "string") return;
    const owner = userIdByEmail.get(email);
    if (owner !== undefined && owner !== userId) {
      throw new MemoryAdapterError("unique_violation", `A user with email "${email}" already exists.`);
    }
  }

  // What createUser, linkAccount and createAuthenticator store, checked against
  // the stores but not written: createUserWithAccount checks all three first.

  /** The user `createUser` stores; throws on a taken id or email. */
  function userToCreate(input: AdapterNewUser): AdapterUser {
    // `copy` already cloned emailVerified; defaulting must not bring back the caller's Date.
    const user = { ...copy(input) } as AdapterUser;
    user.emailVerified ??= null;
    // A given id is kept (a credentials `authorize()` user keeps its id); a database adapter may assign its own.
    user.id = typeof input.id === "string" && input.id !== "" ? input.id : crypto.randomUUID();
    if (users.has(user.id)) throw new MemoryAdapterError("unique_violation", `A user with id "${user.id}" already exists.`);
    claimEmail(user.email, user.id);
    return user;
  }

  function storeUser(user: AdapterUser): void {
    users.set(user.id, user);
    if (typeof user.email === "string") userIdByEmail.set(user.email, user.id);
  }

  /** The account `linkAccount` stores; throws when the provider account is linked already. Its user is the caller's to check. */
  function accountToLink(input: AdapterAccount): AdapterAccount {
    if (accounts.has(accountKey(input.provider, input.providerAccountId))) {
      throw new MemoryAdapterError(
        "unique_violation",
        `The ${input.provider} account "${input.providerAccountId}" is already linked to a user.`,
      );
    }
    const account = copy(input);
    // The contract returns token_type lowercased; providers send "Bearer".
    if (typeof account.token_type === "string") account.token_type = account.token_type.toLowerCase();
    return account;
  }

  /** The authenticator `createAuthenticator` stores; throws on a taken credentialID. Its user is the caller's to check. */
  function authenticatorToCreate(input: AdapterAuthenticator): AdapterAuthenticator {
    if (authenticators.has(input.credentialID)) {
      throw new MemoryAdapterError("unique_violation", `An authenticator with credentialID "${input.credentialID}" already exists.`);
    }
    return { ...copy(input), transports: input.transports ?? null, name: input.name ?? null, createdAt: new Date(), lastUsedAt: null };
  }

  function withoutUser(userId: string): void {
    for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key);
    withoutSessions(userId);
    for (const [id, authenticator] of authenticators) if (authenticator.userId === userId) authenticators.delete(id);
    passwords.delete(userId);
  }

  function withoutSessions(userId: string, except?: string): void {
    for (const [token, session] of sessions) if (session.userId === userId && token !== except) sessions.delete(token);
  }

  /** Ends the user's sessions: the stored ones but `except`, and (by a new version) its JWTs. */
  function revokeSessionsOf(userId: string, except?: string): number {
    withoutSessions(userId, except);
    const version = (sessionVersions.get(userId) ?? 0) + 1;
    sessionVersions.set(userId, version);
    return version;
  }

  return {
    async createUser(input) {
      const user = userToCreate(input);
      storeUser(user);
      return copy(user);
    },

    async createUserWithAccount(userInput, accountInput, authenticatorInput) {
      // Every check first, then every write, with no await between: all or nothing, as a transaction.
      const user = userToCreate(userInput);
      const account = accountToLink({ ...accountInput, userId: user.id });
      const authenticator = authenticatorInput && authenticatorToCreate({ ...authenticatorInput, userId: user.id });
      storeUser(user);
      accounts.set(accountKey(account.provider, account.providerAccountId), account);
      if (authenticator) authenticators.set(authenticator.credentialID, authenticator);
      return copy(user);
    },

    async adoptUnprovenUser(userId, { email, emailVerified }) {
      const current = users.get(userId);
      if (!current || current.email !== email) return null;
      // Checked and written with no await between: of two racing calls, the second finds the address proven.
      if (current.emailVerified) return { user: copy(current), revoked: false };
      // Whoever created the user only claimed the address: nothing of theirs stays, their password included.
      withoutUser(userId);
      const adopted: AdapterUser = { ...current, emailVerified: copy(emailVerified) };
      users.set(userId, adopted);
      return { user: copy(adopted), revoked: true };
    },

    async createUserWithPassword(userInput, passwordHash) {
      // A taken email is an answer, not an error: null, nothing written. Looked up as getUserByEmail
      // looks it up, and checked and written with no await between, so of two racing sign-ups one gets null.
      if (typeof userInput.email === "string" && userIdByEmail.has(userInput.email)) return null;
      const user = userToCreate(userInput);
      storeUser(user);
      passwords.set(user.id, passwordHash);
      return copy(user);
    },

    async getUserPassword(userId) {
      return passwords.get(userId) ?? null;
    },

    async setUserPassword(userId, passwordHash, { previous, revokeSessions } = {}) {
      if (!users.has(userId)) return false;
      // Compared and written with no await between: of two racing compare-and-sets, the second sees the first's hash.
      if (previous !== undefined && (passwords.get(userId) ?? null) !== previous) return false;
      // No last-changed time to move: nothing in the contract reads it.
      passwords.set(userId, passwordHash);
      if (revokeSessions) revokeSessionsOf(userId);
      return true;
    },

    async getUser(id) {
      return copyOrNull(users.get(id));
    },

    async getUserByEmail(email) {
      const id = userIdByEmail.get(email);
      return copyOrNull(id === undefined ? undefined : users.get(id));
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId));
      return copyOrNull(account && users.get(account.userId));
    },

    async updateUser(patch) {
      const current = users.get(patch.id);
      if (!current) throw new MemoryAdapterError("not_found", `Cannot update user "${patch.id}": it does not exist.`);
      const next: AdapterUser = { ...current, ...definedFields(copy(patch)) };
      if (next.email !== current.email) {
        claimEmail(next.email, next.id);
        if (typeof current.email === "string") userIdByEmail.delete(current.email);
        if (typeof next.email === "string") userIdByEmail.set(next.email, next.id);
      }
      users.set(next.id, next);
      return copy(next);
    },

    async deleteUser(userId) {
      const user = users.get(userId);
      if (!user) return null;
      users.delete(userId);
      if (typeof user.email === "string") userIdByEmail.delete(user.email);
      withoutUser(userId);
      sessionVersions.delete(userId);
      return copy(user);
    },

    async linkAccount(input) {
      requireUser(input.userId, "link an account");
      const account = accountToLink(input);
      accounts.set(accountKey(account.provider, account.providerAccountId), account);
      return copy(account);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId);
      const account = accounts.get(key);
      if (!account) return undefined;
      accounts.delete(key);
      return copy(account);
    },

    async getAccount(providerAccountId, provider) {
      return copyOrNull(accounts.get(accountKey(provider, providerAccountId)));
    },

    async updateAccount(update, condition) {
      const key = accountKey(update.provider, update.providerAccountId);
      const current = accounts.get(key);
      if (!current) return null;
      // Compared and written with no await between: of two racing refreshes, the second sees the first's token.
      if (condition && (current.refresh_token ?? null) !== (condition.refresh_token ?? null)) return null;
      // Only the token fields: the key, userId and type stay, as in a database's UPDATE of those columns.
      const next: Record<string, unknown> = { ...current };
      for (const field of ACCOUNT_TOKEN_FIELDS) {
        const value = update[field];
        if (value === undefined) continue;
        // Cleared fields are left out, as the database adapters return a NULL column.
        if (value === null) delete next[field];
        else next[field] = field === "token_type" && typeof value === "string" ? value.toLowerCase() : copy(value);
      }
      accounts.set(key, next as AdapterAccount);
      return copy(next as AdapterAccount);
    },

    async createSession(input) {
      requireUser(input.userId, "create a session");
      if (sessions.has(input.sessionToken)) {
        throw new MemoryAdapterError("unique_violation", "A session with this session token already exists.");
      }
      const { sessionToken, userId, expires, userAgent } = copy(input);
      const session: AdapterSession = { sessionToken, userId, expires, createdAt: new Date(), userAgent: storedUserAgent(userAgent) };
      sessions.set(sessionToken, session);
      return copy(session);
    },

    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken);
      const user = session && users.get(session.userId);
      return session && user ? { session: copy(session), user: copy(user) } : null;
    },

    async updateSession(patch) {
      const current = sessions.get(patch.sessionToken);
      if (!current) return null;
      const next: AdapterSession = { ...current, ...definedFields(copy(patch)) };
      if (next.userId !== current.userId) requireUser(next.userId, "move a session");
      sessions.set(next.sessionToken, next);
      return copy(next);
    },

    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken);
      if (!session) return null;
      sessions.delete(sessionToken);
      return copy(session);
    },

    async listSessionsByUserId(userId) {
      // Insertion order is creation order: oldest first.
      return [...sessions.values()].filter((session) => session.userId === userId).map(copy);
    },

    async revokeUserSessions(userId, { except } = {}) {
      return users.has(userId) ? revokeSessionsOf(userId, except) : null;
    },

    async getUserSessionVersion(userId) {
      return users.has(userId) ? (sessionVersions.get(userId) ?? 0) : null;
    },

    async createVerificationToken(input) {
      const key = tokenKey(input.identifier, input.token);
      if (verificationTokens.has(key)) {
        throw new MemoryAdapterError("unique_violation", "This verification token already exists for this identifier.");
      }
      const token = copy(input);
      verificationTokens.set(key, token);
      return copy(token);
    },

    async useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token);
      const stored = verificationTokens.get(key);
      if (!stored) return null;
      // Deleted in the same step it is read: a token signs in once, however many requests race for it.
      verificationTokens.delete(key);
      return copy(stored);
    },

    async createAuthenticator(input) {
      requireUser(input.userId, "create an authenticator");
      const authenticator = authenticatorToCreate(input);
      authenticators.set(authenticator.credentialID, authenticator);
      return copy(authenticator);
    },

    async getAuthenticator(credentialID) {
      return copyOrNull(authenticators.get(credentialID));
    },

    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const current = authenticators.get(credentialID);
      if (!current) {
        throw new MemoryAdapterError("not_found", `Cannot update the counter of authenticator "${credentialID}": it does not exist.`);
      }
      const next: AdapterAuthenticator = { ...current, counter: newCounter, lastUsedAt: new Date() };
      authenticators.set(credentialID, next);
      return copy(next);
    },

    async listAccountsByUserId(userId) {
      const owned = [...accounts.values()].filter((account) => account.userId === userId);
      return owned.sort((x, y) => x.provider.localeCompare(y.provider) || x.providerAccountId.localeCompare(y.providerAccountId)).map(copy);
    },

    async renameAuthenticator(userId, credentialID, name) {
      const current = authenticators.get(credentialID);
      if (!current || current.userId !== userId) return null;
      const next: AdapterAuthenticator = { ...current, name };
      authenticators.set(credentialID, next);
      return copy(next);
    },

    async deleteAuthenticator(userId, credentialID) {
      const current = authenticators.get(credentialID);
      if (!current || current.userId !== userId) return null;
      // The passkey and its webauthn account, with no await between: both go or neither.
      authenticators.delete(credentialID);
      for (const [key, account] of accounts) {
        if (account.userId === userId && account.type === "webauthn" && account.providerAccountId === credentialID) accounts.delete(key);
      }
      return copy(current);
    },

    clear() {
      for (const store of [users, userIdByEmail, accounts, sessions, verificationTokens, authenticators, passwords, sessionVersions]) store.clear();
    },
  };
}


// Keys are JSON arrays so that no provider or identifier value can make two pairs collide.
function accountKey(provider: string, providerAccountId: string): string {
  return JSON.stringify([provider, providerAccountId]);
}

function tokenKey(identifier: string, token: string): string {
  return JSON.stringify([identifier, token]);
}

/** A deep copy that keeps `Date`s as `Date`s (extra fields may hold nested objects). */
function copy<T>(value: T): T {
  return structuredClone(value);
}

function copyOrNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : copy(value);
}

/** The fields of a partial update that are set: `undefined` means "not given", not "clear it". */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
