/**
 * `createUserWithAccount` for the SQL adapters: their own inserts of a user, an
 * account and an authenticator, run in one transaction. A unique violation
 * (email, provider account, credential id) fails its statement and the
 * transaction rolls back what the earlier ones wrote. Of two concurrent calls
 * for the same email, the second's user insert waits for the first to commit
 * and then fails, so it never sees a user without the account.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterNewAccount, AdapterNewUser, AdapterUser } from "../types.js";

export interface UserInserts<Tx> {
  user(tx: Tx, user: AdapterNewUser): Promise<AdapterUser>;
  account(tx: Tx, account: AdapterAccount): Promise<unknown>;
  authenticator(tx: Tx, authenticator: AdapterAuthenticator): Promise<unknown>;
}

export function insertUserWithAccount<Tx>(
  transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  inserts: UserInserts<Tx>,
  user: AdapterNewUser,
  account: AdapterNewAccount,
  authenticator?: Omit<AdapterAuthenticator, "userId">,
): Promise<AdapterUser> {
  return transaction(async (tx) => {
    const created = await inserts.user(tx, user);
    await inserts.account(tx, { ...account, userId: created.id } as AdapterAccount);
    if (authenticator) await inserts.authenticator(tx, { ...authenticator, userId: created.id });
    return created;
  });
}
