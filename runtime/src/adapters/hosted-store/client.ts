/**
 * `HostedStoreClient`: where the hosted store is (database URL and branch) and
 * how to talk to it. The store is a PostgreSQL-compatible database; the client
 * reaches it through a `SqlClient` made by the caller's `connect` function (or
 * given ready as `client`), so this module loads no driver and runs anywhere.
 *
 * A branch is a PostgreSQL schema of the same name holding that branch's svc_
 * tables: branches share one database and never see each other's records.
 * Every query the adapter sends names the schema (`"main".svc_users`), so it
 * does not depend on the connection's `search_path` and any pool works.
 */
import type { SqlClient } from "../postgres/client.js";
import { HostedStoreError } from "./errors.js";

/** The env variables the client reads from `options.env` (never from `process.env`). */
export const HOSTED_STORE_ENV = {
  databaseURL: "HOSTED_STORE_DATABASE_URL",
  branch: "HOSTED_STORE_BRANCH",
} as const;

/** The branch used when neither `options.branch` nor `HOSTED_STORE_BRANCH` names one. */
export const DEFAULT_BRANCH = "main";

/** What `getConfig()` resolves to. */
export interface HostedStoreConfig {
  /** The branch, which is also the name of the PostgreSQL schema holding its tables. */
  branch: string;
  /** The database's connection string; `""` when the connection was given ready as `client` without one. */
  databaseURL: string;
}

export interface HostedStoreClientOptions {
  /** Connection string of the store's database. Default: `HOSTED_STORE_DATABASE_URL` from `env`. */
  databaseURL?: string;
  /** Default: `HOSTED_STORE_BRANCH` from `env`, then `"main"`. See `HostedStoreClient` for valid names. */
  branch?: string;
  /**
   * The environment variables to read `HOSTED_STORE_DATABASE_URL` and
   * `HOSTED_STORE_BRANCH` from. The runtime never reads `process.env` itself
   * (it also runs where there is none), so pass yours: `process.env` on Node,
   * `env` from `$env/dynamic/private` in SvelteKit. Empty values count as unset.
   */
  env?: Record<string, string | undefined>;
  /**
   * Opens the connection, once, the first time the adapter needs it: e.g.
   * `(url) => fromPg(new pg.Pool({ connectionString: url }))`. Gets the branch
   * too, for drivers that want it; the adapter's queries name the schema
   * themselves, so setting `search_path` is not needed.
   */
  connect?: (databaseURL: string, branch: string) => SqlClient | Promise<SqlClient>;
  /** A ready connection instead of `connect` (then `databaseURL` may be left out). */
  client?: SqlClient;
}

/**
 * A branch names a schema, quoted in the SQL: letters, digits, `_` and `-`,
 * 1 to 63 characters (PostgreSQL's identifier length), not starting with `-`.
 * Case matters (`Main` is not `main`).
 */
const BRANCH = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,62}$/;
/** Names PostgreSQL keeps for itself: `pg_*` schemas cannot be created, information_schema is the catalog's. */
const RESERVED_BRANCH = /^(pg_|information_schema$)/i;

/**
 * The hosted store's client: `getConfig()` as the specification has it, plus
 * `connection()`, which the adapter and `migrate()` use.
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
 * import { HostedStoreAdapter, HostedStoreClient, migrate } from "@gatehouse/runtime/adapters/hosted-store";
 *
 * const store = new HostedStoreClient({
 *   env: process.env, // HOSTED_STORE_DATABASE_URL, HOSTED_STORE_BRANCH
 *   connect: (url) => fromPg(new pg.Pool({ connectionString: url })),
 * });
 * await migrate(store);
 * const config = { adapter: HostedStoreAdapter(store), providers: [...] };
 * ```
 */
export class HostedStoreClient {
  readonly #options: HostedStoreClientOptions;
  #connection: Promise<SqlClient> | undefined;

  constructor(options: HostedStoreClientOptions = {}) {
    if (options.connect !== undefined && options.client !== undefined) {
      throw new TypeError("HostedStoreClient: give either `connect` or `client`, not both.");
    }
    // A copy: changing the caller's object later does not move the store.
    this.#options = { ...options };
  }

  /**
   * The database URL and branch, from the options, else from `env`, else the
   * default branch. Rejects with a `HostedStoreError` when there is no URL (and
   * no ready `client`) or the branch cannot name a schema.
   */
  async getConfig(): Promise<HostedStoreConfig> {
    const { env = {}, client } = this.#options;
    const branchFromEnv = this.#options.branch === undefined && nonEmpty(env[HOSTED_STORE_ENV.branch]) !== undefined;
    const branch = this.#options.branch ?? nonEmpty(env[HOSTED_STORE_ENV.branch]) ?? DEFAULT_BRANCH;
    if (!BRANCH.test(branch) || RESERVED_BRANCH.test(branch)) {
      throw new HostedStoreError(
        "invalid_branch",
        `HostedStoreClient: invalid branch ${JSON.stringify(branch)}${branchFromEnv ? ` (from ${HOSTED_STORE_ENV.branch})` : ""}. ` +
          `A branch names the PostgreSQL schema holding its tables: 1 to 63 letters, digits, "_" or "-", ` +
          `not starting with "-" or "pg_".`,
      );
    }
    const databaseURL = nonEmpty(this.#options.databaseURL) ?? nonEmpty(env[HOSTED_STORE_ENV.databaseURL]);
    if (databaseURL === undefined && client === undefined) {
      throw new HostedStoreError(
        "missing_database_url",
        `HostedStoreClient: no database URL. Set ${HOSTED_STORE_ENV.databaseURL} in the env you pass as \`env\`, ` +
          "or pass `databaseURL` (or a ready `client`).",
      );
    }
    return { branch, databaseURL: databaseURL ?? "" };
  }

  /**
   * The connection to the store: the `client` option, or what `connect` made
   * of the configured URL and branch. `connect` is called once, also when
   * several requests ask at the same time; if it fails, the next call tries again.
   */
  connection(): Promise<SqlClient> {
    this.#connection ??= this.#connect().catch((error: unknown) => {
      // Not kept: a database that was down at start must not break every later request.
      this.#connection = undefined;
      throw error;
    });
    return this.#connection;
  }

  async #connect(): Promise<SqlClient> {
    const { branch, databaseURL } = await this.getConfig();
    const { client, connect } = this.#options;
    if (client !== undefined) return checked(client, "client");
    if (connect === undefined) {
      throw new HostedStoreError(
        "no_connection",
        "HostedStoreClient: no way to connect. Pass `connect`, e.g. " +
          "`(url) => fromPg(new pg.Pool({ connectionString: url }))`, or a ready `client`.",
      );
    }
    return checked(await connect(databaseURL, branch), "connect()");
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function checked(client: SqlClient, from: string): SqlClient {
  if (typeof client?.query !== "function" || typeof client.transaction !== "function") {
    throw new TypeError(
      `HostedStoreClient: ${from} must be a SqlClient (query and transaction), e.g. fromPg(pool) or fromPGlite(db).`,
    );
  }
  return client;
}

/** Refuses what is not a `HostedStoreClient`, naming the caller: a plain pool or URL passed by mistake fails here, not at the first query. */
export function requireHostedStoreClient(client: HostedStoreClient, caller: string): void {
  if (typeof client?.getConfig !== "function" || typeof client.connection !== "function") {
    throw new TypeError(`${caller}: expected a HostedStoreClient.`);
  }
}

/** `main` -> `"main"`: the branch as a quoted identifier. Safe only for a branch `getConfig()` accepted. */
export function schemaOf(branch: string): string {
  return `"${branch}"`;
}
