/**
 * The memory adapter with a ledger of verification tokens and users, so tests can
 * say "nothing was stored" without a list method in the adapter contract. An
 * override of `undefined` removes a method: `{ createUserWithAccount: undefined }`
 * is an adapter without the gatehouse extension, as Auth.js adapters are.
 */
import type { Adapter, VerificationToken } from "@gatehouse/runtime";
import { MemoryAdapter, type MemoryAdapterInstance } from "@gatehouse/runtime/adapters/memory";

export interface LedgerAdapter extends MemoryAdapterInstance {
  /** Verification tokens created and not used yet. */
  liveTokens(): VerificationToken[];
  /** Ids of users created (by createUser or createUserWithAccount). */
  createdUsers(): string[];
  /** Which method created each of them, in order. */
  userCreations(): ("createUser" | "createUserWithAccount")[];
}

export function ledgerAdapter(overrides: Partial<Adapter> = {}): LedgerAdapter {
  const inner = MemoryAdapter();
  const tokens = new Map<string, VerificationToken>();
  const users: string[] = [];
  const creations: ("createUser" | "createUserWithAccount")[] = [];
  const key = (t: { identifier: string; token: string }) => JSON.stringify([t.identifier, t.token]);
  return {
    ...inner,
    async createVerificationToken(token) {
      const created = await inner.createVerificationToken(token);
      tokens.set(key(token), token);
      return created;
    },
    async useVerificationToken(params) {
      const used = await inner.useVerificationToken(params);
      if (used) tokens.delete(key(params));
      return used;
    },
    async createUser(user) {
      const created = await inner.createUser(user);
      users.push(created.id);
      creations.push("createUser");
      return created;
    },
    async createUserWithAccount(user, account, authenticator) {
      const created = await inner.createUserWithAccount(user, account, authenticator);
      users.push(created.id);
      creations.push("createUserWithAccount");
      return created;
    },
    ...overrides,
    liveTokens: () => [...tokens.values()],
    createdUsers: () => [...users],
    userCreations: () => [...creations],
  } as LedgerAdapter;
}
