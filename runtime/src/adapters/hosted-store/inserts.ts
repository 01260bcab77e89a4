/**
 * The hosted-store adapter's inserts of a user, an account (with its join row)
 * and an authenticator into a branch's svc_ tables, on whatever client they are
 * given: the store's connection for `createUser`, `linkAccount` and
 * `createAuthenticator`, a transaction's `tx` for `createUserWithAccount`,
 * which runs them together.
 */
import type { SqlClient } from "../postgres/client.js";
import { accountValues, authenticatorValues } from "../sql/rows.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterNewUser, AdapterUser } from "../types.js";
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
import type { Tables } from "./tables.js";

async function one<Row>(db: SqlClient, text: string, params: unknown[]): Promise<Row> {
  // Each statement is an INSERT ... RETURNING: it returns its row or throws.
  return (await db.query<Row>(text, params)).rows[0]!;
}

export async function insertUser(db: SqlClient, t: Tables, user: AdapterNewUser): Promise<AdapterUser> {
  // The caller's id is kept (a credentials user keeps the id authorize() gave it); without one the store makes a UUID.
  const row = await one<UserRow>(
    db,
    `INSERT INTO ${t.users} (id, email, "emailVerified", image, name)
      VALUES (COALESCE($1, gen_random_uuid()::text), $2, $3, $4, $5)
      RETURNING ${USER_COLUMNS}`,
    [user.id || null, user.email ?? null, user.emailVerified ?? null, user.image ?? null, user.name ?? null],
  );
  return toUser(row);
}

export async function insertAccount(db: SqlClient, t: Tables, account: AdapterAccount): Promise<AdapterAccount> {
  // The account and its join row in one statement: both are written or neither.
  const row = await one<AccountRow>(
    db,
    `WITH account AS (
        INSERT INTO ${t.accounts} ("user", type, provider, "providerAccountId", refresh_token, access_token,
          expires_at, id_token, scope, session_state, token_type)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
        RETURNING id, ${ACCOUNT_COLUMNS}
      ), joined AS (
        INSERT INTO ${t.usersAccounts} (account, "user") SELECT id, "user" FROM account
      )
      SELECT ${ACCOUNT_COLUMNS} FROM account`,
    accountValues(account),
  );
  return toAccount(row);
}

export async function insertAuthenticator(db: SqlClient, t: Tables, authenticator: AdapterAuthenticator): Promise<AdapterAuthenticator> {
  const row = await one<AuthenticatorRow>(
    db,
    `INSERT INTO ${t.authenticators} ("credentialID", "user", "providerAccountId", "credentialPublicKey", counter,
        "credentialDeviceType", "credentialBackedUp", transports, name)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      RETURNING ${AUTHENTICATOR_COLUMNS}`,
    authenticatorValues(authenticator),
  );
  return toAuthenticator(row);
}
