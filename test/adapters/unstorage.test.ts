/**
 * `@auth/unstorage-adapter` (an official Auth.js adapter) on unstorage's
 * in-memory driver: the shared conformance suite, and database sessions through
 * our handler, so an Auth.js app that keeps its adapter keeps working. Together
 * with `@auth/pg-adapter` in postgres-server.test.ts, the second Auth.js adapter
 * our suite proves.
 */
import { UnstorageAdapter } from "@auth/unstorage-adapter";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import type { Adapter } from "@gatehouse/runtime";
import { runDatabaseSessionTests } from "../runtime/database-sessions.js";
import { runAdapterConformance } from "./conformance.js";

const storage = createStorage({ driver: memoryDriver() });
const VERSION = "@auth/unstorage-adapter 2.11.2";

// Structurally the same contract; the adapter's types come from its own copy of @auth/core (0.41.2).
const adapter = UnstorageAdapter(storage) as unknown as Adapter;

runAdapterConformance({
  name: "@auth/unstorage-adapter (unstorage memory driver)",
  setup: () => adapter,
  reset: () => storage.clear(),
  // Schemaless, as the memory adapter: a field the app stores on a user or a session is its "added column".
  addedColumns: {
    add: async () => {},
    drop: async () => {},
    setRole: async (userId, role) => {
      await adapter.updateUser!({ id: userId, role } as Parameters<NonNullable<Adapter["updateUser"]>>[0]);
    },
    setDevice: async (sessionToken, device) => {
      await adapter.updateSession!({ sessionToken, device } as Parameters<NonNullable<Adapter["updateSession"]>>[0]);
    },
  },
  limits: {
    tokenTypeAsLinked: `${VERSION} stores and returns the account as linked`,
    noUniqueness: `${VERSION} writes keys without checking: a taken email, a linked account or a credential id is overwritten, not refused`,
    emailKeptOnUpdate: `${VERSION}'s updateUser leaves the old email's key pointing at the user`,
    partialDeleteUser: `${VERSION}'s deleteUser removes only the user's last linked account and last session, and no authenticators`,
    noUpdateAccount: `${VERSION} has no updateAccount (a gatehouse extension, not in Auth.js)`,
    noCreateUserWithAccount: `${VERSION} has no createUserWithAccount (a gatehouse extension, not in Auth.js)`,
    noAdoptUnprovenUser: `${VERSION} has no adoptUnprovenUser (a gatehouse extension, not in Auth.js)`,
    noUserPasswords: `${VERSION} has no password methods (gatehouse extensions, not in Auth.js)`,
    noUserSessions: `${VERSION} has no session list or revocation (gatehouse extensions, not in Auth.js)`,
    noSignInMethods: `${VERSION} cannot list a user's accounts nor rename or remove passkeys (gatehouse extensions, not in Auth.js)`,
  },
});

// A real flow in our handler: credentials sign-in, database sessions, extension, expiry, sign-out.
runDatabaseSessionTests({
  name: "@auth/unstorage-adapter (unstorage memory driver)",
  setup: () => adapter,
  reset: () => storage.clear(),
  limits: {
    noSessionStart: `${VERSION} keeps no createdAt on sessions, so absoluteMaxAge cannot bind them (docs/configuration.md: bound by maxAge alone)`,
    deleteSessionReturnsNothing: `${VERSION}'s deleteSession returns nothing`,
  },
});
