/**
 * Runs inside an app (copied to `node_modules/.cache/gatehouse/` and started with
 * node there), so it uses the app's own installed runtime and database driver:
 * `status` lists the applied and pending migrations, `migrate` applies the
 * pending ones. Prints one JSON line; never throws past it.
 *
 * Input: argv[2] = "status" | "migrate"; env GATEHOUSE_DB = {"kind":"pglite","dir":...}
 * or {"kind":"postgres","url":...}; env GATEHOUSE_SCHEMA = "1" when ./schema.mjs
 * (the app's schema, transpiled) sits next to this file.
 */
import { migrate, migrations as bundled, type Migration } from "@gatehouse/runtime/adapters/postgres";

type Target = { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
interface Queryable {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
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

async function open(target: Target): Promise<{ db: Queryable; close: () => Promise<void> }> {
  if (target.kind === "pglite") {
    const { PGlite } = await driver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
    const db = new PGlite(target.dir);
    return { db, close: () => db.close() };
  }
  const { default: pg } = await driver("pg", () => import("pg"));
  const pool = new pg.Pool({ connectionString: target.url, connectionTimeoutMillis: 5000, max: 1 });
  return { db: pool, close: () => pool.end() };
}

async function appliedNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ ledger: string | null }>("SELECT to_regclass('gatehouse_migrations')::text AS ledger");
  if (!rows[0]?.ledger) return [];
  return (await db.query<{ name: string }>("SELECT name FROM gatehouse_migrations ORDER BY applied_at, name")).rows.map((row) => row.name);
}

async function main(): Promise<object> {
  const mode = process.argv[2];
  const target = JSON.parse(process.env.GATEHOUSE_DB ?? "null") as Target;
  const schema: readonly Migration[] = process.env.GATEHOUSE_SCHEMA === "1" ? ((await import(new URL("./schema.mjs", import.meta.url).href)) as { schema: Migration[] }).schema : bundled;
  const { db, close } = await open(target);
  try {
    if (mode === "migrate") {
      const { applied } = await migrate(db as Parameters<typeof migrate>[0], { migrations: schema });
      return { ok: true, applied, pending: [] };
    }
    const applied = await appliedNames(db);
    return { ok: true, applied: [], pending: schema.map((m) => m.name).filter((name) => !applied.includes(name)) };
  } finally {
    await close();
  }
}

main().then(
  (result) => console.log(JSON.stringify(result)),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    console.log(JSON.stringify({ ok: false, error: `${error instanceof Error ? error.message : String(error)}${cause}` }));
  },
);
