/**
 * `auth-init --from authjs`: read the Auth.js app, plan the move, show it, then
 * (after a yes on a terminal, or with `--yes`) write it, install and say what is
 * next. Nothing is written before the whole plan stands: a file that does not
 * parse, or a question without a terminal to ask on, stops the run first.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { applyPlan } from "../engine/apply.js";
import { installDependencies } from "../engine/install.js";
import { installedVersion, listSourceFiles, readProject } from "../engine/project.js";
import { cliVersion, gatehouseSources, packGatehouse } from "../engine/runtime-link.js";
import { detect, DETECT_PATHS, installFolder } from "../generators/detect.js";
import { planFromAuthjs } from "../generators/from-authjs/plan.js";
import { refuseUnparsable } from "../plan/plan.js";
import { UsageError } from "../generators/init/answers.js";
import { colorsFor } from "../ui/colors.js";
import { dryRunReport, nextStepsReport, summaryReport } from "../ui/plan-report.js";
import type { InitOptions } from "./init.js";

/** The @auth/core that @auth/sveltekit 1.11 and @auth/solid-start 0.19 run, for an app whose own is not installed. */
const AUTHJS_CORE_FALLBACK = "^0.41.3";

/** The flags that set up a new app: the move keeps the app's own choices instead. */
const SETUP_FLAGS: [keyof InitOptions, string][] = [
  ["framework", "--framework"],
  ["providers", "--providers"],
  ["strategy", "--strategy"],
  ["adapter", "--adapter"],
  ["databaseUrl", "--database-url"],
  ["accountPage", "--no-account-page"],
];

export async function moveFromAuthjs(dir: string, options: InitOptions): Promise<void> {
  const conflicting = SETUP_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  if (conflicting.length > 0) {
    throw new UsageError(`--from authjs keeps the app's providers, adapter and sessions as they are: drop ${conflicting.join(", ")}`);
  }
  const shown = relative(process.cwd(), dir) || ".";
  if (!existsSync(join(dir, "package.json"))) throw new UsageError(`${shown} has no package.json: run auth-init --from authjs in the Auth.js app's folder`);
  const interactive = !options.yes && process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (!options.yes && !options.dryRun && !interactive) {
    throw new UsageError("not running in a terminal, so auth-init cannot ask before it moves the app: pass --yes (or --dry-run to see the changes)");
  }

  const c = colorsFor(process.stdout);
  const detection = detect(readProject(dir, DETECT_PATHS));
  const { packageManager } = detection;
  const sources = gatehouseSources(options.runtime, cliVersion());
  const { plan, moved } = planFromAuthjs({
    project: readProject(dir, ["package.json", ".env", ...listSourceFiles(dir)]),
    runtimeSpec: sources.runtime.spec,
    cliSpec: sources.cli.spec,
    authjsCoreVersion: installedVersion(dir, "@auth/core") ?? AUTHJS_CORE_FALLBACK,
    ...(options.install ? {} : { installCommand: `${packageManager} install` }),
  });
  refuseUnparsable(plan);
  if (plan.changes.length === 0) {
    console.log("Nothing to change: the app already runs on gatehouse.");
    return;
  }

  if (options.dryRun || interactive) {
    console.log(dryRunReport(plan, c));
    console.log(`\n${moved} Auth.js import${moved === 1 ? "" : "s"} move to gatehouse.`);
  }
  if (options.dryRun) {
    for (const source of [sources.runtime, sources.cli]) if (source.pack) console.log(`would pack ${source.pack.from} of this gatehouse checkout into ${source.pack.to}`);
    console.log(options.install ? `would run \`${packageManager} install\`` : "would not install (--no-install)");
    console.log(`\n${nextStepsReport(plan, c)}`);
    return;
  }
  if (interactive && !(await confirmMove())) throw new Error("the app was not moved: nothing was changed");

  if (sources.runtime.pack) {
    console.log("Packing @gatehouse/runtime and @gatehouse/cli from this checkout...");
    await packGatehouse(dir, sources);
  }
  applyPlan(dir, plan);
  console.log(summaryReport(plan, c));
  if (options.install) {
    console.log(`Installing dependencies with ${packageManager}...`);
    // In a workspace, where its package manager installs (yarn 1 misreads file: paths from a member's folder).
    await installDependencies(installFolder(dir, detection), packageManager);
  }
  console.log(`\n${nextStepsReport(plan, c)}`);
}

async function confirmMove(): Promise<boolean> {
  const p = await import("@clack/prompts");
  const answer = await p.confirm({ message: "Move the app to gatehouse with these changes?", initialValue: true });
  return answer === true;
}
