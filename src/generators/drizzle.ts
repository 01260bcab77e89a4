/**
 * An app that keeps its database with Drizzle (as `sv add drizzle` sets one
 * up): which dialect and driver, where its schema is, and the module that opens
 * the database. `auth-init --adapter drizzle` then writes the auth tables into
 * that schema and runs the adapter on the app's own connection (`db.$client`),
 * and drizzle-kit creates the tables the app's own way. Pure: it reads a
 * `ProjectSnapshot`.
 */
import { posix } from "node:path";
import { definedTables, exportedNames, readDrizzleConfig, readDrizzleModule, reExports } from "../ast/drizzle-config.js";
import type { ProjectSnapshot } from "../engine/project.js";
import type { OrmDriver } from "./app-database.js";
import { DRIZZLE_CONFIGS } from "./detect.js";
import { listedDependencies, scriptRunning } from "./package-json.js";


export type DrizzleDialect = "postgres" | "sqlite";

/** The Drizzle drivers whose connection (`db.$client`) the runtime's adapters take as is. */
const DRIVERS: Record<OrmDriver, { dialect: DrizzleDialect; name: string }> = {
  "postgres-js": { dialect: "postgres", name: "postgres.js" },
  "node-postgres": { dialect: "postgres", name: "node-postgres (pg)" },
  pglite: { dialect: "postgres", name: "PGlite" },
  "better-sqlite3": { dialect: "sqlite", name: "better-sqlite3" },
};

const isDriver = (name: string): name is OrmDriver => Object.hasOwn(DRIVERS, name);

export interface DrizzleApp {
  config: string;
  dialect: DrizzleDialect;
  /** The Drizzle driver the db module imports (`postgres-js`), and its name for people. */
  driver: OrmDriver;
  driverName: string;
  /** The module that exports `db` (relative, `/`). */
  dbModule: string;
  /** Where the auth tables go: a new module in the schema's folder. */
  authSchema: string;
  /** The app's schema module that must re-export them (`export * from './auth-schema'`); absent when the config's `schema` is a folder or glob that takes every module in it. */
  schemaModule?: string;
  /** The app's schema modules: what the auth tables must not collide with. */
  schemaFiles: string[];
  /** The migrations folder of drizzle-kit (`out`, default `drizzle`). */
  out: string;
}

export type DrizzleLookup =
  /** No Drizzle here (no `drizzle-orm` in package.json, or no config). */
  | { found: false }
  | { found: true; app: DrizzleApp }
  /** Drizzle is here, but not in a way gatehouse can use: why, and what to do. */
  | { found: true; problem: string };

/** The Drizzle config the app has, if it lists drizzle-orm. */
export function drizzleConfigPath(project: ProjectSnapshot): string | undefined {
  const pkg = project.files["package.json"];
  if (!pkg || !("drizzle-orm" in listedDependencies(pkg))) return undefined;
  return DRIZZLE_CONFIGS.find((path) => typeof project.files[path] === "string");
}

/**
 * `project` holds package.json, the config and the app's source files
 * (`sourceFiles` names them): the db module is found by what it imports, not by
 * where it is.
 */
export function detectDrizzle(project: ProjectSnapshot, sourceFiles: readonly string[]): DrizzleLookup {
  const config = drizzleConfigPath(project);
  if (!config) return { found: false };
  const read = readDrizzleConfig({ path: config, text: project.files[config]! });
  if (!read.ok) return { found: true, problem: `${config}: ${read.reason}` };
  const { facts } = read;
  if (facts.dialect !== "postgresql" && facts.dialect !== "sqlite") {
    const which = facts.dialect ? `dialect "${facts.dialect}"` : "a dialect gatehouse cannot read";
    return { found: true, problem: `${config} has ${which}: gatehouse's Drizzle setup takes "postgresql" or "sqlite" (libsql and Turso are not supported yet)` };
  }
  if (facts.driver) return { found: true, problem: `${config} sets driver "${facts.driver}", which gatehouse's Drizzle setup does not support yet` };
  if (!facts.schema?.length) return { found: true, problem: `${config} has no \`schema\` gatehouse can read (a string or an array of strings)` };

  const place = schemaPlace(facts.schema);
  if ("problem" in place) return { found: true, problem: `${config}: ${place.problem}` };

  const modules = sourceFiles.flatMap((path) => {
    const text = project.files[path];
    if (typeof text !== "string" || !text.includes("drizzle-orm/")) return [];
    const facts = readDrizzleModule({ path, text });
    return facts?.exportsDb ? [{ path, driver: facts.driver! }] : [];
  });
  if (modules.length === 0) return { found: true, problem: "no module of the app exports `db` made with a drizzle-orm driver (as `export const db = drizzle(client)`)" };
  if (modules.length > 1) return { found: true, problem: `more than one module exports a Drizzle \`db\` (${modules.map((m) => m.path).join(", ")}): gatehouse cannot tell which one is the app's` };
  const [db] = modules as [{ path: string; driver: string }];
  const dialect = facts.dialect === "postgresql" ? "postgres" : "sqlite";
  if (!isDriver(db.driver) || DRIVERS[db.driver].dialect !== dialect) {
    const known = Object.entries(DRIVERS).filter(([, d]) => d.dialect === dialect).map(([id]) => `drizzle-orm/${id}`).join(", ");
    return { found: true, problem: `${db.path} opens the database with drizzle-orm/${db.driver}, which gatehouse's Drizzle setup does not support yet (it takes ${known})` };
  }

  const out = stripDot(facts.out ?? "drizzle");
  const authSchema = posix.join(place.dir, `auth-schema${extensionOf(place.module ?? db.path)}`);
  return {
    found: true,
    app: {
      config,
      dialect,
      driver: db.driver,
      driverName: DRIVERS[db.driver].name,
      dbModule: db.path,
      authSchema,
      ...(place.module ? { schemaModule: place.module } : {}),
      schemaFiles: place.module ? [place.module] : sourceFiles.filter((path) => path.startsWith(`${place.dir}/`)),
      out,
    },
  };
}


/**
 * Where a new schema module goes: beside the first schema file (which then
 * re-exports it), or into a folder the config takes whole.
 */
function schemaPlace(schema: readonly string[]): { dir: string; module?: string } | { problem: string } {
  for (const entry of schema.map(stripDot)) {
    const glob = entry.search(/[*?{[]/);
    if (glob === -1 && /\.[cm]?[jt]sx?$/.test(entry)) return { dir: posix.dirname(entry), module: entry };
    if (glob === -1) return { dir: entry.replace(/\/$/, "") };
    // `src/db/*.ts`, `src/db/**/*`: a folder whose every module counts.
    const dir = entry.slice(0, glob).replace(/\/$/, "");
    if (/^(?:\*\*\/)?\*(?:\.ts|\.\{ts,js\})?$/.test(entry.slice(glob))) return { dir };
  }
  return { problem: `its \`schema\` (${schema.join(", ")}) names no schema file or folder gatehouse can add the auth tables to` };
}

function stripDot(path: string): string {
  return path.replace(/^\.\//, "");
}

function extensionOf(path: string): string {
  return /\.js$|\.mjs$/.test(path) ? ".js" : ".ts";
}

/** What in the app's schema would collide with the auth tables: same table names, same export names. */
export function schemaCollisions(project: ProjectSnapshot, app: DrizzleApp, authSchemaText: string): string[] {
  const ours = { path: app.authSchema, text: authSchemaText };
  const tables = new Set(definedTables(ours));
  const names = new Set(exportedNames(ours));
  const problems: string[] = [];
  for (const path of app.schemaFiles) {
    const text = project.files[path];
    if (typeof text !== "string" || path === app.authSchema) continue;
    const entry = { path, text };
    for (const table of definedTables(entry)) if (tables.has(table)) problems.push(`${path} defines a table "${table}"`);
    if (reExports(entry, "./auth-schema")) continue;
    for (const name of exportedNames(entry)) if (names.has(name)) problems.push(`${path} exports \`${name}\``);
  }
  return problems;
}

/**
 * The commands that create the auth tables: drizzle-kit's `generate` (a
 * migration file) and `migrate` (applies it), through the app's scripts when
 * it has them (`sv add drizzle` writes `db:generate` and `db:migrate`).
 * Not `push`: with `strict: true` (sv's config) it asks on a terminal, and
 * migration files are what a production database is changed with.
 */
export function drizzleCommands(project: ProjectSnapshot, run: (script: string) => string): { generate: string; migrate: string } {
  const command = (verb: string) => {
    const script = scriptRunning(project.files["package.json"], new RegExp(`^drizzle-kit ${verb}$`));
    return script ? run(script) : `npx drizzle-kit ${verb}`;
  };
  return { generate: command("generate"), migrate: command("migrate") };
}
