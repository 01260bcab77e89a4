/**
 * The PostgreSQL adapter on postgres.js (`postgres`), the driver `sv add
 * drizzle` sets up, on a real PostgreSQL server (`DATABASE_URL`): the shared
 * conformance suite through `fromPostgresJs`, and through the `sql` function
 * passed as is; `migrate()` through it (several statements per text, one
 * transaction per migration, concurrent runs), transactions that commit, roll
 * back and nest as savepoints, and database sessions through our handler.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSchema, migrate, PostgresAdapter } from "../../runtime/src/adapters/postgres/index.js";
import { fromPostgresJs } from "../../runtime/src/adapters/postgres/postgres-js.js";
import { runDatabaseSessionTests } from "../runtime/database-sessions.js";
import { runAdapterConformance } from "./conformance.js";
import { postgresAddedColumns } from "./support/added-columns.js";
import { NO_EXTRA_FIELDS } from "./support/postgres-checks.js";
import { createTestDatabase, type TestDatabase } from "./support/postgres-server.js";
import { expectTransactionsNest } from "./support/transactions.js";

const serverUrl = process.env.DATABASE_URL;
const TRUNCATE = "TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE";

describe.skipIf(!serverUrl)("postgres.js on a PostgreSQL server", () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  let created: Promise<void> | undefined;
  const ready = () =>
    (created ??= (async () => {
      database = await createTestDatabase(serverUrl!, "postgresjs");
      // onnotice: CREATE ... IF NOT EXISTS on an existing object sends a notice, which postgres.js would print.
      sql = postgres(database.url, { max: 5, onnotice: () => {} });
      await migrate(sql);
    })());
  beforeAll(ready, 60_000);
  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });
  const reset = async () => void (await sql.unsafe(TRUNCATE));

  runAdapterConformance({
    name: "postgres (server, postgres.js through fromPostgresJs)",
    setup: async () => {
      await ready();
      return PostgresAdapter(fromPostgresJs(sql));
    },
    reset,
    addedColumns: { ...postgresAddedColumns(() => fromPostgresJs(sql)), sessionIds: true },
    limits: { noExtraFields: NO_EXTRA_FIELDS },
  });

  runAdapterConformance({
    name: "postgres (server, postgres.js's sql passed as is)",
    setup: async () => {
      await ready();
      return PostgresAdapter(sql);
    },
    reset,
    addedColumns: { ...postgresAddedColumns(() => fromPostgresJs(sql)), sessionIds: true },
    limits: { noExtraFields: NO_EXTRA_FIELDS },
  });

  // drizzle(client) takes postgres.js's own serializers and parsers of dates, times and JSON off the
  // client it is given (Drizzle maps those itself), and `db.$client` is that client: what
  // `auth-init --adapter drizzle` gives the adapter. Dates must still go in, and come back as Dates.
  let drizzled: postgres.Sql | undefined;
  const drizzleClient = async () => {
    await ready();
    drizzled ??= drizzle(postgres(database.url, { max: 5, onnotice: () => {} })).$client;
    return drizzled;
  };
  afterAll(async () => void (await drizzled?.end()));

  runAdapterConformance({
    name: "postgres (server, postgres.js after drizzle(client): db.$client)",
    setup: async () => PostgresAdapter(await drizzleClient()),
    reset,
    addedColumns: { ...postgresAddedColumns(() => fromPostgresJs(sql)), sessionIds: true },
    limits: { noExtraFields: NO_EXTRA_FIELDS },
  });

  runDatabaseSessionTests({
    name: "postgres.js after drizzle(client)",
    setup: async () => PostgresAdapter(await drizzleClient()),
    reset,
  });

  runDatabaseSessionTests({
    name: "postgres.js",
    setup: async () => {
      await ready();
      return PostgresAdapter(sql);
    },
    reset,
  });

  describe("the SqlClient", () => {
    it("migrate() applied every migration through it, and the schema is whole; again, nothing", async () => {
      await ready();
      expect(await checkSchema(sql)).toEqual({ pending: [], unknown: [], missing: [] });
      expect((await migrate(sql)).applied).toEqual([]);
    });

    it("a text without parameters may hold several statements: the rows are the last one's; parameters bind in order", async () => {
      await ready();
      const db = fromPostgresJs(sql);
      expect((await db.query("SELECT 1 AS a; SELECT 2 AS b")).rows).toEqual([{ b: 2 }]);
      expect((await db.query<{ sum: number }>("SELECT $1::int + $2::int AS sum", [40, 2])).rows).toEqual([{ sum: 42 }]);
    });

    it("a transaction commits, rolls back on throw, and a nested one is a savepoint", async () => {
      await ready();
      const db = fromPostgresJs(sql);
      await db.query("DROP TABLE IF EXISTS tx_probe; CREATE TABLE tx_probe (x int)");
      await expectTransactionsNest(db, "INSERT INTO tx_probe VALUES ($1)", async () => (await db.query<{ x: number }>("SELECT x FROM tx_probe ORDER BY x")).rows.map((row) => row.x));
    });

    it("concurrent migrate() runs on a fresh database apply each migration once", async () => {
      const fresh = await createTestDatabase(serverUrl!, "postgresjs_concurrent");
      const other = postgres(fresh.url, { max: 3, onnotice: () => {} });
      try {
        const results = await Promise.all([migrate(other), migrate(other), migrate(other)]);
        const { rows } = await fromPostgresJs(other).query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY name");
        // Each migration applied by exactly one of the runs, and recorded once.
        expect(results.flatMap((result) => result.applied).sort()).toEqual(rows.map((row) => row.name));
        expect(rows).toHaveLength((await import("../../runtime/src/adapters/postgres/index.js")).migrations.length);
        expect(await checkSchema(other)).toEqual({ pending: [], unknown: [], missing: [] });
      } finally {
        await other.end();
        await fresh.drop();
      }
    });
  });
});
