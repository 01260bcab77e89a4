/**
 * The PostgreSQL adapter on PGlite (PostgreSQL in WebAssembly, in this process):
 * the shared conformance suite, `migrate()`, the inlined migrations, and the
 * PGlite wrapper. One PGlite per file: opening one is slow.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative imports: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import { PostgresAdapter, PostgresAdapterError, migrate, migrations, type SqlClient } from "../../runtime/src/adapters/postgres/index.js";
import { fromPGlite } from "../../runtime/src/adapters/postgres/pglite.js";
import { runAdapterConformance } from "./conformance.js";
import { openPGlite } from "./support/pglite.js";
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

let pglite: PGlite;
let db: SqlClient;
let opened: Promise<void> | undefined;
/** Opens and migrates the file's one PGlite, the first time it is asked for. */
const ready = () =>
  (opened ??= (async () => {
    pglite = await openPGlite();
    db = fromPGlite(pglite);
    await migrate(db);
  })());

beforeAll(ready, 60_000);
afterAll(async () => {
  await pglite?.close();
});

const TRUNCATE = "TRUNCATE users, accounts, sessions, verification_token, authenticators CASCADE";

runAdapterConformance({
  name: "postgres (PGlite)",
  setup: async () => {
    await ready();
    return PostgresAdapter(db);
  },
  reset: async () => {
    await db.query(TRUNCATE);
  },
  addedColumns: { ...postgresAddedColumns(() => db), sessionIds: true },
  limits: { noExtraFields: NO_EXTRA_FIELDS },
});

/** Runs `fn` against an empty schema of the shared PGlite (its own search_path), then drops it. */
async function inFreshSchema(fn: (db: SqlClient) => Promise<void>): Promise<void> {
  const schema = `test_${crypto.randomUUID().replaceAll("-", "")}`;
  await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema};`);
  try {
    await fn(db);
  } finally {
    await pglite.exec(`RESET search_path; DROP SCHEMA ${schema} CASCADE;`);
  }
}

describe("migrate() on PGlite", () => {
  it("applies and records every migration once; a second run applies nothing", () => inFreshSchema(checkIdempotent));

  it("applies a pending migration; a failing one is rolled back and not recorded", () => inFreshSchema(checkPendingAndFailing));

  it("concurrent runs apply each migration exactly once", () => inFreshSchema((db) => checkConcurrent([db, db, db])));

  it("adopts an Auth.js database: rows kept, integer ids become text, constraints added", () =>
    inFreshSchema(checkAdoptsAuthjsDatabase));

  it("accepts a raw PGlite instance", () =>
    inFreshSchema(async () => {
      expect(await migrate(pglite)).toEqual({ applied: migrations.map((m) => m.name) });
    }));
});

describe("PostgresAdapter on PGlite, beyond the suite", () => {
  it("takes a raw PGlite instance as well as a SqlClient", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(pglite);
    const user = await adapter.createUser({ id: "user-1", email: "ada@example.com", emailVerified: null });
    expect(user.id).toBe("user-1");
    expect((await PostgresAdapter(db).getUser("user-1"))?.email).toBe("ada@example.com");
  });

  it("returns what it changed or removed; not_found errors name the row", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(db);
    const user = await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada" });
    expect(user).toEqual({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada", image: null });
    const session = await adapter.createSession({ sessionToken: "t", userId: "u", expires: new Date(2_000_000_000_000) });
    expect(await adapter.deleteSession("t")).toEqual(session);
    expect(await adapter.deleteSession("t")).toBeNull();
    const account = { userId: "u", type: "oauth" as const, provider: "github", providerAccountId: "1", token_type: "Bearer" };
    expect(await adapter.linkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await adapter.unlinkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await adapter.unlinkAccount(account)).toBeUndefined();
    expect(await adapter.deleteUser("u")).toEqual(user);
    expect(await adapter.deleteUser("u")).toBeNull();

    const updateError = await Promise.resolve(adapter.updateUser({ id: "nobody", name: "x" })).catch((e: unknown) => e);
    expect(updateError).toBeInstanceOf(PostgresAdapterError);
    expect(updateError).toMatchObject({ code: "not_found", message: expect.stringMatching(/nobody/) });
    await expect(Promise.resolve(adapter.updateAuthenticatorCounter("no-such-credential", 1))).rejects.toThrow(/no-such-credential.*does not exist/);
  });

  it("stores WebAuthn counters beyond 32-bit signed range and returns them as numbers", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(db);
    await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
    const authenticator = {
      userId: "u",
      credentialID: "c",
      providerAccountId: "c",
      credentialPublicKey: "k",
      counter: 2 ** 32 - 1,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    };
    expect(await adapter.createAuthenticator(authenticator)).toEqual({ ...authenticator, transports: null });
    expect((await adapter.getAuthenticator("c"))?.counter).toBe(2 ** 32 - 1);
  });

  it("updateUser with no field to change returns the user unchanged", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(db);
    const user = await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null, name: "Ada" });
    expect(await adapter.updateUser({ id: "u", name: undefined })).toEqual(user);
  });

  it("updateAccount returns exactly the account's fields, stores token_type lowercased and clears with NULL", async () => {
    await db.query(TRUNCATE);
    const adapter = PostgresAdapter(db);
    await adapter.createUser({ id: "u", email: "ada@example.com", emailVerified: null });
    const account = { userId: "u", type: "oauth" as const, provider: "github", providerAccountId: "1", scope: "read", refresh_token: "r0" };
    await adapter.linkAccount(account);
    const updated = await adapter.updateAccount({ provider: "github", providerAccountId: "1", token_type: "Bearer", expires_at: 1_900_000_000, scope: null });
    expect(updated).toEqual({ userId: "u", type: "oauth", provider: "github", providerAccountId: "1", refresh_token: "r0", token_type: "bearer", expires_at: 1_900_000_000 });
    const { rows } = await db.query<{ token_type: string; scope: string | null }>("SELECT token_type, scope FROM accounts", []);
    expect(rows).toEqual([{ token_type: "bearer", scope: null }]);
  });

  it("adoptUnprovenUser deletes the user's password row, no other, in its one transaction", () => checkAdoptionDeletesPassword(db));

  it("the password methods move updatedAt on each write only, and roll back whole", () => checkPasswordRows(db));

  it("rejects what is not a client, a pg Pool or a PGlite", () => {
    expect(() => PostgresAdapter({} as SqlClient)).toThrow(TypeError);
  });
});

describe("fromPGlite", () => {
  it("a query without params may hold several statements; the rows are the last one's", async () => {
    expect((await db.query("SELECT 1 AS a; SELECT 2 AS b")).rows).toEqual([{ b: 2 }]);
  });

  it("transaction commits, rolls back on throw, and nests as a savepoint", async () => {
    await db.query("CREATE TEMP TABLE tx_test (x int)");
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_test VALUES ($1)", [1]);
      await tx
        .transaction(async (inner) => {
          await inner.query("INSERT INTO tx_test VALUES ($1)", [2]);
          throw new Error("undo the inner step");
        })
        .catch(() => {});
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_test VALUES ($1)", [3]);
        throw new Error("undo everything");
      }),
    ).rejects.toThrow("undo everything");
    expect((await db.query("SELECT x FROM tx_test ORDER BY x", [])).rows).toEqual([{ x: 1 }]);
    await db.query("DROP TABLE tx_test");
  });
});

/** The test database, recording the text of every statement sent through `query`. */
function recordingClient(statements: string[]): SqlClient {
  return {
    query: (text, params) => {
      statements.push(text);
      return db.query(text, params);
    },
    transaction: (fn) => db.transaction(fn),
  };
}

describe("database round trips", () => {
  it("getSessionAndUser is one query, and so are the session writes", async () => {
    await db.query(TRUNCATE);
    const statements: string[] = [];
    const counting = recordingClient(statements);
    const adapter = PostgresAdapter(counting);
    const user = await adapter.createUser({ id: "", email: "rt@example.com", emailVerified: null });
    await adapter.createSession({ sessionToken: "rt-token", userId: user.id, expires: new Date(Date.now() + 60_000) });
    statements.length = 0;
    expect((await adapter.getSessionAndUser("rt-token"))?.user.id).toBe(user.id);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/JOIN users/);
    statements.length = 0;
    await adapter.updateSession({ sessionToken: "rt-token", expires: new Date(Date.now() + 120_000) });
    await adapter.deleteSession("rt-token");
    expect(statements).toHaveLength(2);
  });

  it("updateAccount is one statement, also with a condition (the compare-and-set is atomic in it)", async () => {
    await db.query(TRUNCATE);
    const statements: string[] = [];
    const counting = recordingClient(statements);
    const adapter = PostgresAdapter(counting);
    const user = await adapter.createUser({ id: "", email: "rt@example.com", emailVerified: null });
    const key = { provider: "github", providerAccountId: "1" };
    await adapter.linkAccount({ userId: user.id, type: "oauth", ...key, refresh_token: "r0" });
    statements.length = 0;
    expect(await adapter.updateAccount({ ...key, access_token: "a1", refresh_token: "r1" }, { refresh_token: "r0" })).toMatchObject({
      refresh_token: "r1",
    });
    expect(await adapter.updateAccount({ ...key, access_token: "a2" }, { refresh_token: "r0" })).toBeNull();
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^UPDATE accounts SET .* WHERE .*refresh_token IS NOT DISTINCT FROM \$\d+ RETURNING/s);
  });
});
