/**
 * `SqliteAdapter`: the whole adapter contract on the schema of
 * `runtime/migrations/sqlite` (the tables and columns of the PostgreSQL schema,
 * in SQLite types, with the passwords of email + password accounts). Every
 * method is one statement, except `createUserWithAccount`,
 * `adoptUnprovenUser`, `createUserWithPassword` and `setUserPassword` with
 * `revokeSessions`, one transaction each: constraints (unique email, unique
 * provider account, foreign keys that cascade) and conditional updates keep
 * the data consistent, not read-then-write checks in this code.
 */
import { accountUpdates } from "../sql/rows.js";
import type { Adapter, AdapterUser } from "../types.js";
import type { SqliteClient, SqliteValue } from "./client.js";
import { toSqliteClient, type SqliteConnect, type SqliteDatabase } from "./connect.js";
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
  SESSION_COLUMNS,
  TOKEN_COLUMNS,
  USER_COLUMNS,
  toAccount,
  toAuthenticator,
  toMillis,
  toMillisOrNull,
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
export class SqliteAdapterError extends Error {
  override name = "SqliteAdapterError";
  readonly code = "not_found";
}

/** The user fields `updateUser` may change, their columns, and how each is stored. */
const UPDATABLE_USER_COLUMNS = [
  ["name", "name", (value) => value as string | null],
  ["email", "email", (value) => value as string],
  ["emailVerified", `"emailVerified"`, (value) => toMillisOrNull(value as Date | null, "emailVerified")],
  ["image", "image", (value) => value as string | null],
] as const satisfies ReadonlyArray<readonly [keyof AdapterUser, string, (value: unknown) => SqliteValue]>;

/** What `adoptUnprovenUser` changes: a user's row, and the rows of its accounts, sessions, authenticators and password. */
const ADOPTION: AdoptionSchema<SqliteValue, UserRow> = {
  users: "users",
  userColumns: USER_COLUMNS,
  owned: USER_OWNED_TABLES,
  placeholder: () => "?",
  date: (date) => toMillis(date, "emailVerified"),
  toUser,
};

/** A user's sessions and its session version (migration 0004). */
const SESSIONS: SessionSchema<SessionRow> = {
  users: ["users", `"sessionVersion"`],
  sessions: ["sessions", `"userId"`],
  sessionColumns: LISTED_SESSION_COLUMNS,
  // Sessions from before 0004 have no "createdAt" (NULL sorts first): first, in the order they were stored.
  oldestFirst: `"createdAt", id`,
  placeholder: () => "?",
  toSession,
};

/** A user's accounts and passkeys, as the account page lists and changes them. */
const SIGN_IN_METHODS: SignInMethodSchema<AccountRow, AuthenticatorRow> = {
  accounts: ["accounts", `"userId"`, ACCOUNT_COLUMNS],
  authenticators: ["authenticators", `"userId"`, LISTED_AUTHENTICATOR_COLUMNS],
  placeholder: () => "?",
  toAccount,
  toAuthenticator,
};

/** Where the password methods keep a user's password hash, and how `revokeSessions` ends the user's sessions. */
const PASSWORDS: PasswordSchema<SqliteValue, UserRow> = {
  users: "users",
  userColumns: USER_COLUMNS,
  passwords: "user_passwords",
  passwordUser: `"userId"`,
  revokeSessions: revokeSessionsIn(SESSIONS),
  // Milliseconds, as the column's default writes them.
  touch: `"updatedAt" = CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
  placeholder: () => "?",
  date: (date) => toMillis(date, "emailVerified"),
  toUser,
};

/**
 * The adapter for a SQLite database migrated with `migrate()` (or the SQL files
 * in `@gatehouse/runtime/migrations/sqlite`).
 *
 * Takes a `SqliteClient` (see `fromBetterSqlite3`, `fromNodeSqlite`) or, for
 * convenience, a better-sqlite3 `Database` or a node:sqlite `DatabaseSync`
 * directly (wrapped, which turns its foreign keys on). Or a function that
 * returns (a promise of) one of these: it is called on the first method call,
 * not here, so a module that builds the adapter can be imported (by a bundler
 * analysing it, say) without creating the database file. It is called once
 * (concurrent first calls share that call); if it throws or rejects, the
 * method call fails with an error that has it as `cause`, and the next method
 * call calls it again.
 *
 * Fields beyond the schema's columns (e.g. extra user profile fields,
 * `expires_in` of an account) are not stored. Users and sessions are read
 * whole: a column the app added (`ALTER TABLE users ADD COLUMN role TEXT`)
 * comes back from every user read, `getSessionAndUser` and so the callbacks,
 * as SQLite stores it (an INTEGER date stays a number: only the schema's own
 * columns are known to be dates or booleans).
 *
 * @example
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * const db = new Database("./data/auth.db");
 * db.pragma("journal_mode = WAL"); // readers do not wait for the writer
 * await migrate(db);
 * const config = { adapter: SqliteAdapter(db), providers: [...] };
 * ```
 *
 * @example Opened and migrated on first use
 * ```ts
 * import Database from "better-sqlite3";
 * import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
 *
 * let opening: Promise<Database.Database> | undefined;
 * // The app's one connection; the adapter and the app's own queries share it.
 * export const openDb = () =>
 *   (opening ??= openAndMigrate().catch((error: unknown) => {
 *     opening = undefined; // a failed open is not kept: the next call tries again
 *     throw error;
 *   }));
 *
 * async function openAndMigrate(): Promise<Database.Database> {
 *   const db = new Database("./data/auth.db"); // creates the file: only now, on first use
 *   try {
 *     await migrate(db);
 *     return db;
 *   } catch (error) {
 *     db.close();
 *     throw error;
 *   }
 * }
 *
 * export const adapter = SqliteAdapter(openDb);
 * ```
 */
export function SqliteAdapter(client: SqliteDatabase | SqliteConnect): Required<Adapter> {
  const db: SqliteClient = toSqliteClient(client, "SqliteAdapter");

  async function one<Row>(sql: string, params: SqliteValue[]): Promise<Row | null> {
    return (await db.query<Row>(sql, params)).rows[0] ?? null;
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
      const row = await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
      return row && toUser(row);
    },

    async getUserByEmail(email) {
      const row = await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, [email]);
      return row && toUser(row);
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await one<UserRow>(
        `SELECT ${prefixed("u", USER_COLUMNS)} FROM users u JOIN accounts a ON a."userId" = u.id
         WHERE a.provider = ? AND a."providerAccountId" = ?`,
        [provider, providerAccountId],
      );
      return row && toUser(row);
    },

    async updateUser(user) {
      // Only the fields given change; `undefined` means "not given", not "clear it".
      const params: SqliteValue[] = [];
      const sets: string[] = [];
      for (const [field, column, store] of UPDATABLE_USER_COLUMNS) {
        if (user[field] === undefined) continue;
        params.push(store(user[field]));
        sets.push(`${column} = ?`);
      }
      params.push(user.id);
      const row = await one<UserRow>(
        sets.length > 0
          ? `UPDATE users SET ${sets.join(", ")} WHERE id = ? RETURNING ${USER_COLUMNS}`
          : `SELECT ${USER_COLUMNS} FROM users WHERE id = ?`,
        params,
      );
      if (!row) throw new SqliteAdapterError(`Cannot update user "${user.id}": it does not exist.`);
      return toUser(row);
    },

    async deleteUser(userId) {
      // Accounts, sessions, authenticators and the password go with it: their foreign keys cascade.
      const row = await one<UserRow>(`DELETE FROM users WHERE id = ? RETURNING ${USER_COLUMNS}`, [userId]);
      return row && toUser(row);
    },

    linkAccount: (account) => insertAccount(db, account),

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await one<AccountRow>(
        `DELETE FROM accounts WHERE provider = ? AND "providerAccountId" = ? RETURNING ${ACCOUNT_COLUMNS}`,
        [provider, providerAccountId],
      );
      return row ? toAccount(row) : undefined;
    },

    async getAccount(providerAccountId, provider) {
      const row = await one<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE provider = ? AND "providerAccountId" = ?`,
        [provider, providerAccountId],
      );
      return row && toAccount(row);
    },

    async updateAccount(update, condition) {
      // One statement, so the compare-and-set is atomic: SQLite has one
      // writer, and the condition is checked by the statement that writes.
      const updates = accountUpdates(update);
      const params: SqliteValue[] = updates.map(([, value]) => value);
      params.push(update.provider, update.providerAccountId);
      let where = `provider = ? AND "providerAccountId" = ?`;
      if (condition) {
        // IS compares NULLs as equal: a condition of null matches an account without a refresh token.
        params.push(condition.refresh_token ?? null);
        where += ` AND refresh_token IS ?`;
      }
      const row = await one<AccountRow>(
        updates.length > 0
          ? `UPDATE accounts SET ${updates.map(([column]) => `${column} = ?`).join(", ")} WHERE ${where} RETURNING ${ACCOUNT_COLUMNS}`
          : `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE ${where}`,
        params,
      );
      return row && toAccount(row);
    },

    async createSession(session) {
      const row = await one<SessionRow>(
        `INSERT INTO sessions ("sessionToken", "userId", expires, "createdAt", "userAgent") VALUES (?, ?, ?, ?, ?) RETURNING ${LISTED_SESSION_COLUMNS}`,
        [session.sessionToken, session.userId, toMillis(session.expires, "expires"), Date.now(), storedUserAgent(session.userAgent)],
      );
      return toSession(row!);
    },

    async getSessionAndUser(sessionToken) {
      // Both rows whole, so two reads: SQLite has no row-to-JSON to carry one row inside the
      // other's (the two tables share column names). Each is a local index lookup. A user
      // deleted between them took the session with it (the foreign key cascades): null.
      const session = await one<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE "sessionToken" = ?`, [sessionToken]);
      const user = session && (await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [session.userId]));
      return session && user ? { session: toSession(session), user: toUser(user) } : null;
    },

    async updateSession(session) {
      const row = await one<SessionRow>(
        `UPDATE sessions SET expires = COALESCE(?, expires), "userId" = COALESCE(?, "userId")
         WHERE "sessionToken" = ? RETURNING ${LISTED_SESSION_COLUMNS}`,
        [toMillisOrNull(session.expires, "expires"), session.userId ?? null, session.sessionToken],
      );
      return row && toSession(row);
    },

    async deleteSession(sessionToken) {
      const row = await one<SessionRow>(`DELETE FROM sessions WHERE "sessionToken" = ? RETURNING ${LISTED_SESSION_COLUMNS}`, [
        sessionToken,
      ]);
      return row && toSession(row);
    },

    async createVerificationToken(token) {
      const row = await one<TokenRow>(
        `INSERT INTO verification_token (identifier, token, expires) VALUES (?, ?, ?) RETURNING ${TOKEN_COLUMNS}`,
        [token.identifier, token.token, toMillis(token.expires, "expires")],
      );
      return toVerificationToken(row!);
    },

    async useVerificationToken({ identifier, token }) {
      // Read and deleted in one statement: of two uses, exactly one gets the row.
      const row = await one<TokenRow>(
        `DELETE FROM verification_token WHERE identifier = ? AND token = ? RETURNING ${TOKEN_COLUMNS}`,
        [identifier, token],
      );
      return row && toVerificationToken(row);
    },

    createAuthenticator: (authenticator) => insertAuthenticator(db, authenticator),

    async getAuthenticator(credentialID) {
      const row = await one<AuthenticatorRow>(`SELECT ${AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "credentialID" = ?`, [
        credentialID,
      ]);
      return row && toAuthenticator(row);
    },

    async listAuthenticatorsByUserId(userId) {
      const { rows } = await db.query<AuthenticatorRow>(
        `SELECT ${LISTED_AUTHENTICATOR_COLUMNS} FROM authenticators WHERE "userId" = ? ORDER BY "credentialID"`,
        [userId],
      );
      return rows.map(toAuthenticator);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await one<AuthenticatorRow>(
        `UPDATE authenticators SET counter = ?, "lastUsedAt" = ? WHERE "credentialID" = ? RETURNING ${LISTED_AUTHENTICATOR_COLUMNS}`,
        [newCounter, Date.now(), credentialID],
      );
      if (!row) {
        throw new SqliteAdapterError(`Cannot update the counter of authenticator "${credentialID}": it does not exist.`);
      }
      return toAuthenticator(row);
    },
  };
}

/**
 * `id, "emailVerified"` -> `u.id AS id, u."emailVerified" AS "emailVerified"`: the
 * same columns, from one table of a join, named explicitly (SQLite does not
 * promise a result column's name without AS).
 */
function prefixed(alias: string, columns: string): string {
  // A whole row: SQLite names the columns of `u.*` by their own names.
  if (columns === "*") return `${alias}.*`;
  return columns
    .split(", ")
    .map((column) => `${alias}.${column} AS ${column}`)
    .join(", ");
}
