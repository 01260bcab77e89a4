/**
 * `HostedStoreAdapter`: the whole adapter contract on the hosted store's svc_
 * tables (see `runtime/migrations/hosted-store`). Every method is ONE
 * statement, so each is atomic on its own: an account or session and its join
 * row are inserted together by one statement (a data-modifying WITH), never
 * one without the other. These are one transaction each:
 * `createUserWithAccount` runs the statements of `createUser`, `linkAccount`
 * (and `createAuthenticator`); `adoptUnprovenUser` sets the user's
 * `emailVerified` and deletes its accounts, sessions, authenticators and
 * password (join rows go with their accounts and sessions, by cascade);
 * `createUserWithPassword` inserts the user and its password record, and
 * `setUserPassword` with `revokeSessions` writes the password and deletes the
 * user's sessions.
 * Constraints (unique email, unique provider account, links that cascade) and
 * conditional updates keep the data consistent under concurrent requests, not
 * read-then-write checks here.
 *
 * Reads go through the direct `user` links, the simplest query; the join
 * tables are kept for the schema's other readers and match the links always
 * (the migration's composite foreign keys guarantee it).
 */
import type { SqlClient } from "../postgres/client.js";
import { SESSION_JSON_COLUMN, postgresAccountUpdate, splitSessionAndUser } from "../sql/rows.js";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterNewUser, AdapterUser } from "../types.js";
import type { HostedStoreClient } from "./client.js";
import { HostedStoreError } from "./errors.js";
import { insertUserWithAccount } from "../sql/user-with-account.js";
import { adoptUnprovenUser, type AdoptionSchema } from "../sql/adopt-unproven-user.js";
import { passwordMethods, type PasswordMethods, type PasswordSchema } from "../sql/user-passwords.js";
import { storedUserAgent } from "../session-user-agent.js";
import { revokeSessionsIn, sessionMethods, type SessionMethods, type SessionSchema } from "../sql/user-sessions.js";
import { signInMethods, type SignInMethods } from "../sql/user-sign-in-methods.js";
import { insertAccount, insertAuthenticator, insertUser } from "./inserts.js";
import {
  ACCOUNT_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  LISTED_AUTHENTICATOR_COLUMNS,
  LISTED_SESSION_COLUMNS,
  SESSION_COLUMNS,
  TOKEN_COLUMNS,
  USER_COLUMNS,
  prefixed,
  toAccount,
  toAuthenticator,
  toSession,
  toUser,
  toVerificationToken,
  type AccountRow,
  type AuthenticatorRow,
  type SessionRow,
  type TokenRow,
  type UserRow,
} from "./rows.js";
import { tablesOf, type Tables } from "./tables.js";

/** The user fields `updateUser` may change, and their columns. */
const UPDATABLE_USER_COLUMNS = [
  ["name", "name"],
  ["email", "email"],
  ["emailVerified", `"emailVerified"`],
  ["image", "image"],
] as const satisfies ReadonlyArray<readonly [keyof AdapterUser, string]>;

/** A statement, given the branch's table names. */
type Statement = (t: Tables) => string;

/** What `adoptUnprovenUser` changes in a branch: a user's record, and the records linked to it. */
function adoptionIn(t: Tables): AdoptionSchema<unknown, UserRow> {
  return {
    users: t.users,
    userColumns: USER_COLUMNS,
    owned: [
      [t.accounts, `"user"`],
      [t.sessions, `"user"`],
      [t.authenticators, `"user"`],
      [t.passwords, `"user"`],
    ],
    placeholder: (n) => `$${n}`,
    date: (date) => date,
    toUser,
  };
}

/** A user's sessions and its session version in a branch (migration 0003). */
function sessionsIn(t: Tables): SessionSchema<SessionRow> {
  return {
    users: [t.users, `"sessionVersion"`],
    // Their join rows go with them (cascade).
    sessions: [t.sessions, `"user"`],
    sessionColumns: LISTED_SESSION_COLUMNS,
    oldestFirst: "created_at, id",
    placeholder: (n) => `$${n}`,
    toSession,
  };
}

/** Where the password methods keep a user's password hash in a branch, and how `revokeSessions` ends the user's sessions. */
function passwordsIn(t: Tables): PasswordSchema<unknown, UserRow> {
  return {
    users: t.users,
    userColumns: USER_COLUMNS,
    passwords: t.passwords,
    passwordUser: `"user"`,
    revokeSessions: revokeSessionsIn(sessionsIn(t)),
    // svc_touch() sets it on every update too; said here so the statement does not depend on the trigger.
    touch: "updated_at = now()",
    placeholder: (n) => `$${n}`,
    date: (date) => date,
    toUser,
  };
}

/**
 * The adapter for a hosted store migrated with `migrate()` (or the SQL files in
 * `@gatehouse/runtime/migrations/hosted-store`, applied in the branch's schema).
 *
 * Connects on first use, through `client.connection()`. Fields beyond the
 * schema's (e.g. extra user profile fields, `expires_in` of an account) are
 * not stored.
 *
 * @example
 * ```ts
 * const store = new HostedStoreClient({ env: process.env, connect: (url) => fromPg(new pg.Pool({ connectionString: url })) });
 * await migrate(store);
 * const config = { adapter: HostedStoreAdapter(store), providers: [...] };
 * ```
 */
export function HostedStoreAdapter(client: HostedStoreClient): Required<Adapter> {
  if (typeof client?.getConfig !== "function" || typeof client.connection !== "function") {
    throw new TypeError("HostedStoreAdapter: expected a HostedStoreClient.");
  }

  let ready: Promise<{ db: SqlClient; t: Tables }> | undefined;
  function store(): Promise<{ db: SqlClient; t: Tables }> {
    ready ??= (async () => {
      const [{ branch }, db] = await Promise.all([client.getConfig(), client.connection()]);
      return { db, t: tablesOf(branch) };
    })().catch((error: unknown) => {
      // Not kept, so a store that was unreachable once is tried again on the next call.
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function all<Row>(statement: Statement, params: unknown[]): Promise<Row[]> {
    const { db, t } = await store();
    return (await db.query<Row>(statement(t), params)).rows;
  }

  async function one<Row>(statement: Statement, params: unknown[]): Promise<Row | null> {
    return (await all<Row>(statement, params))[0] ?? null;
  }

  async function passwords(): Promise<PasswordMethods> {
    const { db, t } = await store();
    return passwordMethods(db, passwordsIn(t));
  }

  async function methods(): Promise<SignInMethods> {
    const { db, t } = await store();
    return signInMethods(db, {
      // The join rows of deleted accounts go with them (cascade).
      accounts: [t.accounts, `"user"`, ACCOUNT_COLUMNS],
      authenticators: [t.authenticators, `"user"`, LISTED_AUTHENTICATOR_COLUMNS],
      placeholder: (n) => `$${n}`,
      toAccount,
      toAuthenticator,
    });
  }

  async function sessions(): Promise<SessionMethods> {
    const { db, t } = await store();
    return sessionMethods(db, sessionsIn(t));
  }

  return {
    async createUser(user) {
      const { db, t } = await store();
      return insertUser(db, t, user);
    },

    async createUserWithAccount(user, account, authenticator) {
      const { db, t } = await store();
      const inserts = {
        user: (tx: SqlClient, u: AdapterNewUser) => insertUser(tx, t, u),
        account: (tx: SqlClient, a: AdapterAccount) => insertAccount(tx, t, a),
        authenticator: (tx: SqlClient, a: AdapterAuthenticator) => insertAuthenticator(tx, t, a),
      };
      return insertUserWithAccount((fn) => db.transaction(fn), inserts, user, account, authenticator);
    },

    async adoptUnprovenUser(userId, proof) {
      const { db, t } = await store();
      return adoptUnprovenUser((fn) => db.transaction(fn), adoptionIn(t), userId, proof);
    },

    createUserWithPassword: async (user, passwordHash) => (await passwords()).createUserWithPassword(user, passwordHash),
    getUserPassword: async (userId) => (await passwords()).getUserPassword(userId),
    setUserPassword: async (userId, passwordHash, options) => (await passwords()).setUserPassword(userId, passwordHash, options),

    listSessionsByUserId: async (userId) => (await sessions()).listSessionsByUserId(userId),
    revokeUserSessions: async (userId, options) => (await sessions()).revokeUserSessions(userId, options),
    getUserSessionVersion: async (userId) => (await sessions()).getUserSessionVersion(userId),

    listAccountsByUserId: async (userId) => (await methods()).listAccountsByUserId(userId),
    renameAuthenticator: async (userId, credentialID, name) => (await methods()).renameAuthenticator(userId, credentialID, name),
    deleteAuthenticator: async (userId, credentialID) => (await methods()).deleteAuthenticator(userId, credentialID),

    async getUser(id) {
      const row = await one<UserRow>((t) => `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = $1`, [id]);
      return row && toUser(row);
    },

    async getUserByEmail(email) {
      const row = await one<UserRow>((t) => `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE email = $1`, [email]);
      return row && toUser(row);
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await one<UserRow>(
        (t) => `SELECT ${prefixed("u", USER_COLUMNS)} FROM ${t.accounts} a JOIN ${t.users} u ON u.id = a."user"
          WHERE a.provider = $1 AND a."providerAccountId" = $2`,
        [provider, providerAccountId],
      );
      return row && toUser(row);
    },

    async updateUser(user) {
      // Only the fields given change; `undefined` means "not given", not "clear it".
      const params: unknown[] = [user.id];
      const sets: string[] = [];
      for (const [field, column] of UPDATABLE_USER_COLUMNS) {
        if (user[field] === undefined) continue;
        params.push(user[field]);
        sets.push(`${column} = $${params.length}`);
      }
      const row = await one<UserRow>(
        (t) =>
          sets.length > 0
            ? `UPDATE ${t.users} SET ${sets.join(", ")} WHERE id = $1 RETURNING ${USER_COLUMNS}`
            : `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = $1`,
        params,
      );
      if (!row) throw new HostedStoreError("not_found", `Cannot update user "${user.id}": it does not exist.`);
      return toUser(row);
    },

    async deleteUser(userId) {
      // Accounts, sessions, authenticators, the password and join rows go with it: their links cascade.
      const row = await one<UserRow>((t) => `DELETE FROM ${t.users} WHERE id = $1 RETURNING ${USER_COLUMNS}`, [userId]);
      return row && toUser(row);
    },

    async linkAccount(account) {
      const { db, t } = await store();
      return insertAccount(db, t, account);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      // Its join row goes with it (cascade).
      const row = await one<AccountRow>(
        (t) => `DELETE FROM ${t.accounts} WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT_COLUMNS}`,
        [provider, providerAccountId],
      );
      return row ? toAccount(row) : undefined;
    },

    async getAccount(providerAccountId, provider) {
      const row = await one<AccountRow>(
        (t) => `SELECT ${ACCOUNT_COLUMNS} FROM ${t.accounts} WHERE provider = $1 AND "providerAccountId" = $2`,
        [provider, providerAccountId],
      );
      return row && toAccount(row);
    },

    async updateAccount(update, condition) {
      // As in the PostgreSQL adapter. The user link is not touched, so the join row stays right.
      // The parameters do not depend on the table's name, the statement does.
      const { params } = postgresAccountUpdate("", ACCOUNT_COLUMNS, update, condition);
      const row = await one<AccountRow>((t) => postgresAccountUpdate(t.accounts, ACCOUNT_COLUMNS, update, condition).sql, params);
      return row && toAccount(row);
    },

    async createSession(session) {
      // The session and its join row in one statement, as in linkAccount.
      const row = await one<SessionRow>(
        (t) => `WITH session AS (
            INSERT INTO ${t.sessions} ("sessionToken", "user", expires, "userAgent") VALUES ($1, $2, $3, $4)
            RETURNING ${LISTED_SESSION_COLUMNS}
          ), joined AS (
            INSERT INTO ${t.usersSessions} (session, "user") SELECT id, "user" FROM session
          )
          SELECT ${SESSION_COLUMNS} FROM session`,
        [session.sessionToken, session.userId, session.expires, storedUserAgent(session.userAgent)],
      );
      return toSession(row!);
    },

    async getSessionAndUser(sessionToken) {
      // One round trip on every authenticated request; both records whole (see SESSION_JSON_COLUMN).
      const row = await one<UserRow>(
        (t) => `SELECT ${prefixed("u", USER_COLUMNS)}, to_jsonb(s) AS ${SESSION_JSON_COLUMN}
          FROM ${t.sessions} s JOIN ${t.users} u ON u.id = s."user"
          WHERE s."sessionToken" = $1`,
        [sessionToken],
      );
      if (!row) return null;
      const { user, session } = splitSessionAndUser<UserRow, SessionRow>(row);
      return { session: toSession(session), user: toUser(user) };
    },

    async updateSession(session) {
      // A new user moves the join row along: its link to the session cascades on update.
      const row = await one<SessionRow>(
        (t) => `UPDATE ${t.sessions} SET expires = COALESCE($2, expires), "user" = COALESCE($3, "user")
          WHERE "sessionToken" = $1 RETURNING ${LISTED_SESSION_COLUMNS}`,
        [session.sessionToken, session.expires ?? null, session.userId ?? null],
      );
      return row && toSession(row);
    },

    async deleteSession(sessionToken) {
      const row = await one<SessionRow>(
        (t) => `DELETE FROM ${t.sessions} WHERE "sessionToken" = $1 RETURNING ${LISTED_SESSION_COLUMNS}`,
        [sessionToken],
      );
      return row && toSession(row);
    },

    async createVerificationToken(token) {
      const row = await one<TokenRow>(
        (t) => `INSERT INTO ${t.verificationTokens} (identifier, token, expires) VALUES ($1, $2, $3) RETURNING ${TOKEN_COLUMNS}`,
        [token.identifier, token.token, token.expires],
      );
      return toVerificationToken(row!);
    },

    async useVerificationToken({ identifier, token }) {
      // Read and deleted in one statement: of two concurrent uses, exactly one gets the record.
      const row = await one<TokenRow>(
        (t) => `DELETE FROM ${t.verificationTokens} WHERE identifier = $1 AND token = $2 RETURNING ${TOKEN_COLUMNS}`,
        [identifier, token],
      );
      return row && toVerificationToken(row);
    },

    async createAuthenticator(authenticator) {
      const { db, t } = await store();
      return insertAuthenticator(db, t, authenticator);
    },

    async getAuthenticator(credentialID) {
      const row = await one<AuthenticatorRow>(
        (t) => `SELECT ${AUTHENTICATOR_COLUMNS} FROM ${t.authenticators} WHERE "credentialID" = $1`,
        [credentialID],
      );
      return row && toAuthenticator(row);
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = await all<AuthenticatorRow>(
        (t) => `SELECT ${LISTED_AUTHENTICATOR_COLUMNS} FROM ${t.authenticators} WHERE "user" = $1 ORDER BY "credentialID"`,
        [userId],
      );
      return rows.map(toAuthenticator);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await one<AuthenticatorRow>(
        (t) => `UPDATE ${t.authenticators} SET counter = $2, "lastUsedAt" = now() WHERE "credentialID" = $1 RETURNING ${LISTED_AUTHENTICATOR_COLUMNS}`,
        [credentialID, newCounter],
      );
      if (!row) {
        throw new HostedStoreError("not_found", `Cannot update the counter of authenticator "${credentialID}": it does not exist.`);
      }
      return toAuthenticator(row);
    },
  };
}
