/**
 * The hosted-store adapter on a real PostgreSQL server (`DATABASE_URL`; start
 * one with `test/adapters/support/start-postgres.sh`), reached the way an app
 * reaches the store: a `HostedStoreClient` whose `connect` wraps a pg Pool.
 * The shared conformance suite through a Pool and through a single Client,
 * `migrate()` from several processes at once, and two branches in one database.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative imports: the package's exports map (which the typechecker reads) may not list this entry yet.
import { HostedStoreAdapter, HostedStoreClient, migrate, migrations } from "../../runtime/src/adapters/hosted-store/index.js";
import { fromPg } from "../../runtime/src/adapters/postgres/pg.js";
import { runAdapterConformance } from "./conformance.js";
import { postgresAddedColumns } from "./support/added-columns.js";
import { checkAdoptionDeletesPassword, checkPasswordRecords } from "./support/hosted-store-checks.js";
import { createTestDatabase, type TestDatabase } from "./support/postgres-server.js";

const serverUrl = process.env.DATABASE_URL;
const ALL = migrations.map((m) => m.name);
const NO_EXTRA_FIELDS = "the svc_ tables have fixed fields, none for fields beyond the contract's";
const TRUNCATE = `TRUNCATE "main".svc_users, "main".svc_accounts, "main".svc_sessions, "main".svc_users_accounts,
  "main".svc_users_sessions, "main"."svc_verificationTokens", "main".svc_authenticators CASCADE`;

describe.skipIf(!serverUrl)(
  serverUrl
    ? "hosted store on a PostgreSQL server"
    : "hosted store on a PostgreSQL server (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    const url = serverUrl as string;
    const databases: TestDatabase[] = [];
    const pools: pg.Pool[] = [];
    let database: TestDatabase;
    let pool: pg.Pool;
    let client: pg.Client;

    /**
     * A pool closed by afterAll. Pool.end() resolves before its connections
     * have closed, and dropping the database (WITH FORCE) then terminates them:
     * the error a terminated connection emits is expected, so it is listened to.
     */
    function newPool(connectionString: string): pg.Pool {
      const created = new pg.Pool({ connectionString, max: 5 });
      created.on("connect", (connection) => connection.on("error", () => {}));
      // An idle connection's error is re-emitted on the pool: unheard, it would fail the run.
      created.on("error", () => {});
      pools.push(created);
      return created;
    }

    /** The store as an app configures it: URL and branch from its env, a pg Pool per connect(). */
    function storeFor(databaseURL: string, branch?: string): HostedStoreClient {
      return new HostedStoreClient({
        env: { HOSTED_STORE_DATABASE_URL: databaseURL, ...(branch ? { HOSTED_STORE_BRANCH: branch } : {}) },
        connect: (connectionString) => fromPg(newPool(connectionString)),
      });
    }

    let created: Promise<void> | undefined;
    /** Creates the database of the conformance runs and migrates its main branch, the first time it is asked for. */
    const ready = () =>
      (created ??= (async () => {
        database = await createTestDatabase(url, "hosted_store");
        databases.push(database);
        pool = newPool(database.url);
        client = new pg.Client({ connectionString: database.url });
        await client.connect();
        await migrate(storeFor(database.url));
      })());

    beforeAll(ready, 60_000);
    afterAll(async () => {
      await client?.end();
      await Promise.all(pools.map((p) => p.end()));
      await Promise.all(databases.map((db) => db.drop()));
    });

    const reset = async () => {
      await pool.query(TRUNCATE);
    };

    runAdapterConformance({
      name: "hosted-store (server, connect() -> pg Pool)",
      setup: async () => {
        await ready();
        return HostedStoreAdapter(storeFor(database.url));
      },
      reset,
      addedColumns: { ...postgresAddedColumns(() => pool, { users: `"main".svc_users`, sessions: `"main".svc_sessions` }), sessionIds: true },
      limits: { noExtraFields: NO_EXTRA_FIELDS },
    });

    runAdapterConformance({
      name: "hosted-store (server, one pg Client as a ready client)",
      setup: async () => {
        await ready();
        return HostedStoreAdapter(new HostedStoreClient({ client: fromPg(client) }));
      },
      reset,
      addedColumns: { ...postgresAddedColumns(() => pool, { users: `"main".svc_users`, sessions: `"main".svc_sessions` }), sessionIds: true },
      limits: { noExtraFields: NO_EXTRA_FIELDS },
    });

    describe("migrate() on the server", () => {
      it("five processes migrating one branch at once: each migration applied exactly once, none fails", async () => {
        const fresh = await createTestDatabase(url, "hosted_concurrent");
        databases.push(fresh);
        // Separate stores with their own pools, as separate processes would have: the advisory lock is all that orders them.
        const stores = Array.from({ length: 5 }, () => storeFor(fresh.url, "preview"));
        const results = await Promise.all(stores.map((store) => migrate(store)));
        // Sorted: which run applied which migration, and so the order of the lists, is up to the lock.
        expect(results.flatMap((result) => result.applied).sort()).toEqual(ALL);
        const db = await stores[0]!.connection();
        const { rows } = await db.query<{ name: string }>(`SELECT name FROM "preview".svc_migrations ORDER BY name`, []);
        expect(rows.map((row) => row.name)).toEqual(ALL);
        expect(await migrate(stores[0]!)).toEqual({ applied: [] });
      });

      it("two branches migrate concurrently and stay apart", async () => {
        const fresh = await createTestDatabase(url, "hosted_branches");
        databases.push(fresh);
        const main = storeFor(fresh.url);
        const preview = storeFor(fresh.url, "preview");
        expect(await Promise.all([migrate(main), migrate(preview)])).toEqual([{ applied: ALL }, { applied: ALL }]);

        const a = HostedStoreAdapter(main);
        const b = HostedStoreAdapter(preview);
        const ada = await a.createUser({ id: "", email: "ada@example.com", emailVerified: null, name: "main" });
        await b.createUser({ id: "", email: "ada@example.com", emailVerified: null, name: "preview" });
        await a.createSession({ sessionToken: "t", userId: ada.id, expires: new Date(2_000_000_000_000) });
        expect((await a.getUserByEmail("ada@example.com"))?.name).toBe("main");
        expect((await b.getUserByEmail("ada@example.com"))?.name).toBe("preview");
        expect(await b.getUser(ada.id)).toBeNull();
        expect(await b.getSessionAndUser("t")).toBeNull();
      });
    });

    it("five servers refreshing one account at once, each on its own connection: exactly one updateAccount wins", async () => {
      await reset();
      // Separate pools, as separate servers would have, connected before the race: only the row lock orders them.
      const racers = Array.from({ length: 5 }, () => {
        const racer = new pg.Pool({ connectionString: database.url, max: 1 });
        racer.on("connect", (connection) => connection.on("error", () => {}));
        racer.on("error", () => {});
        pools.push(racer);
        return racer;
      });
      await Promise.all(racers.map((racer) => racer.query("SELECT 1")));
      const adapters = racers.map((racer) => HostedStoreAdapter(new HostedStoreClient({ client: fromPg(racer) })));
      const [first] = adapters as [(typeof adapters)[number]];
      const ada = await first.createUser({ id: "", email: "ada@example.com", emailVerified: null });
      const key = { provider: "github", providerAccountId: "1" };
      await first.linkAccount({ userId: ada.id, type: "oauth", ...key, refresh_token: "r0" });
      const results = await Promise.all(
        adapters.map((adapter, i) => adapter.updateAccount({ ...key, refresh_token: `r-${i}` }, { refresh_token: "r0" })),
      );
      const winners = results.flatMap((result, i) => (result ? [i] : []));
      expect(winners).toHaveLength(1);
      expect((await first.getAccount("1", "github"))?.refresh_token).toBe(`r-${winners[0]}`);
    });

    it("adoptUnprovenUser deletes the user's password record and join rows, no other user's, in its one transaction", () =>
      checkAdoptionDeletesPassword(fromPg(pool), "main"));

    it("the password methods move updated_at and version on each write only, and roll back whole", () =>
      checkPasswordRecords(fromPg(pool), "main"));

    it("BIGINT comes back from pg as a string; the adapter returns numbers", async () => {
      await reset();
      const adapter = HostedStoreAdapter(new HostedStoreClient({ client: fromPg(pool) }));
      const user = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: null });
      await adapter.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "1", expires_at: 1_900_000_000 });
      const { rows } = await pool.query(`SELECT expires_at FROM "main".svc_accounts`);
      expect(rows[0]?.expires_at).toBe("1900000000");
      expect((await adapter.getAccount("1", "github"))?.expires_at).toBe(1_900_000_000);
    });
  },
);
