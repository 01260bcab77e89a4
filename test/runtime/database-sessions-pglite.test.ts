import type { PGlite } from "@electric-sql/pglite";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { openPGlite } from "../adapters/support/pglite.js";
import { runDatabaseSessionTests } from "./database-sessions.js";

let db: PGlite;

runDatabaseSessionTests({
  name: "PostgreSQL in PGlite",
  async setup() {
    db = await openPGlite();
    const client = fromPGlite(db);
    await migrate(client);
    return PostgresAdapter(client);
  },
  async reset() {
    await db.exec("TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE");
  },
  async teardown() {
    await db.close();
  },
});
