/**
 * The PostgreSQL adapter on a real PostgreSQL server (`DATABASE_URL`; start one
 * with `test/adapters/support/start-postgres.sh`): the shared conformance suite
 * through a pg Pool and a single pg Client, `migrate()` with real concurrency
 * (several connections at once), and @auth/pg-adapter on our migrated schema
 * (the conformance suite, and database sessions through our handler) to prove an
 * Auth.js app can share the database and keep its adapter.
 */
import AuthjsPostgresAdapter from "@auth/pg-adapter";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Adapter } from "@gatehouse/runtime";
// Relative imports: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import { PostgresAdapter, migrate } from "../../runtime/src/adapters/postgres/index.js";
import { fromPg } from "../../runtime/src/adapters/postgres/pg.js";
import { runDatabaseSessionTests } from "../runtime/database-sessions.js";
import { runAdapterConformance } from "./conformance.js";
import { postgresAddedColumns } from "./support/added-columns.js";
import {
  NO_EXTRA_FIELDS,
  checkAdoptionDeletesPassword,
  checkAdoptsAuthjsDatabase,
  checkConcurrent,
  checkIdempotent,
  checkPasswordRows,
  checkPendingAndFailing,
} from "./support/postgres-checks.js";
import { createTestDatabase, droppablePool, type TestDatabase } from "./support/postgres-server.js";

const serverUrl = process.env.DATABASE_URL;
const TRUNCATE = "TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE";

describe.skipIf(!serverUrl)(
  serverUrl
    ? "PostgreSQL server"
    : "PostgreSQL server (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    const url = serverUrl as string;
    let database: TestDatabase;
    let pool: pg.Pool;
    let client: pg.Client;
    const others: TestDatabase[] = [];

    /** A throwaway database for one test, dropped with the others at the end. */
    async function freshDatabase(label: string): Promise<TestDatabase> {
      const fresh = await createTestDatabase(url, label);
      others.push(fresh);
      return fresh;
    }

    let created: Promise<void> | undefined;
    /** Creates and migrates the one database of the conformance runs, the first time it is asked for. */
    const ready = () =>
      (created ??= (async () => {
        database = await createTestDatabase(url, "conformance");
        pool = droppablePool({ connectionString: database.url, max: 5 });
        client = new pg.Client({ connectionString: database.url });
        await client.connect();
        await migrate(pool);
      })());

    beforeAll(ready, 60_000);
    afterAll(async () => {
      await client?.end();
      await pool?.end();
      await Promise.all([database, ...others].map((db) => db?.drop()));
    });

    const reset = async () => {
      await pool.query(TRUNCATE);
    };

    runAdapterConformance({
      name: "postgres (server, pg Pool)",
      setup: async () => {
        await ready();
        return PostgresAdapter(fromPg(pool));
      },
      reset,
      addedColumns: { ...postgresAddedColumns(() => pool), sessionIds: true },
      limits: { noExtraFields: NO_EXTRA_FIELDS },
    });

    runAdapterConformance({
      name: "postgres (server, one pg Client passed as is)",
      setup: async () => {
        await ready();
        return PostgresAdapter(client);
      },
      reset,
      addedColumns: { ...postgresAddedColumns(() => pool), sessionIds: true },
      limits: { noExtraFields: NO_EXTRA_FIELDS },
    });

    runAdapterConformance({
      name: "@auth/pg-adapter on the gatehouse schema",
      setup: async () => {
        await ready();
        return AuthjsPostgresAdapter(pool) as Adapter;
      },
      reset,
      addedColumns: { ...postgresAddedColumns(() => pool), sessionIds: true },
      limits: {
        noExtraFields: NO_EXTRA_FIELDS,
        fixedColumnWrites: "@auth/pg-adapter 1.11.3's updateUser, deleteUser and session writes return fixed columns",
        noAuthenticators: "@auth/pg-adapter 1.11.3 implements no authenticator methods (WebAuthn)",
        noGetAccount: "@auth/pg-adapter 1.11.3 has no getAccount",
        tokenTypeAsLinked: "@auth/pg-adapter 1.11.3 returns token_type as linked",
        noUpdateAccount: "@auth/pg-adapter 1.11.3 has no updateAccount (a gatehouse extension, not in Auth.js)",
        noCreateUserWithAccount: "@auth/pg-adapter 1.11.3 has no createUserWithAccount (a gatehouse extension, not in Auth.js)",
        noAdoptUnprovenUser: "@auth/pg-adapter 1.11.3 has no adoptUnprovenUser (a gatehouse extension, not in Auth.js)",
        noUserPasswords: "@auth/pg-adapter 1.11.3 has no password methods (gatehouse extensions, not in Auth.js)",
        noUserSessions: "@auth/pg-adapter 1.11.3 has no session list or revocation (gatehouse extensions, not in Auth.js)",
        noSignInMethods: "@auth/pg-adapter 1.11.3 cannot list a user's accounts nor rename or remove passkeys (gatehouse extensions, not in Auth.js)",
      },
    });

    // A real flow in our handler with the Auth.js adapter: credentials sign-in, database sessions, extension, expiry, sign-out.
    // On our schema its `select *` brings the row's "createdAt" (a column default), so absoluteMaxAge binds it too.
    runDatabaseSessionTests({
      name: "@auth/pg-adapter on the gatehouse schema",
      setup: async () => {
        await ready();
        return AuthjsPostgresAdapter(pool) as Adapter;
      },
      reset,
      limits: {
        deleteSessionReturnsNothing: "@auth/pg-adapter 1.11.3's deleteSession returns nothing",
      },
    });

    describe("migrate() on the server", () => {
      async function withPool(label: string, fn: (pool: pg.Pool) => Promise<void>): Promise<void> {
        const fresh = await freshDatabase(label);
        const migrationPool = new pg.Pool({ connectionString: fresh.url });
        try {
          await fn(migrationPool);
        } finally {
          await migrationPool.end();
        }
      }

      it("applies and records every migration once; a second run applies nothing", () =>
        withPool("idempotent", (p) => checkIdempotent(fromPg(p))));

      it("applies a pending migration; a failing one is rolled back and not recorded", () =>
        withPool("failing", (p) => checkPendingAndFailing(fromPg(p))));

      it("adopts an Auth.js database: rows kept, integer ids become text, constraints added", () =>
        withPool("adopt", (p) => checkAdoptsAuthjsDatabase(fromPg(p))));

      it("five processes migrating at once: each migration applied exactly once, none fails", async () => {
        const fresh = await freshDatabase("concurrent");
        // Separate pools, as separate processes would have: the advisory lock is all that orders them.
        const pools = Array.from({ length: 5 }, () => new pg.Pool({ connectionString: fresh.url, max: 1 }));
        try {
          await checkConcurrent(pools.map((p) => fromPg(p)));
        } finally {
          await Promise.all(pools.map((p) => p.end()));
        }
      });
    });

    describe("updateAccount across connections", () => {
      it("five servers refreshing one account at once, each on its own connection: exactly one wins", async () => {
        await reset();
        // Separate pools, as separate servers would have, connected before the race: only the row lock orders them.
        const pools = Array.from({ length: 5 }, () => new pg.Pool({ connectionString: database.url, max: 1 }));
        try {
          await Promise.all(pools.map((p) => p.query("SELECT 1")));
          const adapters = pools.map((p) => PostgresAdapter(fromPg(p)));
          const [first] = adapters as [Required<Adapter>];
          await first.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
          const key = { provider: "github", providerAccountId: "1" };
          await first.linkAccount({ userId: "u", type: "oauth", ...key, refresh_token: "r0" });
          const results = await Promise.all(
            adapters.map((adapter, i) => adapter.updateAccount({ ...key, refresh_token: `r-${i}` }, { refresh_token: "r0" })),
          );
          const winners = results.flatMap((result, i) => (result ? [i] : []));
          expect(winners).toHaveLength(1);
          expect((await first.getAccount("1", "github"))?.refresh_token).toBe(`r-${winners[0]}`);
        } finally {
          await Promise.all(pools.map((p) => p.end()));
        }
      });
    });

    describe("adoptUnprovenUser and passwords", () => {
      it("deletes the user's password row, no other, in its one transaction", () => checkAdoptionDeletesPassword(fromPg(pool)));
      it("the password methods move updatedAt on each write only, and roll back whole", () => checkPasswordRows(fromPg(pool)));
    });

    describe("fromPg", () => {
      it("a failed transaction rolls back and returns its connection to the pool", async () => {
        const db = fromPg(pool);
        await db.query("CREATE TABLE IF NOT EXISTS tx_test (x int)");
        await db.query("TRUNCATE tx_test");
        for (let i = 0; i < 10; i++) {
          await expect(
            db.transaction(async (tx) => {
              await tx.query("INSERT INTO tx_test VALUES ($1)", [i]);
              throw new Error("undo");
            }),
          ).rejects.toThrow("undo");
        }
        await db.transaction(async (tx) => {
          await tx.query("INSERT INTO tx_test VALUES ($1)", [1]);
          await tx.transaction(async (inner) => inner.query("INSERT INTO tx_test VALUES ($1)", [2]));
          await tx
            .transaction(async (inner) => {
              await inner.query("INSERT INTO tx_test VALUES ($1)", [3]);
              throw new Error("undo the inner step");
            })
            .catch(() => {});
        });
        expect((await db.query("SELECT x FROM tx_test ORDER BY x", [])).rows).toEqual([{ x: 1 }, { x: 2 }]);
        // More failed transactions than the pool has connections: none leaked.
        expect(pool.totalCount).toBeLessThanOrEqual(5);
        expect(pool.waitingCount).toBe(0);
        await db.query("DROP TABLE tx_test");
      });

      it("on a single Client, queries from outside wait for an open transaction instead of joining it", async () => {
        const db = fromPg(client);
        await db.query("CREATE TABLE IF NOT EXISTS client_tx_test (x int)");
        let outside: Promise<unknown> | undefined;
        await expect(
          db.transaction(async (tx) => {
            await tx.query("INSERT INTO client_tx_test VALUES ($1)", [1]);
            // Another request using the same adapter while the transaction is open.
            outside = db.query("INSERT INTO client_tx_test VALUES ($1)", [2]);
            await new Promise((resolve) => setTimeout(resolve, 20));
            throw new Error("undo");
          }),
        ).rejects.toThrow("undo");
        await outside;
        expect((await db.query("SELECT x FROM client_tx_test", [])).rows).toEqual([{ x: 2 }]);
        await db.query("DROP TABLE client_tx_test");
      });

      it("a query without params may hold several statements; the rows are the last one's", async () => {
        expect((await fromPg(pool).query("SELECT 1 AS a; SELECT 2 AS b")).rows).toEqual([{ b: 2 }]);
      });

      it("BIGINT comes back from pg as a string; the adapter returns numbers", async () => {
        await reset();
        const adapter = PostgresAdapter(pool);
        await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
        await adapter.linkAccount({ userId: "u", type: "oauth", provider: "github", providerAccountId: "1", expires_at: 1_900_000_000 });
        const { rows } = await pool.query("SELECT expires_at FROM accounts");
        expect(rows[0]?.expires_at).toBe("1900000000");
        expect((await adapter.getAccount("1", "github"))?.expires_at).toBe(1_900_000_000);
      });

      it("a column added while the app runs: reads prepared before it come back whole at once, on every connection, no error", async () => {
        const fresh = await freshDatabase("added_column");
        const onePool = droppablePool({ connectionString: fresh.url, max: 3 });
        const oneClient = new pg.Client({ connectionString: fresh.url });
        await oneClient.connect();
        try {
          await migrate(onePool);
          const adapters = [PostgresAdapter(fromPg(onePool)), PostgresAdapter(oneClient)];
          await adapters[0]!.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
          await adapters[0]!.createSession({ sessionToken: "t", userId: "u", expires: new Date(Date.now() + 60_000) });
          // Prepared on each connection of the pool and on the client.
          const reads = (adapter: Adapter) =>
            Promise.all([
              adapter.getUser!("u"),
              adapter.getUserByEmail!("ada@example.com"),
              Promise.resolve(adapter.getSessionAndUser!("t")).then((found) => found?.user ?? null),
            ]);
          for (const adapter of adapters) for (let i = 0; i < 3; i++) await reads(adapter);

          await onePool.query("ALTER TABLE users ADD COLUMN role text DEFAULT 'member'");
          for (const adapter of adapters) {
            for (let i = 0; i < 3; i++) {
              expect((await reads(adapter)).map((user) => (user as { role?: unknown } | null)?.role)).toEqual(["member", "member", "member"]);
            }
          }
          // Inside a transaction the first statement after a change may fail once (the error aborted it); the next succeeds.
          await onePool.query("ALTER TABLE users ADD COLUMN team text DEFAULT 'blue'");
          const [first] = await Promise.allSettled([adapters[0]!.createUserWithPassword!({ email: "grace@example.com", emailVerified: null }, "h")]);
          if (first.status === "rejected") expect(await adapters[0]!.createUserWithPassword!({ email: "grace@example.com", emailVerified: null }, "h")).toMatchObject({ team: "blue" });
          else expect(first.value).toMatchObject({ team: "blue" });
          expect(await adapters[1]!.getUser!("u")).toMatchObject({ role: "member", team: "blue" });
        } finally {
          await oneClient.end();
          await onePool.end();
        }
      });
    });
  },
);
