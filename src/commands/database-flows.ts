/**
 * The flows of `auth migrate` and `auth doctor`: read the app (package.json,
 * .env, its auth config), find its database, ask the database (through the
 * app's own driver), print.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { runDatabaseTask } from "../engine/app-database.js";
import { readAppEnv } from "../engine/app-env.js";
import { readFileModes } from "../engine/file-modes.js";
import { processesUsing } from "../engine/folder-in-use.js";
import { installedVersion, readProject, type ProjectSnapshot } from "../engine/project.js";
import { cliVersion } from "../engine/runtime-link.js";
import { appDatabase, describeTarget, type DatabaseLookup, type DatabaseTarget } from "../generators/app-database.js";
import { detect, DETECT_PATHS, type Detection } from "../generators/detect.js";
import { drizzleCommands, type DrizzleApp } from "../generators/drizzle.js";
import { readDrizzleApp } from "../engine/drizzle-app.js";
import { readPrismaApp } from "../engine/prisma-app.js";
import { prismaMigrateCommand, type PrismaApp } from "../generators/prisma.js";
import { authModelsBlock, prefixedModels } from "../generators/prisma-schema.js";
import { diagnose, type DoctorInput } from "../generators/doctor.js";
import { parseDatabaseUrl, UsageError } from "../generators/init/answers.js";
import { layoutFor, runScript } from "../generators/init/plan.js";
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
  const { detection, lookup, drizzle, prisma } = readApp(dir, url);
  if (!detection.hasPackageJson) command.error(`error: no package.json in ${dir}: run npx @gatehouse/cli migrate in the app's folder (or pass --cwd)`, { exitCode: 2, code: "auth.usage" });
  if (drizzle) {
    // No ledger of ours to bring up to date: drizzle-kit owns these tables, with the app's own.
    const { generate, migrate } = drizzle.commands;
    command.error(`error: this app's auth tables are in its Drizzle schema (${drizzle.app.authSchema}): drizzle-kit creates them, with the app's own tables: run \`${generate}\` then \`${migrate}\`. Nothing was changed.`, { exitCode: 2, code: "auth.usage" });
  }
  if (prisma) {
    // Prisma keeps its own migrations of these models, with the app's.
    command.error(`error: this app's auth tables are models of its Prisma schema (${prisma.app.authSchema}): Prisma creates them, with the app's own tables: run \`${prisma.migrate}\`. Nothing was changed.`, { exitCode: 2, code: "auth.usage" });
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
  const { detection, lookup, env, envFileExists, packageJson, drizzle, prisma } = readApp(dir);
  let databaseStatus: DoctorInput["databaseStatus"];
  if (lookup.found) {
    const inUse = notCreated(dir, lookup.target) ? undefined : openedBy(dir, lookup.target);
    if (notCreated(dir, lookup.target)) databaseStatus = { notCreated: true };
    else if (inUse) databaseStatus = { inUse };
    else databaseStatus = await runDatabaseTask(dir, lookup.target, "status", schemaPath(detection));
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
    ...(drizzle ? { drizzle: drizzleFacts(dir, drizzle) } : {}),
    ...(prisma ? { prisma: prismaFacts(dir, prisma) } : {}),
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
  /** The app's auth tables are in its Drizzle schema: auth-init wrote `auth-db` beside its own db module. */
  drizzle?: { app: DrizzleApp; commands: { generate: string; migrate: string } };
  /** The app's auth tables are models of its Prisma schema: auth-init wrote `auth-db` on its Prisma Client. */
  prisma?: { app: PrismaApp; migrate: string };
}

function readApp(dir: string, databaseUrl?: string): AppFacts {
  const project = readProject(dir, DETECT_PATHS);
  const detection = detect(project);
  const { values, fileExists } = readAppEnv(dir);
  const pkg = project.files["package.json"];
  const dbModule = readOrNull(join(dir, appModule(detection, "src/lib/server/db.ts"))) ?? undefined;
  // auth-db beside the app's own database module: the auth tables are in the app's Drizzle or Prisma schema.
  const ormDb = dbModule === undefined && existsSync(join(dir, appModule(detection, "src/lib/server/auth-db.ts")));
  const drizzle = ormDb ? drizzleOf(dir, project, detection) : undefined;
  const prisma = ormDb && !drizzle ? prismaOf(dir, project, detection) : undefined;
  const lookup: DatabaseLookup = pkg ? appDatabase({ packageJson: pkg, env: values, databaseUrl, dbModule, ...(drizzle ? { drizzle: drizzle.app } : {}) }) : { found: false, reason: "no package.json" };
  return { detection, lookup, env: values, envFileExists: fileExists, packageJson: pkg ?? null, ...(drizzle ? { drizzle } : {}), ...(prisma ? { prisma } : {}) };
}

function prismaOf(dir: string, project: ProjectSnapshot, detection: Detection): AppFacts["prisma"] {
  const lookup = readPrismaApp(dir, project);
  if (!lookup.found || !("app" in lookup)) return undefined;
  return { app: lookup.app, migrate: prismaMigrateCommand(detection.packageManager) };
}

/** The auth models the app's Prisma schema has, against the ones its installed runtime ships. */
function prismaFacts(dir: string, { app, migrate }: NonNullable<AppFacts["prisma"]>): NonNullable<DoctorInput["prisma"]> {
  const runtimeModels = `node_modules/@gatehouse/runtime/orm/prisma/${app.dialect}.prisma`;
  const shipped = readOrNull(join(dir, runtimeModels));
  const text = readOrNull(join(dir, app.authSchema)) ?? "";
  const models = app.folder ? text : authModelsBlock(text);
  // Without an installed runtime there is nothing to compare with: doctor says the runtime is missing.
  // auth-init prefixes the names (AuthUser, ...) in a schema that had them: either form is the runtime's.
  const modelsMatch = shipped === null || [shipped, prefixedModels(shipped)].some((expected) => models?.trim() === expected.trim());
  return { authSchema: app.authSchema, runtimeModels, modelsMatch, migrate };
}

function drizzleOf(dir: string, project: ProjectSnapshot, detection: Detection): AppFacts["drizzle"] {
  const lookup = readDrizzleApp(dir, project);
  if (!lookup.found || !("app" in lookup)) return undefined;
  return { app: lookup.app, commands: drizzleCommands(project, (script) => runScript(detection.packageManager, script)) };
}

/** The Drizzle schema of the auth tables the app has, against the one its installed runtime ships. */
function drizzleFacts(dir: string, { app, commands }: NonNullable<AppFacts["drizzle"]>): NonNullable<DoctorInput["drizzle"]> {
  const runtimeSchema = `node_modules/@gatehouse/runtime/orm/drizzle/${app.dialect}.ts`;
  const shipped = readOrNull(join(dir, runtimeSchema));
  // Without an installed runtime there is nothing to compare with: doctor says the runtime is missing.
  const schemaMatches = shipped === null || readOrNull(join(dir, app.authSchema)) === shipped;
  return { authSchema: app.authSchema, runtimeSchema, schemaMatches, commands };
}

/**
 * The processes that have the app's PGlite folder open (its dev or production
 * server), as one phrase; `undefined` when none (or for other databases: SQLite
 * and servers take concurrent clients).
 */
function openedBy(dir: string, target: DatabaseTarget): string | undefined {
  if (target.kind !== "pglite" || !existsSync(join(dir, target.dir))) return undefined;
  const users = processesUsing(join(dir, target.dir));
  if (users.length === 0) return undefined;
  return users.map((user) => `process ${user.pid}${user.command ? ` (${user.command})` : ""}`).join(" and ");
}

/** An embedded database (PGlite folder, SQLite file) the app has not created yet: nothing to ask, and asking must not create it. */
function notCreated(dir: string, target: DatabaseTarget): boolean {
  if (target.kind === "pglite") return !existsSync(join(dir, target.dir));
  if (target.kind === "sqlite") return !existsSync(resolve(dir, target.file));
  return false;
}

/** The app's schema module, where auth-init writes it for this app. */
function schemaPath(detection: Detection): string | undefined {
  return detection.frameworks[0] ? appModule(detection, "src/lib/server/schema.ts") : undefined;
}

/** A module auth-init writes (as its templates name it), where it wrote it in this app: its source folders and language. */
function appModule(detection: Detection, path: string): string {
  const framework = detection.frameworks[0];
  const layout = framework ? layoutFor(framework.id, { major: framework.major, source: detection.source }) : undefined;
  return layout?.place(path) ?? path;
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

