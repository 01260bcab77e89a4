/**
 * The SQLite adapter's inserts of a user, an account and an authenticator, on
 * whatever client they are given: the adapter's own for `createUser`,
 * `linkAccount` and `createAuthenticator`, a transaction's `tx` for
 * `createUserWithAccount`, which runs them together.
 */
import { accountValues, authenticatorValues } from "../sql/rows.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterNewUser, AdapterUser } from "../types.js";
import type { SqliteClient, SqliteValue } from "./client.js";
import {
  ACCOUNT_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  USER_COLUMNS,
  toAccount,
  toAuthenticator,
  toMillisOrNull,
  toUser,
  type AccountRow,
  type AuthenticatorRow,
  type UserRow,
} from "./rows.js";

async function one<Row>(db: SqliteClient, sql: string, params: SqliteValue[]): Promise<Row> {
  // Each statement is an INSERT ... RETURNING: it returns its row or throws.
  return (await db.query<Row>(sql, params)).rows[0]!;
}

export async function insertUser(db: SqliteClient, user: AdapterNewUser): Promise<AdapterUser> {
  // The caller's id is kept (a credentials user keeps the id authorize() gave it); without one, a UUID.
  const row = await one<UserRow>(
    db,
    `INSERT INTO users (id, name, email, "emailVerified", image) VALUES (?, ?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
    [
      user.id || crypto.randomUUID(),
      user.name ?? null,
      user.email ?? null,
      toMillisOrNull(user.emailVerified, "emailVerified"),
      user.image ?? null,
    ],
  );
  return toUser(row);
}

export async function insertAccount(db: SqliteClient, account: AdapterAccount): Promise<AdapterAccount> {
  const row = await one<AccountRow>(
    db,
    `INSERT INTO accounts ("userId", type, provider, "providerAccountId", refresh_token, access_token,
       expires_at, id_token, scope, session_state, token_type)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING ${ACCOUNT_COLUMNS}`,
    accountValues(account),
  );
  return toAccount(row);
}

export async function insertAuthenticator(db: SqliteClient, authenticator: AdapterAuthenticator): Promise<AdapterAuthenticator> {
  const row = await one<AuthenticatorRow>(
    db,
    `INSERT INTO authenticators ("credentialID", "userId", "providerAccountId", "credentialPublicKey", counter,
       "credentialDeviceType", "credentialBackedUp", transports, name, "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING ${AUTHENTICATOR_COLUMNS}`,
    [...authenticatorValues(authenticator, (backedUp) => (backedUp ? 1 : 0)), Date.now()],
  );
  return toAuthenticator(row);
}
