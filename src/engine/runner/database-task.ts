/**
 * Runs inside an app (copied to `node_modules/.cache/gatehouse/` and started with
 * node there), so it uses the app's own installed runtime and database driver:
 * `status` says how the database stands against the schema the app's runtime
 * expects (pending migrations, migrations a newer runtime applied, what is
 * missing although applied), `migrate` applies the pending ones. Prints one
 * JSON line; never throws past it.
 *
 * Input: argv[2] = "status" | "migrate"; env GATEHOUSE_DB = the target as JSON:
 * {"kind":"pglite","dir":...}, {"kind":"postgres","url":...},
 * {"kind":"sqlite","file":...}, {"kind":"hosted-store","url":...,"branch":...} or
 * {"kind":"app-orm","orm":...,"dialect":...,"driver":...,"url":...} (paths absolute); env GATEHOUSE_SCHEMA = "1" when ./schema.mjs (the app's
 * schema, transpiled) sits next to this file.
 *
 * Each adapter keeps its own ledger of applied migrations: `gatehouse_migrations`
 * (PostgreSQL, PGlite, SQLite) or `svc_migrations` in the branch's schema (hosted store).
 * An app whose auth tables its own ORM makes (Drizzle, Prisma, Kysely) has
 * none: its status is what its tables lack, read with the app's driver.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Migration } from "@gatehouse/runtime/adapters/postgres";

type Target =
  | { kind: "pglite"; dir: string }
  | { kind: "postgres"; url: string }
  | { kind: "sqlite"; file: string }
  | { kind: "hosted-store"; url: string; branch: string }
  | { kind: "app-orm"; orm: string; dialect: "postgres" | "sqlite"; driver: string; url: string };
type Mode = "status" | "migrate";

interface Queryable {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** What the runtime's `checkSchema` reports (its `SchemaReport`). */
interface Report {
  pending: string[];
  unknown: string[];
  missing: { table: string; migration: string; column?: string; index?: string }[];
}

/** The app's database, opened through its adapter's module. */
interface Database {
  /** The adapter's own migrations: the schema when the app has no schema module. */
  bundled: readonly Migration[];
  /** The migrations the ledger records, [] when there is no ledger yet. */
  applied(): Promise<string[]>;
  /** The runtime's `checkSchema` on this database; absent in runtimes before it, which report from the ledger alone. */
  check?: (schema: readonly Migration[]) => Promise<Report>;
  /** Applies what `schema` has and the ledger lacks; the names applied. */
  migrate(schema: readonly Migration[]): Promise<string[]>;
  close(): Promise<void>;
}

/** Imports the app's driver; a missing one is named with the install command. */
async function driver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") throw new Error(`the app does not have the ${name} driver installed (npm install ${name})`);
    throw error;
  }
}

async function open(target: Target, mode: Mode): Promise<Database> {
  switch (target.kind) {
    case "pglite": {
      const { PGlite } = await driver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
      // Created owner-only, as the app's db.ts creates it (PGlite's own files inside are 0666).
      if (mode === "migrate") ownerOnly(target.dir, "dir");
      const db = new PGlite(target.dir);
      return postgres(db, () => db.close());
    }
    case "postgres": {
      const { default: pg } = await driver("pg", () => import("pg"));
      const pool = new pg.Pool({ connectionString: target.url, connectionTimeoutMillis: 5000, max: 1 });
      return postgres(pool, () => pool.end());
    }
    case "sqlite":
      return sqlite(target.file, mode);
    case "hosted-store":
      return hostedStore(target.url, target.branch);
    case "app-orm":
      return appOrm(target);
  }
}

/** The app's own ORM database, opened with the driver the app has for it; only read (the ORM migrates it). */
async function appOrm(target: Extract<Target, { kind: "app-orm" }>): Promise<Database> {
  const readOnly = (db: Omit<Database, "applied" | "migrate">): Database => ({
    ...db,
    applied: async () => [],
    migrate: () => Promise.reject(new Error(`the app's ${target.orm} migrations make this database's auth tables`)),
  });
  if (target.dialect === "sqlite") {
    const { default: BetterSqlite3 } = await driver("better-sqlite3", () => import("better-sqlite3"));
    const adapter = await import("@gatehouse/runtime/adapters/sqlite");
    const db = new BetterSqlite3(target.url, { fileMustExist: true });
    return readOnly({ bundled: adapter.migrations, ...checkWith(adapter, db, { ledger: false }), close: async () => void db.close() });
  }
  const adapter = await import("@gatehouse/runtime/adapters/postgres");
  const bundled = adapter.migrations;
  if (target.driver === "postgres-js") {
    const { default: postgres } = await driver("postgres", () => import("postgres"));
    const sql = postgres(target.url, { max: 1, connect_timeout: 5, onnotice: () => {} });
    return readOnly({ bundled, ...checkWith(adapter, sql, { ledger: false }), close: () => sql.end({ timeout: 5 }) });
  }
  if (target.driver === "pglite") {
    const { PGlite } = await driver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
    const db = new PGlite(target.url);
    return readOnly({ bundled, ...checkWith(adapter, db, { ledger: false }), close: () => db.close() });
  }
  const { default: pg } = await driver("pg", () => import("pg"));
  const pool = new pg.Pool({ connectionString: target.url, connectionTimeoutMillis: 5000, max: 1 });
  return readOnly({ bundled, ...checkWith(adapter, pool, { ledger: false }), close: () => pool.end() });
}

async function postgres(db: Queryable, close: () => Promise<void>): Promise<Database> {
  const adapter = await import("@gatehouse/runtime/adapters/postgres");
  const { migrate, migrations } = adapter;
  return {
    bundled: migrations,
    ...checkWith(adapter, db),
    async applied() {
      const { rows } = await db.query<{ ledger: string | null }>("SELECT to_regclass('gatehouse_migrations')::text AS ledger");
      if (!rows[0]?.ledger) return [];
      return (await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY applied_at, name")).rows.map((row) => row.name);
    },
    migrate: async (schema) => (await migrate(db as Parameters<typeof migrate>[0], { migrations: schema })).applied,
    close,
  };
}

async function sqlite(file: string, mode: Mode): Promise<Database> {
  const { default: BetterSqlite3 } = await driver("better-sqlite3", () => import("better-sqlite3"));
  const adapter = await import("@gatehouse/runtime/adapters/sqlite");
  const { migrate, migrations } = adapter;
  // Reading the status never creates the file; migrating creates it (and its folder) as the app would.
  if (mode === "migrate") {
    mkdirSync(dirname(file), { recursive: true });
    ownerOnly(file, "file");
  }
  const db = new BetterSqlite3(file, { fileMustExist: mode === "status" });
  return {
    bundled: migrations,
    ...checkWith(adapter, db),
    async applied() {
      const ledger = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gatehouse_migrations'").get();
      if (!ledger) return [];
      return (db.prepare("SELECT name FROM gatehouse_migrations ORDER BY applied_at, name").all() as { name: string }[]).map((row) => row.name);
    },
    migrate: async (schema) => (await migrate(db, { migrations: schema })).applied,
    close: async () => void db.close(),
  };
}

/**
 * Migrating creates the database as the app's db.ts does: the PGlite folder 0700,
 * the SQLite file 0600 before SQLite opens it (its -wal and -shm take its mode);
 * one that others could read is tightened. `status` (auth doctor) changes nothing:
 * doctor reports a loose one with its chmod.
 */
function ownerOnly(path: string, kind: "dir" | "file"): void {
  if (kind === "dir") mkdirSync(path, { recursive: true, mode: 0o700 });
  else closeSync(openSync(path, "a", 0o600));
  const paths = kind === "dir" ? [path] : [path, `${path}-wal`, `${path}-shm`];
  for (const each of paths) {
    if (existsSync(each) && (statSync(each).mode & 0o077) !== 0) chmodSync(each, kind === "dir" ? 0o700 : 0o600);
  }
}

async function hostedStore(url: string, branch: string): Promise<Database> {
  const { default: pg } = await driver("pg", () => import("pg"));
  const adapter = await import("@gatehouse/runtime/adapters/hosted-store");
  const { HostedStoreClient, migrate, migrations } = adapter;
  const { fromPg } = await import("@gatehouse/runtime/adapters/postgres/pg");
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: 1 });
  const db = fromPg(pool);
  const store = new HostedStoreClient({ databaseURL: url, branch, client: db });
  try {
    // Refuses a branch that cannot name a schema, before it is quoted below.
    await store.getConfig();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    bundled: migrations,
    ...checkWith(adapter, store),
    async applied() {
      const { rows } = await db.query<{ ledger: string | null }>("SELECT to_regclass(format('%I.svc_migrations', $1::text))::text AS ledger", [branch]);
      if (!rows[0]?.ledger) return [];
      return (await db.query<{ name: string }>(`SELECT name FROM "${branch}".svc_migrations ORDER BY applied_at, name`)).rows.map((row) => row.name);
    },
    migrate: async (schema) => (await migrate(store, { migrations: schema })).applied,
    close: () => pool.end(),
  };
}

/**
 * `check` through the adapter module's `checkSchema`, when the app's runtime has
 * it (older ones do not: the status then comes from the ledger alone).
 */
function checkWith(adapter: object, db: unknown, options: { ledger?: boolean } = {}): Pick<Database, "check"> {
  const checkSchema = (adapter as { checkSchema?: (db: unknown, options: { migrations: readonly Migration[]; ledger?: boolean }) => Promise<Report> }).checkSchema;
  return typeof checkSchema === "function" ? { check: (schema) => checkSchema(db, { ...options, migrations: schema }) } : {};
}

/** The ledger alone: pending and unknown migrations; what is missing it cannot tell. */
async function ledgerReport(db: Database, schema: readonly Migration[]): Promise<Report> {
  const applied = await db.applied();
  const names = schema.map((migration) => migration.name);
  return { pending: names.filter((name) => !applied.includes(name)), unknown: applied.filter((name) => !names.includes(name)), missing: [] };
}

async function main(): Promise<object> {
  const mode: Mode = process.argv[2] === "migrate" ? "migrate" : "status";
  const target = JSON.parse(process.env.GATEHOUSE_DB ?? "null") as Target;
  const own = process.env.GATEHOUSE_SCHEMA === "1" ? ((await import(new URL("./schema.mjs", import.meta.url).href)) as { schema: Migration[] }).schema : undefined;
  const db = await open(target, mode);
  try {
    const schema = own ?? db.bundled;
    if (mode === "migrate") return { ok: true, applied: await db.migrate(schema), pending: [] };
    const report = db.check ? await db.check(schema) : await ledgerReport(db, schema);
    return { ok: true, applied: [], ...report };
  } finally {
    await db.close();
  }
}

main().then(
  (result) => console.log(JSON.stringify(result)),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    console.log(JSON.stringify({ ok: false, error: `${error instanceof Error ? error.message : String(error)}${cause}` }));
  },
);
