/**
 * A Plan as text: for `--dry-run` every file with a unified diff, then the
 * packages, env keys and next steps; after a real run, the summary and next steps.
 * Values in files that hold secrets are hidden.
 */
import { createTwoFilesPatch } from "diff";
import type { Plan } from "../plan/plan.js";
import type { Colors } from "./colors.js";

export function dryRunReport(plan: Plan, c: Colors): string {
  const out: string[] = [];
  if (plan.changes.length === 0) out.push("Nothing to change: the app is already set up.");
  for (const change of plan.changes) {
    const before = change.secret ? hideValues(change.before ?? "") : (change.before ?? "");
    const after = change.secret ? hideValues(change.after) : change.after;
    out.push(c.bold(`${change.before === null ? "create" : "edit"} ${change.path}`));
    const patch = createTwoFilesPatch(`a/${change.path}`, `b/${change.path}`, before, after, "", "", { context: 3 });
    out.push(colorDiff(patch.split("\n").slice(3).join("\n").trimEnd(), c), "");
  }
  out.push(...keptLines(plan, c), ...packageLines(plan), ...envLines(plan));
  return out.join("\n");
}

export function summaryReport(plan: Plan, c: Colors): string {
  const out: string[] = [];
  for (const change of plan.changes) out.push(`${c.green(change.before === null ? "created" : "updated")} ${change.path}`);
  if (plan.changes.length === 0) out.push("Nothing to change: the app is already set up.");
  out.push(...keptLines(plan, c));
  return out.join("\n");
}

export function nextStepsReport(plan: Plan, c: Colors): string {
  return [c.bold("Next steps:"), ...plan.nextSteps.map((step, i) => `  ${i + 1}. ${step}`)].join("\n");
}

function keptLines(plan: Plan, c: Colors): string[] {
  return plan.kept.map((kept) => `${c.yellow("kept")} ${kept.path}: ${kept.reason}`);
}

function packageLines(plan: Plan): string[] {
  const list = (deps: Record<string, string>) => Object.entries(deps).map(([name, spec]) => `${name}@${spec}`).join(", ");
  const lines: string[] = [];
  if (Object.keys(plan.dependencies).length > 0) lines.push(`dependencies: ${list(plan.dependencies)}`);
  if (Object.keys(plan.devDependencies).length > 0) lines.push(`devDependencies: ${list(plan.devDependencies)}`);
  return lines;
}

function envLines(plan: Plan): string[] {
  if (plan.env.length === 0) return [];
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
