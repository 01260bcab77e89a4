import pg from "pg";
import { describe, it } from "vitest";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { createTestDatabase, droppablePool, type TestDatabase } from "../adapters/support/postgres-server.js";
import { runDatabaseSessionTests } from "./database-sessions.js";

const serverUrl = process.env.DATABASE_URL;
let database: TestDatabase;
let pool: pg.Pool;

if (serverUrl) {
  runDatabaseSessionTests({
    name: "a PostgreSQL server",
    async setup() {
      database = await createTestDatabase(serverUrl, "sessions");
      pool = droppablePool({ connectionString: database.url, max: 8 });
      const client = fromPg(pool);
      await migrate(client);
      return PostgresAdapter(client);
    },
    async reset() {
      await pool.query("TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE");
    },
    async teardown() {
      await pool?.end();
      await database?.drop();
    },
  });
} else {
  describe.skip("database sessions on a PostgreSQL server (DATABASE_URL is not set: start one with test/adapters/support/start-postgres.sh)", () => {
    it.todo("runs with DATABASE_URL");
  });
}
