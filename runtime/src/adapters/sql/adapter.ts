/**
 * The SQL adapter, written once: the whole adapter contract on the auth
 * schema's tables, in any dialect (`dialect.ts`). `PostgresAdapter`,
 * `SqliteAdapter` and `HostedStoreAdapter` are this with their dialect.
 *
 * Every method is one statement, except `createUserWithAccount`,
 * `adoptUnprovenUser`, `createUserWithPassword` and `setUserPassword` with
 * `revokeSessions`, one transaction each (and `getSessionAndUser` where no row
 * travels as JSON: two reads). Constraints (unique email, unique provider
 * account, foreign keys that cascade) and conditional updates keep the data
 * consistent under concurrent requests, not read-then-write checks here.
 *
 * Users and sessions are read whole: a column the app added comes back from
 * every user read, `getSessionAndUser` and so the callbacks.
 */
import { storedUserAgent } from "../session-user-agent.js";
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterNewUser } from "../types.js";
import { adoptUnprovenUser } from "./adopt-unproven-user.js";
import type { SqlQuery } from "./dialect.js";
import { splitSessionAndUser } from "./rows.js";
import { USERS, USER_OWNED, accountUpdate, userUpdate } from "./statements.js";
import { encodeDateOrNull, first, insertAccount, insertAuthenticator, insertUser, openStore, type AuthenticatorRow, type OpenStore, type SessionRow, type SqlStore, type UserRow } from "./store.js";
import { insertUserWithAccount } from "./user-with-account.js";

export type { SqlStore } from "./store.js";

/**
 * The adapter on the store `open` gives: called on the first method call (the
 * hosted store learns its branch then), once; if it throws or rejects, that
 * call fails and the next one calls it again.
 */
export function sqlAdapter<Value>(open: () => SqlStore<Value> | Promise<SqlStore<Value>>): Required<Adapter> {
  let ready: OpenStore<Value> | undefined;
  let opening: Promise<OpenStore<Value>> | undefined;
  /** The open store: at once once it is open, so the calls after the first wait for nothing. */
  function store(): OpenStore<Value> | Promise<OpenStore<Value>> {
    if (ready) return ready;
    opening ??= (async () => (ready = openStore(await open())))().catch((error: unknown) => {
      // Not kept, so a store that was unreachable once is tried again on the next call.
      opening = undefined;
      throw error;
    });
    return opening;
  }

  return {
    async createUser(user) {
      const s = await store();
      return insertUser(s, s.db, user);
    },

    async createUserWithAccount(user, account, authenticator) {
      const s = await store();
      const inserts = {
        user: (tx: SqlQuery<Value>, u: AdapterNewUser) => insertUser(s, tx, u),
        account: (tx: SqlQuery<Value>, a: AdapterAccount) => insertAccount(s, tx, a),
        authenticator: (tx: SqlQuery<Value>, a: AdapterAuthenticator) => insertAuthenticator(s, tx, a),
      };
      return insertUserWithAccount((fn) => s.db.transaction(fn), inserts, user, account, authenticator);
    },

    async adoptUnprovenUser(userId, proof) {
      const s = await store();
      const { names: n } = s.sql;
      const adoption = {
        users: n.table(USERS),
        userColumns: "*",
        owned: USER_OWNED.map((table) => [n.table(table), n.column(table, "userId")] as const),
        placeholder: n.p,
        date: (date: Date) => s.dialect.encode.date(date, "emailVerified"),
        toUser: s.map.toUser,
      };
      return adoptUnprovenUser((fn) => s.db.transaction(fn), adoption, userId, proof);
    },

    createUserWithPassword: async (user, passwordHash) => (await store()).passwords.createUserWithPassword(user, passwordHash),
    getUserPassword: async (userId) => (await store()).passwords.getUserPassword(userId),
    setUserPassword: async (userId, passwordHash, options) => (await store()).passwords.setUserPassword(userId, passwordHash, options),

    listSessionsByUserId: async (userId) => (await store()).sessions.listSessionsByUserId(userId),
    revokeUserSessions: async (userId, options) => (await store()).sessions.revokeUserSessions(userId, options),
    getUserSessionVersion: async (userId) => (await store()).sessions.getUserSessionVersion(userId),

    listAccountsByUserId: async (userId) => (await store()).signIn.listAccountsByUserId(userId),
    renameAuthenticator: async (userId, credentialID, name) => (await store()).signIn.renameAuthenticator(userId, credentialID, name),
    deleteAuthenticator: async (userId, credentialID) => (await store()).signIn.deleteAuthenticator(userId, credentialID),

    async getUser(id) {
      const s = await store();
      return first(s.db, s.sql.userById, [id], s.map.toUser);
    },

    async getUserByEmail(email) {
      const s = await store();
      return first(s.db, s.sql.userByEmail, [email], s.map.toUser);
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const s = await store();
      return first(s.db, s.sql.userByAccount, [provider, providerAccountId], s.map.toUser);
    },

    async updateUser(user) {
      const s = await store();
      const { sql, params } = userUpdate(s.dialect, s.sql.names, user);
      const updated = await first(s.db, sql, params, s.map.toUser);
      if (!updated) throw s.dialect.notFound(`Cannot update user "${user.id}": it does not exist.`);
      return updated;
    },

    async deleteUser(userId) {
      // Accounts, sessions, authenticators and the password (and join records) go with it: their links cascade.
      const s = await store();
      return first(s.db, s.sql.deleteUser, [userId], s.map.toUser);
    },

    async linkAccount(account) {
      const s = await store();
      return insertAccount(s, s.db, account);
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const s = await store();
      return (await first(s.db, s.sql.unlinkAccount, [provider, providerAccountId], s.map.toAccount)) ?? undefined;
    },

    async getAccount(providerAccountId, provider) {
      const s = await store();
      return first(s.db, s.sql.account, [provider, providerAccountId], s.map.toAccount);
    },

    async updateAccount(update, condition) {
      const s = await store();
      const { sql, params } = accountUpdate(s.dialect, s.sql.names, update, condition);
      return first(s.db, sql, params, s.map.toAccount);
    },

    async createSession(session) {
      const s = await store();
      const values = [session.sessionToken, session.userId, s.dialect.encode.date(session.expires, "expires"), storedUserAgent(session.userAgent)];
      return (await first(s.db, s.sql.insertSession, values, s.map.toSession))!;
    },

    async getSessionAndUser(sessionToken) {
      // Every authenticated request: the open store as it is, not through an await.
      const s = ready ?? (await store());
      if (s.sql.sessionAndUser) {
        // One round trip on every authenticated request; both rows whole (see SESSION_JSON_COLUMN).
        const row = await first(s.db, s.sql.sessionAndUser, [sessionToken], splitSessionAndUser<UserRow, SessionRow>);
        return row && { session: s.map.toSession(row.session), user: s.map.toUser(row.user) };
      }
      // Both rows whole, so two reads where no row travels as JSON (the two tables share column
      // names). Each is an index lookup. A user deleted in between took the session with it (the
      // foreign key cascades): null.
      const session = await first(s.db, s.sql.session, [sessionToken], s.map.toSession);
      const user = session && (await first(s.db, s.sql.userById, [session.userId], s.map.toUser));
      return session && user ? { session, user } : null;
    },

    async updateSession(session) {
      const s = await store();
      const values = [encodeDateOrNull(s.dialect, session.expires, "expires"), session.userId ?? null, session.sessionToken];
      return first(s.db, s.sql.updateSession, values, s.map.toSession);
    },

    async deleteSession(sessionToken) {
      const s = await store();
      return first(s.db, s.sql.deleteSession, [sessionToken], s.map.toSession);
    },

    async createVerificationToken(token) {
      const s = await store();
      const values = [token.identifier, token.token, s.dialect.encode.date(token.expires, "expires")];
      return (await first(s.db, s.sql.insertToken, values, s.map.toVerificationToken))!;
    },

    async useVerificationToken({ identifier, token }) {
      const s = await store();
      return first(s.db, s.sql.useToken, [identifier, token], s.map.toVerificationToken);
    },

    async createAuthenticator(authenticator) {
      const s = await store();
      return insertAuthenticator(s, s.db, authenticator);
    },

    async getAuthenticator(credentialID) {
      const s = await store();
      return first(s.db, s.sql.authenticator, [credentialID], s.map.toAuthenticator);
    },

    async listAuthenticatorsByUserId(userId) {
      const s = await store();
      const { rows } = await s.db.query<AuthenticatorRow>(s.sql.authenticatorsOf, [userId]);
      return rows.map(s.map.toAuthenticator);
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const s = await store();
      const updated = await first(s.db, s.sql.countSignIn, [newCounter, credentialID], s.map.toAuthenticator);
      if (!updated) throw s.dialect.notFound(`Cannot update the counter of authenticator "${credentialID}": it does not exist.`);
      return updated;
    },
  };
}
