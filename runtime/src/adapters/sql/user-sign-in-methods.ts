/**
 * `listAccountsByUserId`, `renameAuthenticator` and `deleteAuthenticator` for
 * the SQL adapters (PostgreSQL, SQLite, the hosted store), written once: the
 * statements differ only in table and column names and in how a placeholder is
 * written, which each adapter gives.
 *
 * A passkey is changed or removed only by a statement whose WHERE holds both
 * the user and the credential id: another user's passkey matches nothing,
 * whatever id the caller passes. Removing one deletes its authenticator and its
 * `webauthn` account in one transaction.
 */
import type { AdapterAccount, AdapterAuthenticator } from "../types.js";
import type { PasswordClient } from "./user-passwords.js";

/** What differs between the adapters. */
export interface SignInMethodSchema<AccountRow, AuthenticatorRow> {
  /** The accounts table, its column linking an account to its user, and the columns `toAccount` reads. */
  accounts: readonly [table: string, link: string, columns: string];
  /** The authenticators table, its user link, and the columns `toAuthenticator` reads (with `name`, `createdAt`, `lastUsedAt`). */
  authenticators: readonly [table: string, link: string, columns: string];
  /** The n-th placeholder (from 1): `$n`, or `?` where they bind in order of appearance. */
  placeholder(n: number): string;
  toAccount(row: AccountRow): AdapterAccount;
  toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator;
}

export interface SignInMethods {
  listAccountsByUserId(userId: string): Promise<AdapterAccount[]>;
  renameAuthenticator(userId: string, credentialID: string, name: string | null): Promise<AdapterAuthenticator | null>;
  deleteAuthenticator(userId: string, credentialID: string): Promise<AdapterAuthenticator | null>;
}

export function signInMethods<Value, AccountRow, AuthenticatorRow>(
  db: PasswordClient<Value>,
  schema: SignInMethodSchema<AccountRow, AuthenticatorRow>,
): SignInMethods {
  const { placeholder: p } = schema;
  const [accounts, accountUser, accountColumns] = schema.accounts;
  const [authenticators, authenticatorUser, authenticatorColumns] = schema.authenticators;
  const list = `SELECT ${accountColumns} FROM ${accounts} WHERE ${accountUser} = ${p(1)} ORDER BY provider, "providerAccountId"`;
  const rename = `UPDATE ${authenticators} SET name = ${p(1)} WHERE ${authenticatorUser} = ${p(2)} AND "credentialID" = ${p(3)} RETURNING ${authenticatorColumns}`;
  const remove = `DELETE FROM ${authenticators} WHERE ${authenticatorUser} = ${p(1)} AND "credentialID" = ${p(2)} RETURNING ${authenticatorColumns}`;
  const unlink = `DELETE FROM ${accounts} WHERE ${accountUser} = ${p(1)} AND type = 'webauthn' AND "providerAccountId" = ${p(2)}`;

  return {
    async listAccountsByUserId(userId) {
      return (await db.query<AccountRow>(list, [userId])).rows.map(schema.toAccount);
    },

    async renameAuthenticator(userId, credentialID, name) {
      const [row] = (await db.query<AuthenticatorRow>(rename, [name, userId, credentialID])).rows;
      return row === undefined ? null : schema.toAuthenticator(row);
    },

    async deleteAuthenticator(userId, credentialID) {
      return db.transaction(async (tx) => {
        const [row] = (await tx.query<AuthenticatorRow>(remove, [userId, credentialID])).rows;
        if (row === undefined) return null;
        await tx.query(unlink, [userId, credentialID]);
        return schema.toAuthenticator(row);
      });
    },
  };
}
