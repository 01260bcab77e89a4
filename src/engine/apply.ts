/**
 * Applies a Plan to the disk: the only writer of `auth init` and
 * `auth add-provider`. Every file is written to a temporary sibling and renamed
 * into place, so a failure midway never leaves a half-written file; a file that
 * changed on disk since the plan was made is not touched (the plan is stale).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FileChange, Plan } from "../plan/plan.js";

export class StalePlanError extends Error {}

export interface Applied {
  created: string[];
  updated: string[];
}

export function applyPlan(dir: string, plan: Plan): Applied {
  // Check every file first: a stale plan writes nothing at all.
  for (const change of plan.changes) assertUnchanged(dir, change);
  const applied: Applied = { created: [], updated: [] };
  for (const change of plan.changes) {
    writeAtomically(join(dir, change.path), change.after, change.secret === true);
    (change.before === null ? applied.created : applied.updated).push(change.path);
  }
  return applied;
}

function assertUnchanged(dir: string, change: FileChange): void {
  const now = readOrNull(join(dir, change.path));
  if (now !== change.before) {
    throw new StalePlanError(`${change.path} changed while auth was planning its edits; run the command again.`);
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * An existing file keeps the mode its owner chose; a new secret file is owner-only.
 * A secret's temporary file is created 0600 (it never exists readable by others,
 * whatever the umask), then every file is set to its mode exactly.
 */
function writeAtomically(path: string, content: string, secret: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  const mode = existingMode(path) ?? (secret ? 0o600 : undefined);
  const temporary = `${path}.auth-${process.pid}-${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, content, { encoding: "utf8", flag: "wx", mode: secret ? 0o600 : 0o666 });
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}
