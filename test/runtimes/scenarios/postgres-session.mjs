/**
 * A database session on a PostgreSQL server through `pg` (a Pool over TCP,
 * `cloudflare:sockets` in workerd), on a fresh database the test made:
 * `migrate()` runs here too.
 */
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { databaseSessionFlow } from "./database-session.mjs";

export async function postgresSession(t, { databaseUrl }) {
  // Imported here, not at the top: only this scenario needs pg, and workerd runs it in a worker of its own.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const db = fromPg(pool);
    await migrate(db);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM users");
    t.equal(rows, [{ n: 0 }], "users in the new database");
    await databaseSessionFlow(t, PostgresAdapter(db), "grace@example.com");
  } finally {
    await pool.end();
  }
}
