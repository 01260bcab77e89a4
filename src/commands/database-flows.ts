/**
 * The flows of `auth migrate` and `auth doctor`: read the app (package.json,
 * .env, its auth config), find its database, ask the database (through the
 * app's own driver), print.
 *
 * What only some apps need is imported where it is used, so that the command
 * starts in a fraction of a second where it has nothing to ask: the database
 * task (execa) only for a database that exists, the ORM readers (ts-morph) only
 * in an app whose auth tables are its ORM's. Nothing from init's generators
 * (plan.ts), which load ts-morph and handlebars.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { readAppEnv } from "../engine/app-env.js";
import { readFileModes } from "../engine/file-modes.js";
import { processesUsing } from "../engine/folder-in-use.js";
import { installedVersion, readProject, type ProjectSnapshot } from "../engine/project.js";
import { cliVersion } from "../engine/runtime-link.js";
import { appDatabase, describeTarget, type DatabaseLookup, type DatabaseTarget } from "../generators/app-database.js";
import { detect, DETECT_PATHS, type Detection } from "../generators/detect.js";
import type { AppOrm } from "../engine/app-orm.js";
import { diagnose, type DoctorInput } from "../generators/doctor.js";
import { parseDatabaseUrl, UsageError } from "../generators/init/answers.js";
import { placeIn } from "../generators/source-layout.js";
import { colorsFor } from "../ui/colors.js";
import type { DoctorOptions } from "./doctor.js";
import type { MigrateOptions } from "./migrate.js";
import { appFolder } from "./app-folder.js";

const AUTH_CONFIG = "src/auth.ts";

export async function runMigrate(options: MigrateOptions, command: Command): Promise<void> {
  const dir = appFolder(command, options.cwd);
  const c = colorsFor(process.stdout);
  let url: string | undefined;
  try {
    url = options.databaseUrl === undefined ? undefined : parseDatabaseUrl(options.databaseUrl);
  } catch (error) {
    if (error instanceof UsageError) command.error(`error: ${error.message}`, { exitCode: 2, code: "auth.usage" });
    throw error;
  }
  const { detection, lookup, appOrm } = await readApp(dir, url);
  if (!detection.hasPackageJson) command.error(`error: no package.json in ${dir}: run npx @gatehouse/cli migrate in the app's folder (or pass --cwd)`, { exitCode: 2, code: "auth.usage" });
  if (appOrm) {
    // No ledger of ours to bring up to date: the app's ORM owns these tables, with the app's own.
    const { place, facts } = appOrm;
    command.error(`error: this app's auth tables are ${place}: ${facts.tool} creates them, with the app's own tables: run ${facts.run}. Nothing was changed.`, { exitCode: 2, code: "auth.usage" });
  }
  if (!lookup.found) command.error(`error: ${lookup.reason}${lookup.fix ? `: ${lookup.fix}` : ""}`, { exitCode: lookup.fix ? 1 : 2, code: "auth.database" });
  const where = describeTarget(lookup.target);
  if (options.dryRun && notCreated(dir, lookup.target)) {
    console.log(`${where} does not exist yet: auth migrate (or the app's first start) creates it with the whole schema.`);
    return;
  }
  // Even a dry run opens the folder (PGlite writes as it opens and closes): never beside the app.
  const inUse = openedBy(dir, lookup.target);
  if (inUse) command.error(`error: ${where} is in use by ${inUse}: stop the app first; it migrates itself when it starts. Nothing was changed.`, { exitCode: 1, code: "auth.database" });
  const { runDatabaseTask } = await import("../engine/app-database.js");
  const result = await runDatabaseTask(dir, lookup.target, options.dryRun ? "status" : "migrate", schemaPath(detection));
  if (!result.ok) command.error(`error: ${where}: ${result.error}`, { exitCode: 1, code: "auth.database" });
  if (options.dryRun) {
    console.log(result.pending.length ? `${where}: would apply ${result.pending.join(", ")}` : `${where} is up to date.`);
  } else {
    console.log(result.applied.length ? `${where}: applied ${result.applied.map(c.green).join(", ")}` : `${where} is up to date.`);
  }
}

export async function runDoctor(options: DoctorOptions, command: Command): Promise<void> {
  const dir = appFolder(command, options.cwd);
  const c = colorsFor(process.stdout);
  const { detection, lookup, env, envFileExists, packageJson, appOrm } = await readApp(dir);
  let databaseStatus: DoctorInput["databaseStatus"];
  if (lookup.found) {
    const inUse = notCreated(dir, lookup.target) ? undefined : openedBy(dir, lookup.target);
    if (notCreated(dir, lookup.target)) databaseStatus = { notCreated: true };
    else if (inUse) databaseStatus = { inUse };
    else databaseStatus = await (await import("../engine/app-database.js")).runDatabaseTask(dir, lookup.target, "status", schemaPath(detection));
  }
  const authConfigPath = appModule(detection, AUTH_CONFIG);
  const configPath = join(dir, authConfigPath);
  const findings = diagnose({
    detection,
    env,
    envFileExists,
    envText: readOrNull(join(dir, ".env")),
    gitignore: readOrNull(join(dir, ".gitignore")),
    authConfig: existsSync(configPath) ? { path: authConfigPath, text: readFileSync(configPath, "utf8") } : null,
    installedRuntime: installedVersion(dir, "@gatehouse/runtime"),
    packageJson,
    cliVersion: cliVersion(),
    database: lookup,
    ...(databaseStatus ? { databaseStatus } : {}),
    schemaModule: schemaPath(detection) ?? "src/lib/server/schema.ts",
    fileModes: readFileModes(dir, lookup.found ? lookup.target : undefined),
    ...(appOrm ? { appOrm: appOrm.facts } : {}),
  });
  for (const finding of findings) {
    const mark = finding.level === "ok" ? c.green("ok  ") : finding.level === "warning" ? c.yellow("warn") : c.red("fail");
    console.log(`${mark} ${finding.message}${finding.fix ? `\n       fix: ${finding.fix}` : ""}`);
  }
  const problems = findings.filter((f) => f.level === "error").length;
  const warnings = findings.filter((f) => f.level === "warning").length;
  const summary = `${problems} problem${problems === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}.`;
  // The one problem that makes the others moot comes last too, where the eye lands.
  console.log(`\n${summary}${detection.hasPackageJson ? "" : ` No package.json in ${dir}: run doctor in the app's folder, or pass --cwd <app folder>.`}`);
  if (problems > 0) command.error("", { exitCode: 1, code: "auth.doctor" });
}

interface AppFacts {
  detection: Detection;
  lookup: DatabaseLookup;
  env: Record<string, string>;
  envFileExists: boolean;
  packageJson: string | null;
  /** The app's auth tables are its ORM's (Drizzle, Prisma, Kysely): auth-init wrote `auth-db` beside the app's own database module. */
  appOrm?: AppOrm;
}

async function readApp(dir: string, databaseUrl?: string): Promise<AppFacts> {
  const project = readProject(dir, DETECT_PATHS);
  const detection = detect(project);
  const { values, fileExists } = readAppEnv(dir);
  const pkg = project.files["package.json"];
  const dbModule = readOrNull(join(dir, appModule(detection, "src/lib/server/db.ts"))) ?? undefined;
  // auth-db beside the app's own database module (which may be a db.ts of its own, as Kysely apps often have):
  // the auth tables are in the app's Drizzle, Prisma or Kysely setup.
  const ormDb = existsSync(join(dir, appModule(detection, "src/lib/server/auth-db.ts")));
  const appOrm = ormDb ? await readOrmApp(dir, project, detection) : undefined;
  const lookup: DatabaseLookup = pkg ? appDatabase({ packageJson: pkg, env: values, databaseUrl, dbModule, ...(appOrm ? { appOrm: appOrm.database } : {}) }) : { found: false, reason: "no package.json" };
  return { detection, lookup, env: values, envFileExists: fileExists, packageJson: pkg ?? null, ...(appOrm ? { appOrm } : {}) };
}

/** The app's Drizzle, Prisma or Kysely setup: its readers (and init's runScript) load ts-morph, so only for such an app. */
async function readOrmApp(dir: string, project: ProjectSnapshot, detection: Detection): Promise<AppOrm | undefined> {
  const [{ readAppOrm }, { runScript }] = await Promise.all([import("../engine/app-orm.js"), import("../generators/init/plan.js")]);
  return readAppOrm(dir, project, detection.packageManager, (script) => runScript(detection.packageManager, script));
}

/**
 * The processes that have the app's PGlite folder open (its dev or production
 * server), as one phrase; `undefined` when none (or for other databases: SQLite
 * and servers take concurrent clients).
 */
function openedBy(dir: string, target: DatabaseTarget): string | undefined {
  const folder = pgliteFolder(target);
  if (folder === undefined || !existsSync(join(dir, folder))) return undefined;
  const users = processesUsing(join(dir, folder));
  if (users.length === 0) return undefined;
  return users.map((user) => `process ${user.pid}${user.command ? ` (${user.command})` : ""}`).join(" and ");
}

/** An embedded database (PGlite folder, SQLite file) the app has not created yet: nothing to ask, and asking must not create it. */
function notCreated(dir: string, target: DatabaseTarget): boolean {
  const folder = pgliteFolder(target);
  if (folder !== undefined) return !existsSync(resolve(dir, folder));
  if (target.kind === "sqlite") return !existsSync(resolve(dir, target.file));
  if (target.kind === "app-orm" && target.dialect === "sqlite") return !existsSync(resolve(dir, target.url));
  return false;
}

/** The PGlite folder of the target: gatehouse's own, or the one the app's Drizzle or Kysely opens. */
function pgliteFolder(target: DatabaseTarget): string | undefined {
  if (target.kind === "pglite") return target.dir;
  return target.kind === "app-orm" && target.driver === "pglite" ? target.url : undefined;
}

/** The app's schema module, where auth-init writes it for this app. */
function schemaPath(detection: Detection): string | undefined {
  return detection.frameworks[0] ? appModule(detection, "src/lib/server/schema.ts") : undefined;
}

/**
 * A module auth-init writes (as its templates name it), where it wrote it in this app: its source folders and language.
 * Both frameworks' layouts place a template path with `placeIn` (their `place`); `layoutFor` itself would load all of init.
 */
function appModule(detection: Detection, path: string): string {
  return detection.frameworks[0] ? placeIn(detection.source, path) : path;
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

