/**
 * Reads what the generators need to know about an app: the text of a given list
 * of files (`null` when absent). Generators never touch the disk themselves.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface ProjectSnapshot {
  /** Absolute path of the app. */
  dir: string;
  /** The directory exists. */
  exists: boolean;
  /** It has no entries (or does not exist): a place to create a new app. */
  empty: boolean;
  /** Relative path -> text, `null` when the file is absent. */
  files: Record<string, string | null>;
}

export function readProject(dir: string, paths: readonly string[]): ProjectSnapshot {
  const exists = isDirectory(dir);
  const files: Record<string, string | null> = {};
  for (const path of paths) files[path] = exists ? readOrNull(join(dir, path)) : null;
  // Dotfiles such as .git or .DS_Store do not make a folder an app.
  const empty = !exists || readdirSync(dir).every((name) => name.startsWith("."));
  return { dir, exists, empty, files };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
    throw error;
  }
}
