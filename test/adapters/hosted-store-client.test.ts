/**
 * `HostedStoreClient`: `getConfig()` from options, from the env object passed
 * in, and from defaults; its errors; and `connection()`. No database needed.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_BRANCH,
  HOSTED_STORE_ENV,
  HostedStoreClient,
  HostedStoreError,
  type SqlClient,
} from "../../runtime/src/adapters/hosted-store/index.js";

const URL_A = "postgres://app@store.example:5432/auth";
const URL_B = "postgres://other@store.example:5432/auth";

/** A SqlClient that is never queried: these tests only hand it around. */
const sql: SqlClient = {
  query: async () => ({ rows: [] }),
  transaction: (fn) => fn(sql),
};

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

async function errorOf(promise: Promise<unknown>): Promise<HostedStoreError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostedStoreError);
  return error as HostedStoreError;
}

describe("HostedStoreClient.getConfig()", () => {
  const saved = { url: process.env.HOSTED_STORE_DATABASE_URL, branch: process.env.HOSTED_STORE_BRANCH };
  afterEach(() => {
    restore("HOSTED_STORE_DATABASE_URL", saved.url);
    restore("HOSTED_STORE_BRANCH", saved.branch);
  });

  it("is constructed with no options at all (and then rejects for the missing URL)", async () => {
    const client = new HostedStoreClient();
    expect((await errorOf(client.getConfig())).code).toBe("missing_database_url");
  });

  it("takes databaseURL and branch from the options", async () => {
    const client = new HostedStoreClient({ databaseURL: URL_A, branch: "preview" });
    await expect(client.getConfig()).resolves.toEqual({ branch: "preview", databaseURL: URL_A });
  });

  it("reads HOSTED_STORE_DATABASE_URL and HOSTED_STORE_BRANCH from the given env", async () => {
    expect(HOSTED_STORE_ENV).toEqual({ databaseURL: "HOSTED_STORE_DATABASE_URL", branch: "HOSTED_STORE_BRANCH" });
    const client = new HostedStoreClient({ env: { HOSTED_STORE_DATABASE_URL: URL_A, HOSTED_STORE_BRANCH: "feature-1" } });
    await expect(client.getConfig()).resolves.toEqual({ branch: "feature-1", databaseURL: URL_A });
  });

  it("options win over the env", async () => {
    const client = new HostedStoreClient({
      databaseURL: URL_B,
      branch: "staging",
      env: { HOSTED_STORE_DATABASE_URL: URL_A, HOSTED_STORE_BRANCH: "feature-1" },
    });
    await expect(client.getConfig()).resolves.toEqual({ branch: "staging", databaseURL: URL_B });
  });

  it('the branch defaults to "main"; empty values count as unset', async () => {
    expect(DEFAULT_BRANCH).toBe("main");
    await expect(new HostedStoreClient({ databaseURL: URL_A }).getConfig()).resolves.toEqual({ branch: "main", databaseURL: URL_A });
    const client = new HostedStoreClient({ databaseURL: "", env: { HOSTED_STORE_DATABASE_URL: URL_A, HOSTED_STORE_BRANCH: "" } });
    await expect(client.getConfig()).resolves.toEqual({ branch: "main", databaseURL: URL_A });
  });

  it("never reads process.env itself", async () => {
    process.env.HOSTED_STORE_DATABASE_URL = URL_A;
    process.env.HOSTED_STORE_BRANCH = "from-process-env";
    expect((await errorOf(new HostedStoreClient().getConfig())).code).toBe("missing_database_url");
    await expect(new HostedStoreClient({ databaseURL: URL_B }).getConfig()).resolves.toEqual({ branch: "main", databaseURL: URL_B });
    // Passed in explicitly, it is read like any env object.
    await expect(new HostedStoreClient({ env: process.env }).getConfig()).resolves.toEqual({
      branch: "from-process-env",
      databaseURL: URL_A,
    });
  });

  it("without a URL and without a ready client, rejects with an error naming the env variable", async () => {
    const error = await errorOf(new HostedStoreClient({ env: {}, connect: () => sql }).getConfig());
    expect(error.code).toBe("missing_database_url");
    expect(error.name).toBe("HostedStoreError");
    expect(error.message).toMatch(/HOSTED_STORE_DATABASE_URL/);
  });

  it('with a ready client the URL may be left out: databaseURL is ""', async () => {
    await expect(new HostedStoreClient({ client: sql }).getConfig()).resolves.toEqual({ branch: "main", databaseURL: "" });
    await expect(new HostedStoreClient({ client: sql, databaseURL: URL_A }).getConfig()).resolves.toEqual({
      branch: "main",
      databaseURL: URL_A,
    });
  });

  it.each([
    ["a space", "my branch"],
    ["a quote", 'x"; DROP SCHEMA main CASCADE; --'],
    ["a slash", "feature/login"],
    ["a dot", "v1.2"],
    ["a leading dash", "-x"],
    ["PostgreSQL's pg_ prefix", "pg_catalog"],
    ["the pg_ prefix in capitals", "PG_temp"],
    ["information_schema", "information_schema"],
    ["64 characters", "b".repeat(64)],
  ])("rejects a branch with %s", async (_, branch) => {
    const error = await errorOf(new HostedStoreClient({ databaseURL: URL_A, branch }).getConfig());
    expect(error.code).toBe("invalid_branch");
    expect(error.message).toContain(JSON.stringify(branch));
  });

  it("says when the invalid branch came from HOSTED_STORE_BRANCH", async () => {
    const error = await errorOf(new HostedStoreClient({ env: { HOSTED_STORE_DATABASE_URL: URL_A, HOSTED_STORE_BRANCH: "a b" } }).getConfig());
    expect(error.message).toMatch(/"a b" \(from HOSTED_STORE_BRANCH\)/);
  });

  it.each(["main", "Main", "feature-login_2", "_x", "0", "b".repeat(63), "public"])("accepts the branch %s", async (branch) => {
    await expect(new HostedStoreClient({ databaseURL: URL_A, branch }).getConfig()).resolves.toEqual({ branch, databaseURL: URL_A });
  });

  it("keeps its own copy of the options", async () => {
    const options = { databaseURL: URL_A, branch: "preview" };
    const client = new HostedStoreClient(options);
    options.branch = "changed";
    options.databaseURL = URL_B;
    await expect(client.getConfig()).resolves.toEqual({ branch: "preview", databaseURL: URL_A });
    const config = await client.getConfig();
    config.branch = "mutated";
    expect((await client.getConfig()).branch).toBe("preview");
  });
});

describe("HostedStoreClient.connection()", () => {
  it("calls connect once with the URL and branch, also when asked concurrently", async () => {
    const calls: unknown[][] = [];
    const client = new HostedStoreClient({
      env: { HOSTED_STORE_DATABASE_URL: URL_A, HOSTED_STORE_BRANCH: "preview" },
      connect: async (...args) => {
        calls.push(args);
        return sql;
      },
    });
    const connections = await Promise.all([client.connection(), client.connection(), client.connection()]);
    expect(connections.every((c) => c === sql)).toBe(true);
    expect(await client.connection()).toBe(sql);
    expect(calls).toEqual([[URL_A, "preview"]]);
  });

  it("returns a ready client as is", async () => {
    expect(await new HostedStoreClient({ client: sql }).connection()).toBe(sql);
  });

  it("without connect or client, rejects with no_connection", async () => {
    const error = await errorOf(new HostedStoreClient({ databaseURL: URL_A }).connection());
    expect(error.code).toBe("no_connection");
    expect(error.message).toMatch(/connect/);
  });

  it("rejects for the config's errors before calling connect", async () => {
    let called = false;
    const client = new HostedStoreClient({
      databaseURL: URL_A,
      branch: "bad branch",
      connect: () => {
        called = true;
        return sql;
      },
    });
    expect((await errorOf(client.connection())).code).toBe("invalid_branch");
    expect(called).toBe(false);
  });

  it("a failed connect is not kept: the next call tries again", async () => {
    let attempts = 0;
    const client = new HostedStoreClient({
      databaseURL: URL_A,
      connect: async () => {
        if (++attempts === 1) throw new Error("connection refused");
        return sql;
      },
    });
    await expect(client.connection()).rejects.toThrow("connection refused");
    expect(await client.connection()).toBe(sql);
    expect(attempts).toBe(2);
  });

  it("rejects what connect returns when it is not a SqlClient", async () => {
    const client = new HostedStoreClient({ databaseURL: URL_A, connect: () => ({}) as SqlClient });
    await expect(client.connection()).rejects.toThrow(/must be a SqlClient/);
  });

  it("refuses both connect and client", () => {
    expect(() => new HostedStoreClient({ client: sql, connect: () => sql })).toThrow(/either `connect` or `client`/);
  });
});
