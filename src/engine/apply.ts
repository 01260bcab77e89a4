/**
 * Applies a Plan to the disk: the only writer of `auth init` and
 * `auth add-provider`. Every file is written to a temporary sibling first and
 * all of them are renamed into place after, so a failure midway never leaves a
 * half-written file and a refusal while writing leaves no file changed. Nothing
 * is written when a file changed on disk since the plan was made (the plan is
 * stale), when the plan holds a file that does not parse, or when a file or
 * folder it writes is protected (read-only mode, immutable, not ours).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isLoose, OWNER_FILE } from "../generators/file-modes.js";
import { refuseUnparsable, type FileChange, type Plan } from "../plan/plan.js";
import { modeOf } from "./file-modes.js";
import { assertWritable, refusedWrite } from "./protected-files.js";

export class StalePlanError extends Error {}

export interface Applied {
  created: string[];
  updated: string[];
  /** Secret files that others could read, now owner-only (0600), with the mode they had: the caller warns. */
  tightened: { path: string; mode: number }[];
}

/**
 * Throws `ProtectedFileError` (one line, with the fix) when a file the plan
 * writes, or the folder it goes in, may not be written; writes nothing. Run it
 * before other work that touches the app (packing the runtime into it).
 */
export function assertPlanWritable(dir: string, plan: Plan): void {
  // Renamed into place: the folder takes the write even when the file exists.
  assertWritable(plan.changes.map((change) => ({ path: join(dir, change.path), throughFolder: true })));
}

export function applyPlan(dir: string, plan: Plan): Applied {
  refuseUnparsable(plan);
  // Check every file first: a stale plan, or one that would write a protected file, writes nothing at all.
  for (const change of plan.changes) assertUnchanged(dir, change);
  assertPlanWritable(dir, plan);

  const staged: Staged[] = [];
  const createdFolders: string[] = [];
  try {
    for (const change of plan.changes) staged.push(stage(join(dir, change.path), change, createdFolders));
  } catch (error) {
    for (const { temporary } of staged) rmSync(temporary, { force: true });
    // Deepest first: a folder made for a file leaves with it.
    for (const folder of createdFolders.reverse()) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const applied: Applied = { created: [], updated: [], tightened: [] };
  staged.forEach(({ temporary, path, loose }, index) => {
    const change = plan.changes[index]!;
    try {
      renameSync(temporary, path);
    } catch (error) {
      for (const rest of staged.slice(index)) rmSync(rest.temporary, { force: true });
      throw refusedWrite(error, path);
    }
    (change.before === null ? applied.created : applied.updated).push(change.path);
    if (loose !== undefined) applied.tightened.push({ path: change.path, mode: loose });
  });
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

interface Staged {
  temporary: string;
  path: string;
  /** The mode a loose secret file had (it becomes 0600). */
  loose?: number;
}

/**
 * Writes the new text next to `path`, with the mode the file ends up with. An
 * existing file keeps the mode its owner chose; a new secret file is owner-only.
 * A secret's temporary file is created 0600 (it never exists readable by others,
 * whatever the umask), then every file is set to its mode exactly.
 *
 * A secret file that others can read is not kept so: writing more secrets into
 * it would hand them over too. It becomes 0600 (the owner keeps it; the group
 * and others lose it), and its old mode is returned so the caller can say that
 * what it held may have been read. Tightening is the safe default: a deployment
 * that needs a group to read the file can loosen it again, knowingly.
 */
function stage(path: string, change: FileChange, createdFolders: string[]): Staged {
  const secret = change.secret === true;
  const folder = dirname(path);
  try {
    const made = mkdirSync(folder, { recursive: true });
    if (made !== undefined) createdFolders.push(made);
  } catch (error) {
    throw refusedWrite(error, folder);
  }
  const existing = modeOf(path);
  const loose = secret && existing !== undefined && hasPosixModes() && isLoose(existing) ? existing : undefined;
  const mode = loose !== undefined ? OWNER_FILE : (existing ?? (secret ? OWNER_FILE : undefined));
  const temporary = `${path}.auth-${process.pid}-${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, change.after, { encoding: "utf8", flag: "wx", mode: secret ? OWNER_FILE : 0o666 });
    if (mode !== undefined) chmodSync(temporary, mode);
  } catch (error) {
    rmSync(temporary, { force: true });
    // Creating a file is the folder's write.
    throw refusedWrite(error, folder);
  }
  return { temporary, path, ...(loose !== undefined ? { loose } : {}) };
}

/** Windows reports every writable file as 0666: there the mode says nothing about who can read it (ACLs do). */
function hasPosixModes(): boolean {
  return process.platform !== "win32";
}
