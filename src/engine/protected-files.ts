/**
 * Files the user protected, checked before anything is written: a file whose
 * mode has no owner write (0444) is its owner's statement that it must not
 * change, and a folder's the same for what is in it. Root may write them anyway
 * (permission bits stop nobody there), so the bits are read, not only tried.
 * What the system refuses (an immutable file, another user's file, a read-only
 * mount) is probed without changing anything, and the same errors from the write
 * itself become the same one line. Every writer (apply.ts, env-file.ts) uses this.
 */
import { accessSync, closeSync, constants, openSync } from "node:fs";
import { dirname, isAbsolute, relative } from "node:path";
import { octal, shellWord } from "../generators/file-modes.js";
import { modeOf } from "./file-modes.js";

const NOTHING_CHANGED = "then run the command again; nothing was changed";

/** A file or folder we may not write: the message is one line, with what fixes it. */
export class ProtectedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtectedFileError";
  }
}

export interface WriteTarget {
  /** Absolute path of the file to write. */
  path: string;
  /**
   * The file is replaced through its folder (a temporary sibling renamed over it):
   * the folder must take writes even when the file exists. Without it, an existing
   * file is written in place and only a new one needs its folder.
   */
  throughFolder: boolean;
}

/** Throws `ProtectedFileError` for the first target we may not write; changes nothing. */
export function assertWritable(targets: readonly WriteTarget[]): void {
  for (const { path, throughFolder } of targets) {
    const mode = modeOf(path);
    if (mode !== undefined) {
      if ((mode & 0o200) === 0) throw readOnly(path, mode);
      probeFile(path);
    }
    if (mode === undefined || throughFolder) checkFolder(path);
  }
}

/**
 * The error to throw for one the system refused while writing `path` (EACCES,
 * EPERM, EROFS), the same line the checks give; anything else is returned as it is.
 */
export function refusedWrite(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EACCES" || code === "EPERM" || code === "EROFS" ? refused(path, code) : error;
}

/** `path` as the user would type it where they ran the command: relative when inside, else absolute. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  if (rel === "") return ".";
  return !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** Opening for writing changes nothing, and is refused exactly when a write would be (immutable, not ours, read-only mount). */
function probeFile(path: string): void {
  try {
    closeSync(openSync(path, "r+"));
  } catch (error) {
    throw refusedWrite(error, path);
  }
}

/** The folder the file goes in, or the nearest one that exists (the others would be created in it). */
function checkFolder(path: string): void {
  let folder = dirname(path);
  let mode = modeOf(folder);
  while (mode === undefined && dirname(folder) !== folder) {
    folder = dirname(folder);
    mode = modeOf(folder);
  }
  if (mode === undefined) return;
  if ((mode & 0o200) === 0) throw readOnly(folder, mode, path);
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw refusedWrite(error, folder);
  }
}

function readOnly(path: string, mode: number, inside?: string): ProtectedFileError {
  const shown = shownPath(path);
  const what = inside === undefined ? "" : `, so ${shownPath(inside)} cannot be written in it`;
  return new ProtectedFileError(`${shown} is read-only (mode ${octal(mode)})${what}: make it writable with \`chmod u+w ${shellWord(shown)}\`, ${NOTHING_CHANGED}`);
}

function refused(path: string, code: "EACCES" | "EPERM" | "EROFS"): ProtectedFileError {
  const shown = shownPath(path);
  const word = shellWord(shown);
  if (code === "EROFS") return new ProtectedFileError(`${shown} is on a read-only file system: remount it writable, or run in a copy of the app; nothing was changed`);
  if (code === "EACCES") {
    return new ProtectedFileError(`${shown} is not writable by this user (permission denied): \`ls -ld ${word}\` shows its owner and mode; give this user write access, ${NOTHING_CHANGED}`);
  }
  // EPERM: the system refuses even its owner (and root): on Linux an immutable or append-only file.
  const hint =
    process.platform === "linux"
      ? `if \`lsattr -d ${word}\` shows an i or an a, it is immutable or append-only: \`sudo chattr -i -a ${word}\` clears that`
      : process.platform === "darwin"
        ? `if \`ls -lO ${word}\` shows uchg or schg, it is locked: \`chflags nouchg ${word}\` unlocks it`
        : "check who may change it";
  return new ProtectedFileError(`${shown} cannot be changed (operation not permitted): ${hint}, ${NOTHING_CHANGED}`);
}
