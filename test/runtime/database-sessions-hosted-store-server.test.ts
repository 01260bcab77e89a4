import pg from "pg";
import { describe, it } from "vitest";
// Relative imports: the package's exports map (which the typechecker reads) may not list this entry yet.
import { HostedStoreAdapter, HostedStoreClient, migrate } from "../../runtime/src/adapters/hosted-store/index.js";
import { fromPg } from "../../runtime/src/adapters/postgres/pg.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { runDatabaseSessionTests } from "./database-sessions.js";

const serverUrl = process.env.DATABASE_URL;
let database: TestDatabase;
let pool: pg.Pool | undefined;

if (serverUrl) {
  runDatabaseSessionTests({
    name: "the hosted store (svc_ tables on a PostgreSQL server)",
    async setup() {
      database = await createTestDatabase(serverUrl, "hosted_sessions");
      const store = new HostedStoreClient({
        env: { HOSTED_STORE_DATABASE_URL: database.url },
        connect: (url) => {
          pool = new pg.Pool({ connectionString: url, max: 8 });
          // pool.end() resolves before its connections close; dropping the database then terminates them.
          pool.on("connect", (connection) => connection.on("error", () => {}));
          pool.on("error", () => {});
          return fromPg(pool);
        },
      });
      await migrate(store);
      return HostedStoreAdapter(store);
    },
    async reset() {
      await pool!.query(`TRUNCATE "main".svc_users, "main".svc_accounts, "main".svc_sessions, "main".svc_users_accounts,
        "main".svc_users_sessions, "main"."svc_verificationTokens", "main".svc_authenticators CASCADE`);
    },
    async teardown() {
      await pool?.end();
      await database?.drop();
    },
  });
} else {
  describe.skip("database sessions on the hosted store on a PostgreSQL server (DATABASE_URL is not set: start one with test/adapters/support/start-postgres.sh)", () => {
    it.todo("runs with DATABASE_URL");
  });
}
