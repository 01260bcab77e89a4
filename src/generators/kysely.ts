/**
 * An app that keeps its database with Kysely and migrates it with kysely-ctl
 * (Kysely's CLI), or with Kysely's `Migrator` run by a script of its own:
 * which dialect its `new Kysely(...)` uses, the module that exports it, and
 * the migrations folder. `auth-init --adapter kysely` then adds the runtime's
 * Kysely migrations to that folder, named to run after the app's own, and runs
 * the adapter on the app's Kysely (`fromKysely`); the app's own command
 * (`kysely migrate:latest`, or its script) creates the tables. Pure: it reads
 * a `ProjectSnapshot` and the folder's file names.
 */
import { posix } from "node:path";
import { Node } from "ts-morph";
import { constructedImports, exportedInstances } from "../ast/client-module.js";
import { property, readDefaultConfig, stringValue } from "../ast/default-config.js";
import { migratorFolder } from "../ast/kysely-migrator.js";
import { moduleToJavaScript } from "./javascript.js";
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

/** What names our migration modules in an app's folder: `<prefix>_gatehouse_0001_init.ts` (`.js`, `.mjs` in a JavaScript folder). */
const OURS = /^(.+?)_gatehouse_(\d{4}_[a-z0-9_]+)\.(?:ts|js|mjs)$/;

/** What applies the app's migrations: kysely-ctl (its config), or a script of the app's that runs Kysely's Migrator. */
export type KyselyRunner = { kind: "kysely-ctl"; config: string } | { kind: "script"; module: string; script: string };

export interface KyselyApp {
  runner: KyselyRunner;
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
  /** The migrations folder kysely-ctl or the app's Migrator reads (relative to the app, `/`). */
  migrationFolder: string;
  /** The names of the files in it now. */
  migrations: string[];
  /** The extension our modules take: `.ts`, or the app's own where its folder holds JavaScript migrations only (run by plain node). */
  extension: ".ts" | ".js" | ".mjs";
}

export type KyselyLookup = { found: false } | { found: true; app: KyselyApp } | { found: true; problem: string };

/** The kysely-ctl config the app has, if it lists kysely. */
export function kyselyConfigPath(project: ProjectSnapshot): string | undefined {
  if (!listsKysely(project)) return undefined;
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
  const place = migrationsPlace(project, sourceFiles);
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
  const migrations = listFolder(place.folder);
  return {
    found: true,
    app: {
      runner: place.runner,
      dialect,
      dialectClass,
      driver,
      driverName: name,
      dbModule: db.path,
      dbExport: db.name,
      // One key read: that is the database's. None or several: doctor cannot tell which one.
      ...(urlEnv.length === 1 ? { urlEnv: urlEnv[0] } : {}),
      migrationFolder: place.folder,
      migrations,
      extension: place.runner.kind === "script" ? extensionOf(migrations) : ".ts",
    },
  };
}

/** The migrations folder and what applies it: kysely-ctl's config, else the app's one module that runs a FileMigrationProvider, run by a package.json script. */
function migrationsPlace(project: ProjectSnapshot, sourceFiles: readonly string[]): { folder: string; runner: KyselyRunner } | { problem: string } {
  const config = kyselyConfigPath(project);
  if (config) {
    const place = kyselyMigrationFolder(config, project.files[config]!);
    return "problem" in place ? place : { folder: place.folder, runner: { kind: "kysely-ctl", config } };
  }
  const migrators = sourceFiles.flatMap((path) => {
    const text = project.files[path];
    const found = typeof text === "string" ? migratorFolder({ path, text }) : { found: false as const };
    return found.found ? [{ path, found }] : [];
  });
  if (migrators.length === 0) {
    return {
      problem:
        "it has neither a kysely-ctl config (kysely.config.ts) nor a module that runs Kysely's Migrator with a FileMigrationProvider: gatehouse adds the auth tables as Kysely migrations, and must know where they go and what applies them",
    };
  }
  if (migrators.length > 1) return { problem: `more than one module makes a FileMigrationProvider (${migrators.map((m) => m.path).join(", ")}): gatehouse cannot tell which folder is the app's` };
  const [{ path, found }] = migrators as [(typeof migrators)[number]];
  if ("problem" in found) return { problem: found.problem };
  const bare = path.replace(/\.[cm]?[jt]s$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const script = scriptRunning(project.files["package.json"], new RegExp(`(?:^|\\s)(?:\\./)?${bare}(?:\\.[cm]?[jt]s)?(?:\\s|$)`));
  if (!script) return { problem: `${path} runs Kysely's Migrator, but no package.json script runs it (as "migrate": "tsx ${path}"): gatehouse cannot name the command that applies the migrations` };
  return { folder: found.folder, runner: { kind: "script", module: path, script } };
}

/** `.js` or `.mjs` where the folder's migrations are all of that kind (plain node runs them, and would not load ours as TypeScript), else `.ts`. */
function extensionOf(migrations: readonly string[]): KyselyApp["extension"] {
  const modules = migrations.filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith(".d.ts"));
  for (const extension of [".js", ".mjs"] as const) {
    if (modules.length > 0 && modules.every((file) => file.endsWith(extension))) return extension;
  }
  return ".ts";
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
  const text = (migration: ShippedMigration) => (app.extension === ".ts" ? migration.text : moduleToJavaScript(migration.text));
  const present = shipped.filter((migration) => ours.has(migration.name)).map((migration) => ({ path: inFolder(ours.get(migration.name)!), step: migration.name, text: text(migration) }));
  const lacking = shipped.filter((migration) => !ours.has(migration.name));
  if (lacking.length === 0) return { ok: true, present, missing: [] };

  const existing = app.migrations.filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith(".d.ts")).map((file) => file.replace(/\.[cm]?[jt]s$/, "")).sort();
  const latest = existing.at(-1);
  const prefix = prefixAfter(latest, now);
  if ("problem" in prefix) return { ok: false, problem: `${app.migrationFolder}/: ${prefix.problem}` };
  const missing = lacking.map((migration, index) => ({ path: inFolder(`${prefix.next(index)}_gatehouse_${migration.name}${app.extension}`), step: migration.name, text: text(migration) }));
  const last = latest && missing.find((migration) => posix.basename(migration.path, app.extension) <= latest);
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
 * The command that applies the app's migrations: with kysely-ctl, the app's
 * script that runs `kysely migrate:latest` (or `kysely migrate latest`), else
 * kysely-ctl's own; else the app's script that runs its Migrator.
 */
export function kyselyMigrateCommand(project: ProjectSnapshot, app: KyselyApp, run: (script: string) => string): string {
  if (app.runner.kind === "script") return run(app.runner.script);
  const script = scriptRunning(project.files["package.json"], /^kysely migrate[: ]latest$/);
  return script ? run(script) : "npx kysely migrate:latest";
}

/** What applies the migrations, for people: "kysely-ctl", or "Kysely's Migrator (src/migrate.ts)". */
export function kyselyTool(app: KyselyApp): string {
  return app.runner.kind === "kysely-ctl" ? "kysely-ctl" : `Kysely's Migrator (${app.runner.module})`;
}
