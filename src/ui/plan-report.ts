/**
 * A Plan as text: for `--dry-run` every file with a unified diff, then the
 * packages, env keys and next steps; after a real run, the summary and next steps.
 * Values in files that hold secrets are hidden.
 */
import { createTwoFilesPatch } from "diff";
import { listedDependencies } from "../generators/package-json.js";
import type { Plan } from "../plan/plan.js";
import type { Colors } from "./colors.js";

/**
 * `actions`: what a real run would also do besides writing the plan (pack,
 * install), one line each. "Nothing to change" is said only when there is
 * nothing at all: no file, no package to add, no action.
 */
export function dryRunReport(plan: Plan, c: Colors, actions: readonly string[] = []): string {
  const out: string[] = [];
  const packages = packageLines(plan);
  if (nothingToDo(plan, actions)) return [NOTHING_TO_CHANGE, ...keptLines(plan, c)].join("\n");
  if (plan.changes.length === 0) out.push("No file to change.");
  for (const change of plan.changes) {
    const before = change.secret ? hideValues(change.before ?? "") : (change.before ?? "");
    const after = change.secret ? hideValues(change.after) : change.after;
    out.push(c.bold(`${change.before === null ? "create" : "edit"} ${change.path}`));
    const patch = createTwoFilesPatch(`a/${change.path}`, `b/${change.path}`, before, after, "", "", { context: 3 });
    out.push(colorDiff(patch.split("\n").slice(3).join("\n").trimEnd(), c), "");
  }
  out.push(...keptLines(plan, c), ...packages, ...envLines(plan), ...actions);
  return out.join("\n");
}

const NOTHING_TO_CHANGE = "Nothing to change: the app is already set up.";

/** No file to write, no package to add and no other action: a dry run has nothing to list (nor next steps to give). */
export function nothingToDo(plan: Plan, actions: readonly string[] = []): boolean {
  return plan.changes.length === 0 && packageLines(plan).length === 0 && actions.length === 0;
}

export function summaryReport(plan: Plan, c: Colors): string {
  const out: string[] = [];
  for (const change of plan.changes) out.push(`${c.green(change.before === null ? "created" : "updated")} ${change.path}`);
  if (plan.changes.length === 0) out.push(NOTHING_TO_CHANGE);
  out.push(...keptLines(plan, c));
  return out.join("\n");
}

export function nextStepsReport(plan: Plan, c: Colors): string {
  return [c.bold("Next steps:"), ...plan.nextSteps.map((step, i) => `  ${i + 1}. ${step}`)].join("\n");
}

/** `kept <path>: <reason>`, the path said once (a reason that starts with it loses it). */
function keptLines(plan: Plan, c: Colors): string[] {
  return plan.kept.map((kept) => {
    const reason = kept.reason.startsWith(`${kept.path} `) ? kept.reason.slice(kept.path.length + 1) : kept.reason;
    return `${c.yellow("kept")} ${kept.path}: ${reason}`;
  });
}

/**
 * The packages the plan adds to package.json: the plan names every package the
 * app needs, and those package.json lists already (any version: the app's
 * choice stays) are not additions.
 */
function packageLines(plan: Plan): string[] {
  const manifest = plan.changes.find((change) => change.path === "package.json");
  const listed = manifest?.before ? listedDependencies(manifest.before) : {};
  const added = (deps: Record<string, string>) => (manifest ? Object.entries(deps).filter(([name]) => !(name in listed)) : []);
  const list = (deps: [string, string][]) => deps.map(([name, spec]) => `${name}@${spec}`).join(", ");
  const lines: string[] = [];
  const dependencies = added(plan.dependencies);
  const devDependencies = added(plan.devDependencies);
  if (dependencies.length > 0) lines.push(`dependencies: ${list(dependencies)}`);
  if (devDependencies.length > 0) lines.push(`devDependencies: ${list(devDependencies)}`);
  return lines;
}

/** The env keys, when the plan writes the env file (otherwise it already holds them). */
function envLines(plan: Plan): string[] {
  if (plan.env.length === 0 || !plan.changes.some((change) => change.path === ".env")) return [];
  return [`env keys: ${plan.env.map((e) => `${e.key}${e.filled ? "" : " (empty: to fill in)"}`).join(", ")}`];
}

/** `KEY=value` lines become `KEY=<hidden>`: a dry run must not print secrets into a CI log. */
function hideValues(text: string): string {
  return text.replace(/^(\s*(?:export\s+)?[A-Za-z_][\w.-]*\s*=)\s*(?=\S)(.*)$/gm, "$1<hidden>");
}

function colorDiff(patch: string, c: Colors): string {
  return patch
    .split("\n")
    .map((line) => (line.startsWith("+") ? c.green(line) : line.startsWith("-") ? c.red(line) : line.startsWith("@@") ? c.cyan(line) : line))
    .join("\n");
}
