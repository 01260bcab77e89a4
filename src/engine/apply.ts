/**
 * Applies a Plan to the disk: the only writer of `auth init` and
 * `auth add-provider`. Every file is written to a temporary sibling and renamed
 * into place, so a failure midway never leaves a half-written file; a file that
 * changed on disk since the plan was made is not touched (the plan is stale).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isLoose, OWNER_FILE } from "../generators/file-modes.js";
import type { FileChange, Plan } from "../plan/plan.js";

export class StalePlanError extends Error {}

export interface Applied {
  created: string[];
  updated: string[];
  /** Secret files that others could read, now owner-only (0600), with the mode they had: the caller warns. */
  tightened: { path: string; mode: number }[];
}

export function applyPlan(dir: string, plan: Plan): Applied {
  // Check every file first: a stale plan writes nothing at all.
  for (const change of plan.changes) assertUnchanged(dir, change);
  const applied: Applied = { created: [], updated: [], tightened: [] };
  for (const change of plan.changes) {
    const loose = writeAtomically(join(dir, change.path), change.after, change.secret === true);
    (change.before === null ? applied.created : applied.updated).push(change.path);
    if (loose !== undefined) applied.tightened.push({ path: change.path, mode: loose });
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
 *
 * A secret file that others can read is not kept so: writing more secrets into
 * it would hand them over too. It becomes 0600 (the owner keeps it; the group
 * and others lose it), and its old mode is returned so the caller can say that
 * what it held may have been read. Tightening is the safe default: a deployment
 * that needs a group to read the file can loosen it again, knowingly.
 */
function writeAtomically(path: string, content: string, secret: boolean): number | undefined {
  mkdirSync(dirname(path), { recursive: true });
  const existing = existingMode(path);
  const loose = secret && existing !== undefined && hasPosixModes() && isLoose(existing) ? existing : undefined;
  const mode = loose !== undefined ? OWNER_FILE : (existing ?? (secret ? OWNER_FILE : undefined));
  const temporary = `${path}.auth-${process.pid}-${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, content, { encoding: "utf8", flag: "wx", mode: secret ? OWNER_FILE : 0o666 });
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return loose;
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** Windows reports every writable file as 0666: there the mode says nothing about who can read it (ACLs do). */
function hasPosixModes(): boolean {
  return process.platform !== "win32";
}
