/**
 * After a plan is applied: a secret file that others could read was made
 * owner-only (engine/apply.ts); say so, and what may have leaked (stderr).
 */
import { join, relative } from "node:path";
import type { Applied } from "../engine/apply.js";
import { looseEnvWarning, replaceSecretCommand } from "../generators/file-modes.js";
import type { Plan } from "../plan/plan.js";

export function warnTightened(dir: string, plan: Plan, applied: Applied): void {
  for (const { path, mode } of applied.tightened) {
    const change = plan.changes.find((c) => c.path === path);
    if (!change) continue;
    const fromCwd = relative(process.cwd(), join(dir, path));
    console.error(
      looseEnvWarning({ shown: fromCwd, mode, before: change.before ?? "", after: change.after, replaceSecret: replaceSecretCommand(fromCwd) }),
    );
  }
}
