/**
 * Which database an app uses and where it is, from its db module, package.json
 * and env. The kind: the runtime adapter the db module imports (hosted-store
 * and PostgreSQL apps both list `pg`), else the driver package.json lists
 * (`better-sqlite3`, `pg`, `@electric-sql/pglite`). The place: the env keys the
 * generated db module reads, with its defaults. Pure.
 */
import { DEFAULT_BRANCH, HOSTED_STORE_ENV } from "@gatehouse/runtime/adapters/hosted-store";
import { DEFAULT_SQLITE_PATH, SQLITE_PATH_KEY } from "./init/answers.js";
import { listedDependencies } from "./package-json.js";

export type DatabaseTarget =
  | { kind: "pglite"; dir: string }
  | { kind: "postgres"; url: string }
  | { kind: "sqlite"; file: string }
  | { kind: "hosted-store"; url: string; branch: string }
  /**
   * The app's own ORM database (`auth-init --adapter drizzle`, `prisma` or
   * `kysely`): the ORM creates its tables, so there is no ledger to read,
   * only what they lack. `url` is the file for SQLite, the folder for PGlite;
   * `urlEnv` the env key it came from.
   */
  | { kind: "app-orm"; orm: OrmName; dialect: "postgres" | "sqlite"; driver: OrmDriver; url: string; urlEnv: string };

export type OrmName = "drizzle" | "prisma" | "kysely";
/** The drivers the database task opens an ORM's database with: the one the app has for it. */
export type OrmDriver = "postgres-js" | "node-postgres" | "pglite" | "better-sqlite3";

/** The app's own ORM database, as the app's setup names it (its db module, Prisma schema or config). */
export interface AppOrmDatabase {
  orm: OrmName;
  dialect: "postgres" | "sqlite";
  driver: OrmDriver;
  /** The env key the app reads the database's URL (or file, or folder) from; undefined when gatehouse cannot tell. */
  urlEnv: string | undefined;
  /** What opens it, for messages: `src/lib/server/db.ts`, `prisma/schema.prisma`. */
  openedBy: string;
}

export const ORM_NAMES: Record<OrmName, string> = { drizzle: "Drizzle", prisma: "Prisma", kysely: "Kysely" };

export type DatabaseKind = DatabaseTarget["kind"];

/** Not found: why, and what to do; `unchecked` when the app has a database doctor cannot locate (a warning, not a missing database). */
export type DatabaseLookup = { found: true; target: DatabaseTarget } | { found: false; reason: string; fix?: string; unchecked?: true };

export const DEFAULT_PGLITE_DIR = ".pglite";

export interface AppDatabaseInput {
  packageJson: string;
  /** The app's env (its .env under the process's). */
  env: Record<string, string>;
  /** `--database-url`: this URL instead of the one in env, for a PostgreSQL or hosted-store app. */
  databaseUrl?: string;
  /** The text of the app's db module, when it has one. */
  dbModule?: string;
  /** The app's own ORM database, when its auth tables are in it (auth-init wrote `auth-db` beside the app's database module). */
  appOrm?: AppOrmDatabase;
}

export function appDatabase({ packageJson, env, databaseUrl, dbModule, appOrm }: AppDatabaseInput): DatabaseLookup {
  if (appOrm) return appOrmDatabase(appOrm, env, databaseUrl);
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
export function databaseKind(deps: Record<string, string>, env: Record<string, string>, dbModule: string | undefined): Exclude<DatabaseKind, "app-orm"> | undefined {
  const imports = (adapter: string) => dbModule !== undefined && new RegExp(`["']@gatehouse/runtime/adapters/${adapter}(?:/[\\w-]+)?["']`).test(dbModule);
  if (imports("hosted-store")) return "hosted-store";
  if (imports("sqlite")) return "sqlite";
  const hostedStoreEnv = HOSTED_STORE_ENV.databaseURL in env && !("DATABASE_URL" in env);
  if ("pg" in deps) return hostedStoreEnv && !imports("postgres") ? "hosted-store" : "postgres";
  if ("@electric-sql/pglite" in deps) return "pglite";
  if ("better-sqlite3" in deps) return "sqlite";
  return undefined;
}

function appOrmDatabase(orm: AppOrmDatabase, env: Record<string, string>, databaseUrl: string | undefined): DatabaseLookup {
  const name = ORM_NAMES[orm.orm];
  if (databaseUrl) return { found: false, reason: `--database-url does not apply to an app whose auth tables are in its ${name} database: ${name} creates them in the database ${orm.openedBy} opens` };
  if (!orm.urlEnv) {
    return { found: false, unchecked: true, reason: `gatehouse cannot tell which database ${orm.openedBy} opens (it reads no env key for it), so its auth tables were not checked`, fix: "read the database's URL from an env key (DATABASE_URL) there" };
  }
  const url = env[orm.urlEnv];
  if (!url) return { found: false, reason: `${orm.urlEnv} is not set`, fix: `set ${orm.urlEnv} in .env to the database ${orm.openedBy} opens` };
  // drizzle-kit, Prisma and better-sqlite3 take `file:` URLs and plain paths alike.
  return { found: true, target: { kind: "app-orm", orm: orm.orm, dialect: orm.dialect, driver: orm.driver, url: orm.dialect === "sqlite" ? url.replace(/^file:/, "") : url, urlEnv: orm.urlEnv } };
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
    case "app-orm": {
      const own = `the app's ${ORM_NAMES[target.orm]} database`;
      if (target.dialect === "sqlite") return `${own}, SQLite in ${target.url}`;
      if (target.driver === "pglite") return `${own}, PGlite in ${target.url}/`;
      return `${own}, PostgreSQL at ${hidePassword(target.url) ?? `(${target.urlEnv} is not a valid URL)`}`;
    }
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
    case "app-orm":
      if (target.dialect === "sqlite") return `check ${target.urlEnv} in .env (the SQLite file, which ${ORM_NAMES[target.orm]}'s migration creates) and that better-sqlite3 is installed`;
      if (target.driver === "pglite") return `check ${target.urlEnv} in .env (the PGlite folder; stop the app first: one PGlite folder, one process)`;
      return `check ${target.urlEnv} in .env and that the server is running`;
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
