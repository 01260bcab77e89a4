/**
 * Which database an app uses and where it is, from its db module, package.json
 * and env. The kind: the runtime adapter the db module imports (hosted-store
 * and PostgreSQL apps both list `pg`), else the driver package.json lists
 * (`better-sqlite3`, `pg`, `@electric-sql/pglite`). The place: the env keys the
 * generated db module reads, with its defaults. Pure.
 */
import { DEFAULT_BRANCH, HOSTED_STORE_ENV } from "@gatehouse/runtime/adapters/hosted-store";
import { DEFAULT_SQLITE_PATH, SQLITE_PATH_KEY } from "./init/answers.js";
import type { DrizzleApp } from "./drizzle.js";
import { listedDependencies } from "./package-json.js";

export type DatabaseTarget =
  | { kind: "pglite"; dir: string }
  | { kind: "postgres"; url: string }
  | { kind: "sqlite"; file: string }
  | { kind: "hosted-store"; url: string; branch: string }
  /** The app's own Drizzle database (`auth-init --adapter drizzle`): drizzle-kit creates its tables, so there is no ledger to read. `url` is the file for SQLite. */
  | { kind: "drizzle"; dialect: DrizzleApp["dialect"]; driver: string; url: string };

export type DatabaseKind = DatabaseTarget["kind"];

export type DatabaseLookup = { found: true; target: DatabaseTarget } | { found: false; reason: string; fix?: string };

export const DEFAULT_PGLITE_DIR = ".pglite";

export interface AppDatabaseInput {
  packageJson: string;
  /** The app's env (its .env under the process's). */
  env: Record<string, string>;
  /** `--database-url`: this URL instead of the one in env, for a PostgreSQL or hosted-store app. */
  databaseUrl?: string;
  /** The text of the app's db module, when it has one. */
  dbModule?: string;
  /** The app's Drizzle setup, when its auth tables are in it (auth-init wrote `auth-db` beside its db module). */
  drizzle?: DrizzleApp;
}

/** Where drizzle-kit (and the app's db module, as sv writes it) reads the database's URL. */
export const DRIZZLE_URL_KEY = "DATABASE_URL";

export function appDatabase({ packageJson, env, databaseUrl, dbModule, drizzle }: AppDatabaseInput): DatabaseLookup {
  if (drizzle) {
    if (databaseUrl) return { found: false, reason: "--database-url does not apply to an app whose auth tables are in its Drizzle schema: drizzle-kit creates them in the database of its config" };
    const url = env[DRIZZLE_URL_KEY];
    if (!url) return { found: false, reason: `${DRIZZLE_URL_KEY} is not set`, fix: `set ${DRIZZLE_URL_KEY} in .env to the database of ${drizzle.config}` };
    // drizzle-kit and better-sqlite3 take `file:` URLs and plain paths alike.
    return { found: true, target: { kind: "drizzle", dialect: drizzle.dialect, driver: drizzle.driver, url: drizzle.dialect === "sqlite" ? url.replace(/^file:/, "") : url } };
  }
  const kind = databaseKind(listedDependencies(packageJson), env, dbModule);
  if (databaseUrl) {
    if (kind === "hosted-store") return { found: true, target: { kind, url: databaseUrl, branch: branchOf(env) } };
    if (kind === "sqlite") return { found: false, reason: `--database-url is for a database server; this app's database is a SQLite file (${SQLITE_PATH_KEY} in .env moves it)` };
    // The app opens its folder, never a server: migrating a server for it would change a database it does not use
    // (and the app has no server driver, pg, to reach one).
    if (kind === "pglite") return { found: false, reason: `--database-url is for a database server; this app's database is PGlite, a folder (${DEFAULT_PGLITE_DIR}/ by default; PGLITE_DIR in .env moves it), so it does not apply: run migrate without it` };
    return { found: true, target: { kind: "postgres", url: databaseUrl } };
  }
  switch (kind) {
    case "hosted-store": {
      const url = env[HOSTED_STORE_ENV.databaseURL];
      if (!url) return { found: false, reason: `${HOSTED_STORE_ENV.databaseURL} is not set`, fix: `set ${HOSTED_STORE_ENV.databaseURL} in .env (postgres://user:password@host:5432/database)` };
      return { found: true, target: { kind, url, branch: branchOf(env) } };
    }
    case "postgres": {
      const url = env.DATABASE_URL;
      if (!url) return { found: false, reason: "DATABASE_URL is not set", fix: "set DATABASE_URL in .env (postgres://user:password@host:5432/database)" };
      return { found: true, target: { kind, url } };
    }
    case "sqlite":
      return { found: true, target: { kind, file: env[SQLITE_PATH_KEY] || DEFAULT_SQLITE_PATH } };
    case "pglite":
      return { found: true, target: { kind, dir: env.PGLITE_DIR || DEFAULT_PGLITE_DIR } };
    case undefined:
      return { found: false, reason: "the app has no database driver (pg, @electric-sql/pglite or better-sqlite3) in package.json" };
  }
}

/**
 * The adapter the db module imports decides; without a db module (an app set
 * up by hand), the driver: `pg` is a hosted store when the env names one and
 * no DATABASE_URL.
 */
function databaseKind(deps: Record<string, string>, env: Record<string, string>, dbModule: string | undefined): Exclude<DatabaseKind, "drizzle"> | undefined {
  const imports = (adapter: string) => dbModule !== undefined && new RegExp(`["']@gatehouse/runtime/adapters/${adapter}(?:/[\\w-]+)?["']`).test(dbModule);
  if (imports("hosted-store")) return "hosted-store";
  if (imports("sqlite")) return "sqlite";
  const hostedStoreEnv = HOSTED_STORE_ENV.databaseURL in env && !("DATABASE_URL" in env);
  if ("pg" in deps) return hostedStoreEnv && !imports("postgres") ? "hosted-store" : "postgres";
  if ("@electric-sql/pglite" in deps) return "pglite";
  if ("better-sqlite3" in deps) return "sqlite";
  return undefined;
}

function branchOf(env: Record<string, string>): string {
  return env[HOSTED_STORE_ENV.branch] || DEFAULT_BRANCH;
}

/** The target for messages, any password hidden. */
export function describeTarget(target: DatabaseTarget): string {
  switch (target.kind) {
    case "pglite":
      return `PGlite in ${target.dir}/`;
    case "sqlite":
      return `SQLite in ${target.file}`;
    case "postgres":
      return `PostgreSQL at ${hidePassword(target.url) ?? "(DATABASE_URL is not a valid URL)"}`;
    case "hosted-store":
      return `the hosted store's branch "${target.branch}" at ${hidePassword(target.url) ?? `(${HOSTED_STORE_ENV.databaseURL} is not a valid URL)`}`;
    case "drizzle":
      return target.dialect === "sqlite"
        ? `the app's Drizzle database, SQLite in ${target.url}`
        : `the app's Drizzle database, PostgreSQL at ${hidePassword(target.url) ?? `(${DRIZZLE_URL_KEY} is not a valid URL)`}`;
  }
}

/** What to check when the database cannot be reached. */
export function reachFix(target: DatabaseTarget): string {
  switch (target.kind) {
    case "pglite":
      return `check ${target.dir}/ (stop the app first: one PGlite folder, one process)`;
    case "sqlite":
      return `check that ${target.file} can be created and written (${SQLITE_PATH_KEY} in .env moves it), and that better-sqlite3 is installed`;
    case "postgres":
      return "check DATABASE_URL and that the server is running";
    case "hosted-store":
      return `check ${HOSTED_STORE_ENV.databaseURL} and ${HOSTED_STORE_ENV.branch}, and that the store is running`;
    case "drizzle":
      return target.dialect === "sqlite" ? `check ${DRIZZLE_URL_KEY} in .env (the SQLite file, which drizzle-kit's migrate creates) and that better-sqlite3 is installed` : `check ${DRIZZLE_URL_KEY} in .env and that the server is running`;
  }
}

function hidePassword(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.password) url.password = "***";
    return url.href;
  } catch {
    return undefined;
  }
}
