/**
 * The PostgreSQL adapter's inserts of a user, an account and an authenticator,
 * on whatever client they are given: the adapter's own for `createUser`,
 * `linkAccount` and `createAuthenticator`, a transaction's `tx` for
 * `createUserWithAccount`, which runs them together.
 */
import { accountValues, authenticatorValues } from "../sql/rows.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterNewUser, AdapterUser } from "../types.js";
import type { SqlClient } from "./client.js";
import {
  ACCOUNT_COLUMNS,
  AUTHENTICATOR_COLUMNS,
  USER_COLUMNS,
  toAccount,
  toAuthenticator,
  toUser,
  type AccountRow,
  type AuthenticatorRow,
  type UserRow,
} from "./rows.js";

async function one<Row>(db: SqlClient, text: string, params: unknown[]): Promise<Row> {
  // Each statement is an INSERT ... RETURNING: it returns its row or throws.
  return (await db.query<Row>(text, params)).rows[0]!;
}

export async function insertUser(db: SqlClient, user: AdapterNewUser): Promise<AdapterUser> {
  // The caller's id is kept (a credentials user keeps the id authorize() gave it); without one the database makes a UUID.
  const row = await one<UserRow>(
    db,
    `INSERT INTO users (id, name, email, "emailVerified", image)
     VALUES (COALESCE($1, gen_random_uuid()::text), $2, $3, $4, $5)
     RETURNING ${USER_COLUMNS}`,
    [user.id || null, user.name ?? null, user.email ?? null, user.emailVerified ?? null, user.image ?? null],
  );
  return toUser(row);
}

export async function insertAccount(db: SqlClient, account: AdapterAccount): Promise<AdapterAccount> {
  const row = await one<AccountRow>(
    db,
    `INSERT INTO accounts ("userId", type, provider, "providerAccountId", refresh_token, access_token,
       expires_at, id_token, scope, session_state, token_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${ACCOUNT_COLUMNS}`,
    accountValues(account),
  );
  return toAccount(row);
}

export async function insertAuthenticator(db: SqlClient, authenticator: AdapterAuthenticator): Promise<AdapterAuthenticator> {
  const row = await one<AuthenticatorRow>(
    db,
    `INSERT INTO authenticators ("credentialID", "userId", "providerAccountId", "credentialPublicKey", counter,
       "credentialDeviceType", "credentialBackedUp", transports, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${AUTHENTICATOR_COLUMNS}`,
    authenticatorValues(authenticator),
  );
  return toAuthenticator(row);
}
