/**
 * `PostgresAdapter`: the whole adapter contract on the schema of
 * `runtime/migrations/postgres` (the Auth.js PostgreSQL tables plus
 * authenticators, and the passwords of email + password accounts). Every
 * method is one statement, except `createUserWithAccount`, `adoptUnprovenUser`,
 * `createUserWithPassword` and `setUserPassword` with `revokeSessions`, one
 * transaction each: constraints (unique email, unique provider account,
 * foreign keys that cascade) and conditional updates keep the data consistent
 * under concurrent requests, not read-then-write checks in this code.
 */
import { SESSION_JSON_COLUMN, postgresAccountUpdate, splitSessionAndUser } from "../sql/rows.js";
import type { Adapter, AdapterUser } from "../types.js";
import type { SqlClient } from "./client.js";
import { toSqlClient, type PostgresClient } from "./connect.js";
import { insertUserWithAccount } from "../sql/user-with-account.js";
import { USER_OWNED_TABLES, adoptUnprovenUser, type AdoptionSchema } from "../sql/adopt-unproven-user.js";
import { passwordMethods, type PasswordSchema } from "../sql/user-passwords.js";
import { storedUserAgent } from "../session-user-agent.js";
import { revokeSessionsIn, sessionMethods, type SessionSchema } from "../sql/user-sessions.js";
import { signInMethods, type SignInMethodSchema } from "../sql/user-sign-in-methods.js";
import { insertAccount, insertAuthenticator, insertUser } from "./inserts.js";
import {
  ACCOUNT_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  LISTED_AUTHENTICATOR_COLUMNS,
  LISTED_SESSION_COLUMNS,
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

/** Thrown when a method that must act on an existing row finds none (the driver's own errors pass through). */
export class PostgresAdapterError extends Error {
  override name = "PostgresAdapterError";
  readonly code = "not_found";
}

/** The user fields `updateUser` may change, and their columns. */
const UPDATABLE_USER_COLUMNS = [
  ["name", "name"],
  ["email", "email"],
  ["emailVerified", `"emailVerified"`],
  ["image", "image"],
] as const satisfies ReadonlyArray<readonly [keyof AdapterUser, string]>;

/** What `adoptUnprovenUser` changes: a user's row, and the rows of its accounts, sessions, authenticators and password. */
const ADOPTION: AdoptionSchema<unknown, UserRow> = {
  users: "users",
  userColumns: USER_COLUMNS,
  owned: USER_OWNED_TABLES,
  placeholder: (n) => `$${n}`,
  date: (date) => date,
  toUser,
};

/** A user's sessions and its session version (migration 0004). */
const SESSIONS: SessionSchema<SessionRow> = {
  users: ["users", `"sessionVersion"`],
  sessions: ["sessions", `"userId"`],
  sessionColumns: LISTED_SESSION_COLUMNS,
  // Sessions from before 0004 have no "createdAt": first, in the order they were stored.
  oldestFirst: `"createdAt" NULLS FIRST, id`,
  placeholder: (n) => `$${n}`,
  toSession,
};

/** A user's accounts and passkeys, as the account page lists and changes them. */
const SIGN_IN_METHODS: SignInMethodSchema<AccountRow, AuthenticatorRow> = {
  accounts: ["accounts", `"userId"`, ACCOUNT_COLUMNS],
  authenticators: ["authenticators", `"userId"`, LISTED_AUTHENTICATOR_COLUMNS],
  placeholder: (n) => `$${n}`,
  toAccount,
  toAuthenticator,
};

/** Where the password methods keep a user's password hash, and how `revokeSessions` ends the user's sessions. */
const PASSWORDS: PasswordSchema<unknown, UserRow> = {
  users: "users",
  userColumns: USER_COLUMNS,
  passwords: "user_passwords",
  passwordUser: `"userId"`,
  revokeSessions: revokeSessionsIn(SESSIONS),
  touch: `"updatedAt" = now()`,
  placeholder: (n) => `$${n}`,
  date: (date) => date,
  toUser,
};

/**
 * The adapter for a PostgreSQL database migrated with `migrate()` (or the SQL
 * files in `@gatehouse/runtime/migrations/postgres`).
 *
 * Takes a `SqlClient` (see `fromPg`, `fromPGlite`) or, for convenience, a
 * `pg.Pool`, a connected `pg.Client` or a `PGlite` instance directly. Or a
 * function that returns (a promise of) one of these: it is called on the first
 * method call, not here, so a module that builds the adapter can be imported
 * (by a bundler analysing it, say) without opening the database. It is called
 * once (concurrent first calls share that call); if it throws or rejects, the
 * method call fails with an error that has it as `cause`, and the next method
 * call calls it again.
 *
 * Fields beyond the schema's columns (e.g. extra user profile fields,
 * `expires_in` of an account) are not stored. Users and sessions are read
 * whole: a column the app added (`ALTER TABLE users ADD COLUMN role text`)
 * comes back from every user read, `getSessionAndUser` and so the callbacks.
 * (`getSessionAndUser` carries the session row as JSON, to stay one round trip:
 * a column added to `sessions` comes back as its JSON value there, a
 * `timestamptz` as its ISO string.) Adding a column while the app runs needs
 * no restart (see `fromPg`).
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migrate(pool);
 * const config = { adapter: PostgresAdapter(pool), providers: [...] };
 * ```
 *
 * @example Opened and migrated on first use
 * ```ts
 * import { PGlite } from "@electric-sql/pglite";
 * import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
 *
 * let opening: Promise<PGlite> | undefined;
 * // The app's one PGlite; the adapter and the app's own queries share it.
 * export const openDb = () =>
 *   (opening ??= openAndMigrate().catch((error: unknown) => {
 *     opening = undefined; // a failed open is not kept: the next call tries again
 *     throw error;
 *   }));
 *
 * async function openAndMigrate(): Promise<PGlite> {
 *   const db = new PGlite("./.data/auth");
 *   try {
 *     await migrate(db);
 *     return db;
 *   } catch (error) {
 *     await db.close().catch(() => {}); // a retry opens the directory again: never two PGlite on it
 *     throw error;
 *   }
 * }
 *
 * export const adapter = PostgresAdapter(openDb);
 * ```
 */
export function PostgresAdapter(client: PostgresClient): Required<Adapter> {
  const db: SqlClient = toSqlClient(client, "PostgresAdapter");

  async function one<Row>(text: string, params: unknown[]): Promise<Row | null> {
    return (await db.query<Row>(text, params)).rows[0] ?? null;
  }

  return {
    createUser: (user) => insertUser(db, user),

    createUserWithAccount: (user, account, authenticator) =>
      insertUserWithAccount((fn) => db.transaction(fn), { user: insertUser, account: insertAccount, authenticator: insertAuthenticator }, user, account, authenticator),

    adoptUnprovenUser: (userId, proof) => adoptUnprovenUser((fn) => db.transaction(fn), ADOPTION, userId, proof),

    ...passwordMethods(db, PASSWORDS),

    ...sessionMethods(db, SESSIONS),

    ...signInMethods(db, SIGN_IN_METHODS),

    async getUser(id) {
      const row = await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return row && toUser(row);
    },

    async getUserByEmail(email) {
      const row = await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
      return row && toUser(row);
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await one<UserRow>(
        `SELECT ${prefixed("u", USER_COLUMNS)} FROM users u JOIN accounts a ON a."userId" = u.id
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
        sets.length > 0
          ? `UPDATE users SET ${sets.join(", ")} WHERE id = $1 RETURNING ${USER_COLUMNS}`
          : `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`,
        params,
      );
      if (!row) throw new PostgresAdapterError(`Cannot update user "${user.id}": it does not exist.`);
      return toUser(row);
    },

    async deleteUser(userId) {
      // Accounts, sessions, authenticators and the password go with it: their foreign keys cascade.
      const row = await one<UserRow>(`DELETE FROM users WHERE id = $1 RETURNING ${USER_COLUMNS}`, [userId]);
      return row && toUser(row);
    },

    linkAccount: (account) => insertAccount(db, account),

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await one<AccountRow>(
        `DELETE FROM accounts WHERE provider = $1 AND "providerAccountId" = $2 RETURNING ${ACCOUNT_COLUMNS}`,
        [provider, providerAccountId],
      );
      return row ? toAccount(row) : undefined;
    },

    async getAccount(providerAccountId, provider) {
      const row = await one<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = $1 AND "providerAccountId" = $2`,
        [provider, providerAccountId],
      );
      return row && toAccount(row);
    },

    async updateAccount(update, condition) {
      const { sql, params } = postgresAccountUpdate("accounts", ACCOUNT_COLUMNS, update, condition);
      const row = await one<AccountRow>(sql, params);
      return row && toAccount(row);
    },

    async createSession(session) {
      const row = await one<SessionRow>(
        `INSERT INTO sessions ("sessionToken", "userId", expires, "userAgent") VALUES ($1, $2, $3, $4) RETURNING ${LISTED_SESSION_COLUMNS}`,
        [session.sessionToken, session.userId, session.expires, storedUserAgent(session.userAgent)],
      );
      return toSession(row!);
    },

    async getSessionAndUser(sessionToken) {
      // One round trip on every authenticated request; both rows whole (see SESSION_JSON_COLUMN).
      const row = await one<UserRow>(
        `SELECT ${prefixed("u", USER_COLUMNS)}, to_jsonb(s) AS ${SESSION_JSON_COLUMN}
         FROM sessions s JOIN users u ON u.id = s."userId"
         WHERE s."sessionToken" = $1`,
        [sessionToken],
      );
      if (!row) return null;
      const { user, session } = splitSessionAndUser<UserRow, SessionRow>(row);
      return { session: toSession(session), user: toUser(user) };
    },

    async updateSession(session) {
      const row = await one<SessionRow>(
        `UPDATE sessions SET expires = COALESCE($2, expires), "userId" = COALESCE($3, "userId")
         WHERE "sessionToken" = $1 RETURNING ${LISTED_SESSION_COLUMNS}`,
        [session.sessionToken, session.expires ?? null, session.userId ?? null],
      );
      return row && toSession(row);
    },

    async deleteSession(sessionToken) {
      const row = await one<SessionRow>(
        `DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING ${LISTED_SESSION_COLUMNS}`,
        [sessionToken],
      );
      return row && toSession(row);
    },

    async createVerificationToken(token) {
      const row = await one<TokenRow>(
        `INSERT INTO verification_token (identifier, token, expires) VALUES ($1, $2, $3) RETURNING ${TOKEN_COLUMNS}`,
        [token.identifier, token.token, token.expires],
      );
      return toVerificationToken(row!);
    },

    async useVerificationToken({ identifier, token }) {
      // Read and deleted in one statement: of two concurrent uses, exactly one gets the row.
      const row = await one<TokenRow>(
        `DELETE FROM verification_token WHERE identifier = $1 AND token = $2 RETURNING ${TOKEN_COLUMNS}`,
        [identifier, token],
      );
      return row && toVerificationToken(row);
    },

    createAuthenticator: (authenticator) => insertAuthenticator(db, authenticator),

    async getAuthenticator(credentialID) {
      const row = await one<AuthenticatorRow>(
        `SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "credentialID" = $1`,
        [credentialID],
      );
      return row && toAuthenticator(row);
    },

    async listAuthenticatorsByUserId(userId) {
      const { rows } = await db.query<AuthenticatorRow>(
        `SELECT ${LISTED_AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "userId" = $1 ORDER BY "credentialID"`,
        [userId],
      );
      return rows.map(toAuthenticator);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await one<AuthenticatorRow>(
        `UPDATE authenticators SET counter = $2, "lastUsedAt" = now() WHERE "credentialID" = $1 RETURNING ${LISTED_AUTHENTICATOR_COLUMNS}`,
        [credentialID, newCounter],
      );
      if (!row) {
        throw new PostgresAdapterError(`Cannot update the counter of authenticator "${credentialID}": it does not exist.`);
      }
      return toAuthenticator(row);
    },
  };
}
