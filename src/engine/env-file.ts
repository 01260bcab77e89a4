/**
 * Disk access for env files: the one place `auth secret` reads or writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

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
 * because it holds secrets; an existing file keeps the mode its owner chose.
 */
export function writeEnvFile(path: string, content: string, existed: boolean): void {
  try {
    // `wx` when creating: never clobber a file that appeared after we read "missing".
    writeFileSync(path, content, existed ? { encoding: "utf8" } : { encoding: "utf8", mode: 0o600, flag: "wx" });
  } catch (error) {
    if (isErrno(error, "ENOENT")) throw new Error(`cannot write ${path}: directory ${dirname(path)} does not exist`);
    if (isErrno(error, "EEXIST")) throw new Error(`${path} was created while auth was editing it; run the command again`);
    throw error;
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
