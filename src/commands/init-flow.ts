/**
 * The `auth-init` flow: read the app, settle every answer (flags, detection,
 * questions or `--yes` defaults), plan, then either print the plan (`--dry-run`)
 * or write it, install and print the next steps. Usage problems exit with 2,
 * anything else that stops the run with 1; nothing is written before the plan is
 * complete, and a failure while writing leaves no half-written file.
 */
import { relative } from "node:path";
import type { Command } from "commander";
import { applyPlan, assertPlanWritable } from "../engine/apply.js";
import { warnTightened } from "./loose-env-warning.js";
import { createApp } from "../engine/create-app.js";
import { installDependencies, InstallError } from "../engine/install.js";
import { readProject, type ProjectSnapshot } from "../engine/project.js";
import { cliVersion, gatehouseSources, packGatehouse } from "../engine/runtime-link.js";
import { packageTemplates } from "../engine/templates.js";
import { detect, DETECT_PATHS, installFolder, type Detection, type Framework } from "../generators/detect.js";
import {
  checkAnswers,
  DEFAULT_ADAPTER,
  DEFAULT_PROVIDERS,
  defaultStrategy,
  parseAdapter,
  parseDatabaseUrl,
  parseFramework,
  parseProviders,
  parseStrategy,
  takesDatabaseUrl,
  UsageError,
  type InitAnswers,
  type InitFlags,
} from "../generators/init/answers.js";
import { initPaths, planInit } from "../generators/init/plan.js";
import { schemaCollisions } from "../generators/drizzle.js";
import { readDrizzleApp, runtimeDrizzleSchema } from "../engine/drizzle-app.js";
import { readPrismaApp, runtimePrismaModels } from "../engine/prisma-app.js";
import { readKyselyApp, runtimeKyselyMigrations } from "../engine/kysely-app.js";
import { kyselyTool, placeKyselyMigrations, type KyselyApp } from "../generators/kysely.js";
import { prismaAuthModels, type PrismaApp } from "../generators/prisma.js";
import type { KyselySetup, PrismaSetup } from "../generators/init/plan.js";
import type { AppOrmAdapter } from "../generators/init/choices.js";
import type { AppOrmOffer } from "../prompts/init.js";
import { generateSecret } from "../generators/secret.js";
import { refuseUnparsable, UnparsableFileError } from "../plan/plan.js";
import { colorsFor } from "../ui/colors.js";
import { dryRunReport, nextStepsReport, nothingToDo, summaryReport } from "../ui/plan-report.js";
import type { InitOptions } from "./init.js";
import { appFolder } from "./app-folder.js";

export async function runInit(dirArgument: string | undefined, options: InitOptions, command: Command): Promise<void> {
  try {
    const dir = appFolder(command, options.cwd, dirArgument ?? ".");
    if (options.from !== undefined) {
      const { moveFromAuthjs } = await import("./from-authjs-flow.js");
      await moveFromAuthjs(dir, options);
    } else {
      await initApp(dir, options);
    }
  } catch (error) {
    if (error instanceof UsageError) command.error(`error: ${error.message}`, { exitCode: 2, code: "auth.usage" });
    if (error instanceof InstallError) {
      console.error(error.output.trimEnd());
      command.error(`error: ${error.message}. The files are written; run the install again when it is fixed.`, { exitCode: 1, code: "auth.install" });
    }
    throw error;
  }
}

async function initApp(dir: string, options: InitOptions): Promise<void> {
  const flags = parseFlags(options);
  const interactive = !options.yes && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const c = colorsFor(process.stdout);
  const shown = relative(process.cwd(), dir) || ".";
  const prompts = interactive ? await import("../prompts/init.js") : undefined;
  prompts?.intro("gatehouse: auth-init");

  let project = readProject(dir, DETECT_PATHS);
  let detection = detect(project);
  if (!interactive && !options.yes) requireFlags(flags, detection, project.empty);

  let framework = flags.framework ?? onlyFramework(detection);
  if (!detection.hasPackageJson) {
    if (!project.empty) throw new UsageError(`${shown} has no package.json: run auth-init in a SvelteKit or SolidStart app's folder, or in an empty folder to create one`);
    framework ??= prompts ? await prompts.askFramework(["sveltekit", "solid-start"]) : "sveltekit";
    const create = options.dryRun ? false : prompts ? await prompts.askCreateApp(shown) : true;
    if (options.dryRun) throw new UsageError(`${shown} has no app yet: --dry-run cannot show a plan for an app it would create; run without --dry-run`);
    if (!create) throw new UsageError("no app to set up: create one, then run auth-init in it");
    await step(prompts, `Creating a ${framework} app in ${shown}`, () => createApp(dir, framework!));
    project = readProject(dir, DETECT_PATHS);
    detection = detect(project);
  }
  framework ??= await chooseFramework(detection, prompts);

  // The app's own ORM, where the auth tables can join it: the default, and offered first.
  const drizzleApp = appOrm("drizzle", readDrizzleApp(dir, project), flags, "drizzle-orm in package.json and a drizzle.config.ts");
  const prismaApp = appOrm("prisma", readPrismaApp(dir, project), flags, "prisma or @prisma/client in package.json and a schema.prisma");
  const kyselyApp = appOrm("kysely", readKyselyApp(dir, project), flags, "kysely in package.json, and a kysely.config.ts of kysely-ctl or a script that runs its Migrator");
  const offer: AppOrmOffer | undefined = drizzleApp
    ? { adapter: "drizzle", hint: `${drizzleApp.driverName}; the auth tables go into ${drizzleApp.authSchema}, created by drizzle-kit` }
    : prismaApp
      ? { adapter: "prisma", hint: `the auth models go into ${prismaApp.authSchema}, created by prisma migrate; the adapter runs on the app's Prisma Client` }
      : kyselyApp
        ? { adapter: "kysely", hint: `${kyselyApp.driverName}; the auth tables as migrations in ${kyselyApp.migrationFolder}/, applied by ${kyselyTool(kyselyApp)}` }
        : undefined;
  const answers = prompts ? await prompts.askInit(flags, framework, offer) : withDefaults(flags, framework, offer?.adapter ?? DEFAULT_ADAPTER);
  checkAnswers(answers);
  const drizzle = answers.adapter === "drizzle" && drizzleApp ? { app: drizzleApp, authSchemaText: runtimeDrizzleSchema(drizzleApp.dialect) } : undefined;
  const prismaChosen = answers.adapter === "prisma" ? prismaApp : undefined;
  const kysely = answers.adapter === "kysely" && kyselyApp ? kyselySetup(kyselyApp) : undefined;

  const sources = gatehouseSources(options.runtime, cliVersion());
  refuseUnknownSource(detection, framework);
  const ormPaths = drizzle
    ? [drizzle.app.authSchema, ...drizzle.app.schemaFiles]
    : prismaChosen
      ? [prismaChosen.authSchema, ...prismaChosen.schemaFiles]
      : kysely
        ? [...kysely.present, ...kysely.missing].map((migration) => migration.path)
        : [];
  project = readProject(dir, [...DETECT_PATHS, ...initPaths(framework, detection.source), ...ormPaths]);
  const drizzleCollisions = drizzle ? schemaCollisions(project, drizzle.app, drizzle.authSchemaText) : [];
  if (drizzleCollisions.length > 0) throw collisionsRefused("drizzle", drizzleCollisions);
  const prisma = prismaChosen ? prismaSetup(project, prismaChosen) : undefined;
  const plan = planInit({
    answers,
    project,
    packageManager: detection.packageManager,
    templates: packageTemplates,
    runtimeSpec: sources.runtime.spec,
    cliSpec: sources.cli.spec,
    secret: generateSecret(),
    frameworkMajor: detection.frameworks.find((f) => f.id === framework)?.major,
    nodeVersion: process.versions.node,
    source: detection.source,
    ...(drizzle ? { drizzle } : {}),
    ...(prisma ? { prisma } : {}),
    ...(kysely ? { kysely } : {}),
  });
  // Before the dry run too: a plan around a file that does not parse is not one to show or apply.
  refuseUnparsable(plan);

  if (options.dryRun) {
    // What a real run does besides writing files: it packs and installs even when no file changes.
    const actions = [
      ...[sources.runtime, sources.cli].flatMap((source) => (source.pack ? [`would pack ${source.pack.from} of this gatehouse checkout into ${source.pack.to}`] : [])),
      ...(options.install ? [`would run \`${detection.packageManager} install\``] : []),
    ];
    console.log(dryRunReport(plan, c, actions));
    if (nothingToDo(plan, actions)) return;
    if (!options.install) console.log("would not install (--no-install)");
    console.log(`\n${nextStepsReport(plan, c)}`);
    return;
  }

  // Before packing into the app: a protected file stops the run with the app as it was.
  assertPlanWritable(dir, plan);
  if (sources.runtime.pack) await step(prompts, "Packing @gatehouse/runtime and @gatehouse/cli from this checkout", () => packGatehouse(dir, sources));
  const applied = applyPlan(dir, plan);
  console.log(summaryReport(plan, c));
  warnTightened(dir, plan, applied);
  if (options.install) await step(prompts, `Installing dependencies with ${detection.packageManager}`, () => installDependencies(installFolder(dir, detection), detection.packageManager));
  console.log(`\n${nextStepsReport(plan, c)}`);
  prompts?.outro("Auth is set up.");
}

function parseFlags(options: InitOptions): InitFlags {
  const flags: InitFlags = {};
  if (options.framework) flags.framework = parseFramework(options.framework);
  if (options.providers !== undefined) flags.providers = parseProviders(options.providers);
  if (options.strategy) flags.strategy = parseStrategy(options.strategy);
  if (options.adapter) flags.adapter = parseAdapter(options.adapter);
  if (options.databaseUrl !== undefined) flags.databaseUrl = parseDatabaseUrl(options.databaseUrl);
  if (options.accountPage !== undefined) flags.accountPage = options.accountPage;
  return flags;
}

/** Not a terminal and no --yes: every question must be answered by a flag, or we stop rather than hang. */
function requireFlags(flags: InitFlags, detection: Detection, empty: boolean): void {
  const missing: string[] = [];
  if (!flags.framework && (detection.frameworks.length !== 1 || empty)) missing.push("--framework");
  if (!flags.providers) missing.push("--providers");
  if (!flags.adapter) missing.push("--adapter");
  if (!flags.strategy) missing.push("--strategy");
  if (flags.adapter && takesDatabaseUrl(flags.adapter) && flags.databaseUrl === undefined) missing.push("--database-url");
  if (missing.length > 0) {
    throw new UsageError(`not running in a terminal, so auth-init cannot ask: pass ${missing.join(", ")} (or --yes to take the defaults)`);
  }
}

/**
 * A SvelteKit config whose `files` cannot be read (computed, or a config that
 * does not parse): writing by guess would put the auth routes where SvelteKit
 * never looks, so nothing is written.
 */
function refuseUnknownSource(detection: Detection, framework: Framework): void {
  const problem = detection.sourceProblem;
  if (!problem || framework !== "sveltekit") return;
  if (problem.syntaxError) throw new UnparsableFileError([{ path: problem.path, language: "TypeScript", ...problem.syntaxError }]);
  throw new Error(`cannot tell where SvelteKit keeps this app's source: ${problem.reason}. Write the locations as plain strings (e.g. files: { routes: 'src/pages' }), then run auth-init again; nothing was changed`);
}

function onlyFramework(detection: Detection): Framework | undefined {
  return detection.frameworks.length === 1 ? detection.frameworks[0]!.id : undefined;
}

async function chooseFramework(detection: Detection, prompts: typeof import("../prompts/init.js") | undefined): Promise<Framework> {
  const found = detection.frameworks.map((f) => f.id);
  if (found.length === 1) return found[0]!;
  if (prompts) return prompts.askFramework(found.length > 1 ? found : ["sveltekit", "solid-start"]);
  if (found.length > 1) throw new UsageError(`package.json lists both ${found.join(" and ")}: pass --framework`);
  throw new UsageError("no SvelteKit (@sveltejs/kit) or SolidStart (@solidjs/start) in package.json: pass --framework if this is one");
}

/**
 * The app's setup of an ORM the auth tables can join, or undefined: with the
 * reason, an error when `--adapter` asked for it, a line when it would have
 * been the default.
 */
function appOrm<App>(adapter: AppOrmAdapter, lookup: { found: false } | { found: true; app: App } | { found: true; problem: string }, flags: InitFlags, needs: string): App | undefined {
  const name = ORM_NAMES[adapter];
  if (lookup.found && "app" in lookup) return lookup.app;
  if (flags.adapter === adapter) throw new UsageError(`--adapter ${adapter}: ${lookup.found ? lookup.problem : `this app has no ${name} setup (${needs})`}`);
  if (!flags.adapter && lookup.found) console.log(`This app uses ${name}, but its auth tables cannot go there: ${lookup.problem}. Choosing another database.`);
  return undefined;
}

const ORM_NAMES: Record<AppOrmAdapter, string> = { drizzle: "Drizzle", prisma: "Prisma", kysely: "Kysely" };

/** Where the runtime's Kysely migrations go in the app's folder, named to run after its own; or the refusal. */
function kyselySetup(app: KyselyApp): KyselySetup {
  const placed = placeKyselyMigrations(app, runtimeKyselyMigrations(app.dialect), new Date());
  if (!placed.ok) throw new UsageError(`--adapter kysely: ${placed.problem}. Nothing was changed`);
  return { app, present: placed.present, missing: placed.missing };
}

/** The runtime's Prisma models as this app's schema takes them (prefixed where it has a `User` already), or the refusal. */
function prismaSetup(project: ProjectSnapshot, app: PrismaApp): PrismaSetup {
  const chosen = prismaAuthModels(project, app, runtimePrismaModels(app.dialect));
  if (!chosen.ok) throw collisionsRefused("prisma", chosen.problems);
  return { app, authModels: chosen.models, prefixed: chosen.prefixed };
}

/** Auth tables that would share a name with the app's own: nothing is written (the ORM would merge, drop or refuse them). */
function collisionsRefused(adapter: AppOrmAdapter, problems: string[]): UsageError {
  return new UsageError(
    `--adapter ${adapter}: the app's ${ORM_NAMES[adapter]} schema already has names the auth tables use: ${problems.join("; ")}. Rename yours, or keep the auth tables apart with --adapter pglite (or sqlite, postgres). Nothing was changed`,
  );
}

function withDefaults(flags: InitFlags, framework: Framework, defaultAdapter: InitAnswers["adapter"]): InitAnswers {
  const adapter = flags.adapter ?? defaultAdapter;
  return {
    framework,
    providers: flags.providers ?? [...DEFAULT_PROVIDERS],
    adapter,
    strategy: flags.strategy ?? defaultStrategy(adapter),
    databaseUrl: flags.databaseUrl ?? "",
    accountPage: flags.accountPage ?? true,
  };
}

/** Runs a slow step behind a spinner in a terminal, or with a plain line otherwise. */
async function step(prompts: typeof import("../prompts/init.js") | undefined, message: string, run: () => Promise<void>): Promise<void> {
  if (!prompts) {
    console.log(`${message}...`);
    return run();
  }
  const spinner = prompts.spinner();
  spinner.start(message);
  try {
    await run();
    spinner.stop(message);
  } catch (error) {
    spinner.error(`${message}: failed`);
    throw error;
  }
}

