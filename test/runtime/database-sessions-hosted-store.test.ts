import type { PGlite } from "@electric-sql/pglite";
// Relative imports: the package's exports map (which the typechecker reads) may not list this entry yet.
import { HostedStoreAdapter, HostedStoreClient, migrate } from "../../runtime/src/adapters/hosted-store/index.js";
import { fromPGlite } from "../../runtime/src/adapters/postgres/pglite.js";
import { openPGlite } from "../adapters/support/pglite.js";
import { runDatabaseSessionTests } from "./database-sessions.js";

let db: PGlite;

runDatabaseSessionTests({
  name: "the hosted store (svc_ tables in PGlite)",
  async setup() {
    db = await openPGlite();
    // Configured as an app would: URL and branch from the env, the connection made by connect().
    const store = new HostedStoreClient({
      env: { HOSTED_STORE_DATABASE_URL: "memory://", HOSTED_STORE_BRANCH: "sessions" },
      connect: () => fromPGlite(db),
    });
    await migrate(store);
    return HostedStoreAdapter(store);
  },
  async reset() {
    await db.exec(`TRUNCATE sessions.svc_users, sessions.svc_accounts, sessions.svc_sessions, sessions.svc_users_accounts,
      sessions.svc_users_sessions, sessions."svc_verificationTokens", sessions.svc_authenticators CASCADE`);
  },
  async teardown() {
    await db.close();
  },
});
