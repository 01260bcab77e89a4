/**
 * An app that keeps its database with Kysely and migrates it with kysely-ctl
 * (Kysely's CLI): which dialect its `new Kysely(...)` uses, the module that
 * exports it, and kysely-ctl's migrations folder. `auth-init --adapter kysely`
 * then adds the runtime's Kysely migrations to that folder, named to run after
 * the app's own, and runs the adapter on the app's Kysely (`fromKysely`); the
 * app's own `kysely migrate:latest` creates the tables. Pure: it reads a
 * `ProjectSnapshot` and the folder's file names.
 */
import { posix } from "node:path";
import { Node } from "ts-morph";
import { constructedImports, exportedInstances } from "../ast/client-module.js";
import { property, readDefaultConfig, stringValue } from "../ast/default-config.js";
import type { ProjectSnapshot } from "../engine/project.js";
import { listedDependencies, scriptRunning } from "./package-json.js";

export type KyselyDialect = "postgres" | "sqlite";

/** Kysely's own dialects whose driver the runtime's adapters take through `fromKysely`. */
const DIALECTS: Record<string, { dialect: KyselyDialect; driver: string; name: string }> = {
  PostgresDialect: { dialect: "postgres", driver: "pg", name: "node-postgres (pg)" },
  PGliteDialect: { dialect: "postgres", driver: "@electric-sql/pglite", name: "PGlite" },
  SqliteDialect: { dialect: "sqlite", driver: "better-sqlite3", name: "better-sqlite3" },
};

/** Where kysely-ctl looks for its config, in its order of extensions. */
export const KYSELY_CONFIGS = ["ts", "mts", "cts", "js", "mjs", "cjs"].flatMap((extension) => [`.config/kysely.config.${extension}`, `kysely.config.${extension}`]);

/** What names our migration modules in an app's folder: `<prefix>_gatehouse_0001_init.ts`. */
const OURS = /^(.+?)_gatehouse_(\d{4}_[a-z0-9_]+)\.ts$/;

export interface KyselyApp {
  config: string;
  dialect: KyselyDialect;
  /** The Kysely dialect class the db module constructs, the driver package under it, and its name for people. */
  dialectClass: string;
  driver: string;
  driverName: string;
  /** The module that exports the app's Kysely instance (relative, `/`), and the name it is exported under (`default` for a default export). */
  dbModule: string;
  dbExport: string;
  /** The env key the db module reads the database's URL (or file, or folder) from (`env.DATABASE_URL`, `process.env.DATABASE_URL`): what doctor opens. */
  urlEnv?: string;
  /** kysely-ctl's migrations folder (relative to the app, `/`). */
  migrationFolder: string;
  /** The names of the files in it now. */
  migrations: string[];
}

export type KyselyLookup = { found: false } | { found: true; app: KyselyApp } | { found: true; problem: string };

/** The kysely-ctl config the app has, if it lists kysely. */
export function kyselyConfigPath(project: ProjectSnapshot): string | undefined {
  const pkg = project.files["package.json"];
  if (!pkg || !("kysely" in listedDependencies(pkg))) return undefined;
  return KYSELY_CONFIGS.find((path) => typeof project.files[path] === "string");
}

/** Whether package.json lists Kysely. */
export function listsKysely(project: ProjectSnapshot): boolean {
  const pkg = project.files["package.json"];
  return pkg != null && "kysely" in listedDependencies(pkg);
}

/** kysely-ctl's migrations folder from its config (relative to the app), or why gatehouse cannot tell. */
export function kyselyMigrationFolder(config: string, text: string): { folder: string } | { problem: string } {
  const read = readDefaultConfig({ path: config, text });
  if (!read.ok) return { problem: `${config}: ${read.reason}` };
  const base = posix.dirname(config);
  // kysely-ctl's default: `migrations` beside the config, or beside the .config folder.
  const fallback = base === ".config" ? "migrations" : posix.join(base, "migrations");
  const migrations = property(read.config, "migrations");
  if (!migrations) return { folder: fallback };
  if (!Node.isObjectLiteralExpression(migrations)) return { problem: `${config}: its \`migrations\` is not an object gatehouse can read` };
  for (const own of ["migrator", "provider"]) {
    if (migrations.getProperty(own)) return { problem: `${config} sets its own migrations \`${own}\`: gatehouse cannot tell where its migrations are` };
  }
  const folderNode = property(migrations, "migrationFolder");
  if (!folderNode) return { folder: fallback };
  const folder = stringValue(folderNode);
  if (folder === undefined) return { problem: `${config}: its \`migrationFolder\` is not a string gatehouse can read` };
  return { folder: posix.normalize(posix.join(base, folder)).replace(/\/$/, "") };
}

/**
 * `project` holds package.json, the kysely-ctl config and the source files
 * (`sourceFiles` names them): the db module is found by what it constructs.
 * `listFolder` gives the file names of a folder of the app (none when absent).
 */
export function detectKysely(project: ProjectSnapshot, sourceFiles: readonly string[], listFolder: (folder: string) => string[]): KyselyLookup {
  if (!listsKysely(project)) return { found: false };
  const config = kyselyConfigPath(project);
  if (!config) {
    return { found: true, problem: "it has no kysely-ctl config (kysely.config.ts): gatehouse writes the auth tables as Kysely migrations that kysely-ctl, Kysely's CLI, applies" };
  }
  const place = kyselyMigrationFolder(config, project.files[config]!);
  if ("problem" in place) return { found: true, problem: place.problem };

  const modules = sourceFiles.flatMap((path) => {
    const text = project.files[path];
    if (typeof text !== "string" || !text.includes("kysely")) return [];
    const names = exportedInstances({ path, text }, "Kysely", "kysely");
    return names.length > 0 ? [{ path, text, name: ["db", "kysely", "default"].find((name) => names.includes(name)) ?? names[0]! }] : [];
  });
  if (modules.length === 0) return { found: true, problem: "no module of the app exports a Kysely instance (as `export const db = new Kysely<Database>({ dialect })`)" };
  if (modules.length > 1) return { found: true, problem: `more than one module exports a Kysely instance (${modules.map((m) => m.path).join(", ")}): gatehouse cannot tell which one is the app's` };
  const [db] = modules as [{ path: string; text: string; name: string }];
  const dialects = constructedImports(db, "kysely", Object.keys(DIALECTS));
  if (dialects.length !== 1) {
    const known = Object.keys(DIALECTS).join(", ");
    return { found: true, problem: `${db.path} ${dialects.length === 0 ? "constructs none of Kysely's dialects gatehouse's Kysely setup takes" : `constructs more than one Kysely dialect (${dialects.join(", ")})`} (it takes one of ${known}, imported from "kysely")` };
  }
  const dialectClass = dialects[0]!;
  const { dialect, driver, name } = DIALECTS[dialectClass]!;
  const urlEnv = envKeysRead(db.text);
  return {
    found: true,
    app: {
      config,
      dialect,
      dialectClass,
      driver,
      driverName: name,
      dbModule: db.path,
      dbExport: db.name,
      // One key read: that is the database's. None or several: doctor cannot tell which one.
      ...(urlEnv.length === 1 ? { urlEnv: urlEnv[0] } : {}),
      migrationFolder: place.folder,
      migrations: listFolder(place.folder),
    },
  };
}

/** The env keys a module reads: `process.env.KEY`, `env.KEY` (SvelteKit's `$env/dynamic/private`, Vite's `import.meta.env`). */
function envKeysRead(text: string): string[] {
  return [...new Set([...text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)].map((match) => match[1]!))];
}

/** A runtime migration module the app's folder should hold: the step (`0001_init`) and the module's text. */
export interface ShippedMigration {
  name: string;
  text: string;
}

export type KyselyPlacement =
  | {
      ok: true;
      /** Our modules already in the folder (from an earlier run), by path, with the step's shipped text. */
      present: { path: string; step: string; text: string }[];
      /** The steps the folder lacks, with the path each is written to. */
      missing: { path: string; step: string; text: string }[];
    }
  | { ok: false; problem: string };

/**
 * Where each runtime migration goes in the app's folder. Ours already there
 * are found by name; the others are named to sort after every migration the
 * folder has (Kysely's Migrator runs them in name order, and refuses a new one
 * that sorts before one it ran), with a prefix in the shape the app's latest
 * migration uses (kysely-ctl's default: milliseconds since the epoch).
 */
export function placeKyselyMigrations(app: KyselyApp, shipped: readonly ShippedMigration[], now: Date): KyselyPlacement {
  const inFolder = (file: string) => posix.join(app.migrationFolder, file);
  const ours = new Map(app.migrations.flatMap((file) => { const match = OURS.exec(file); return match ? [[match[2]!, file] as const] : []; }));
  const present = shipped.filter((migration) => ours.has(migration.name)).map((migration) => ({ path: inFolder(ours.get(migration.name)!), step: migration.name, text: migration.text }));
  const lacking = shipped.filter((migration) => !ours.has(migration.name));
  if (lacking.length === 0) return { ok: true, present, missing: [] };

  const existing = app.migrations.filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith(".d.ts")).map((file) => file.replace(/\.[cm]?[jt]s$/, "")).sort();
  const latest = existing.at(-1);
  const prefix = prefixAfter(latest, now);
  if ("problem" in prefix) return { ok: false, problem: `${app.migrationFolder}/: ${prefix.problem}` };
  const missing = lacking.map((migration, index) => ({ path: inFolder(`${prefix.next(index)}_gatehouse_${migration.name}.ts`), step: migration.name, text: migration.text }));
  const last = latest && missing.find((migration) => posix.basename(migration.path, ".ts") <= latest);
  if (last) return { ok: false, problem: `${app.migrationFolder}/: the new migration ${posix.basename(last.path)} would sort before ${latest}, and Kysely runs migrations in name order` };
  return { ok: true, present, missing };
}

/** The prefix of our new migrations, in the shape of the app's latest one; `next(i)` for the i-th of them. */
function prefixAfter(latest: string | undefined, now: Date): { next: (index: number) => string } | { problem: string } {
  const millis = String(now.getTime());
  const head = latest?.split("_")[0] ?? "";
  if (latest === undefined || /^\d{13}$/.test(head)) return { next: () => millis };
  if (/^\d{10}$/.test(head)) return { next: () => String(Math.floor(now.getTime() / 1000)) };
  // Knex's and kysely-ctl's getKnexTimestampPrefix: YYYYMMDDHHMMSS, in UTC.
  if (/^\d{14}$/.test(head)) return { next: () => now.toISOString().replace(/\D/g, "").slice(0, 14) };
  // A counter (`001_users`): ours take the next numbers.
  if (/^\d{1,6}$/.test(head)) return { next: (index) => String(Number(head) + 1 + index).padStart(head.length, "0") };
  return { problem: `gatehouse cannot tell how its migrations are named (the latest is ${latest}): it names them by a number before the first \`_\` (a time in milliseconds, as kysely-ctl does, or a counter)` };
}

/**
 * The command that applies the app's migrations: the app's script that runs
 * `kysely migrate:latest` (or `kysely migrate latest`), else kysely-ctl's.
 */
export function kyselyMigrateCommand(project: ProjectSnapshot, run: (script: string) => string): string {
  const script = scriptRunning(project.files["package.json"], /^kysely migrate[: ]latest$/);
  return script ? run(script) : "npx kysely migrate:latest";
}
