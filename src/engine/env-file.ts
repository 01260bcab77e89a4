/**
 * Disk access for env files: the one place `auth secret` reads or writes.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isLoose, OWNER_FILE } from "../generators/file-modes.js";
import { modeOf } from "./file-modes.js";
import { assertWritable, refusedWrite } from "./protected-files.js";

/** The file's text, or `undefined` when it does not exist. */
export function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
}

/**
 * Writes `content` to the env file. A new file is created owner-only (0600)
 * because it holds secrets; an existing file keeps the mode its owner chose,
 * unless others can read it: then it becomes 0600 before the new secret goes
 * in, and the mode it had is returned so the command can warn (what it held
 * before may have been read). A file (or, for a new one, a folder) its owner made
 * read-only, or that the system refuses, is not written: `ProtectedFileError`,
 * before anything changed (its mode included).
 */
export function writeEnvFile(path: string, content: string, existed: boolean): { looseMode?: number } {
  // Written in place: an existing file needs only itself to take writes.
  assertEnvWritable(path);
  const looseMode = existed ? tightenIfLoose(path) : undefined;
  try {
    // `wx` when creating: never clobber a file that appeared after we read "missing". The mode
    // applies only to a file this call creates (one deleted meanwhile too): owner-only.
    writeFileSync(path, content, existed ? { encoding: "utf8", mode: OWNER_FILE } : { encoding: "utf8", mode: OWNER_FILE, flag: "wx" });
  } catch (error) {
    if (isErrno(error, "ENOENT")) throw new Error(`cannot write ${path}: directory ${dirname(path)} does not exist`);
    if (isErrno(error, "EEXIST")) throw new Error(`${path} was created while auth was editing it; run the command again`);
    throw refusedWrite(error, path);
  }
  return looseMode === undefined ? {} : { looseMode };
}

/** Windows reports every writable file as 0666 (ACLs decide who reads it): nothing to tighten there. */
function tightenIfLoose(path: string): number | undefined {
  if (process.platform === "win32") return undefined;
  const mode = modeOf(path);
  if (mode === undefined || !isLoose(mode)) return undefined;
  try {
    chmodSync(path, OWNER_FILE);
  } catch (error) {
    throw refusedWrite(error, path);
  }
  return mode;
}

/** Throws `ProtectedFileError` when the env file (or the folder a new one goes in) may not be written; changes nothing. */
export function assertEnvWritable(path: string): void {
  assertWritable([{ path, throughFolder: false }]);
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
