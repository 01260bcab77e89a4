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

/** Folders that hold no source of the app's own: dependencies, build output, databases, VCS. */
const NOT_SOURCE = new Set(["node_modules", ".git", ".svelte-kit", "build", "dist", ".output", ".vinxi", ".nitro", ".vercel", ".netlify", "vendor", ".pglite", ".data", "coverage"]);
export const SOURCE_EXTENSIONS = [".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx", ".svelte"];
/** More source files than an app has: a folder like that is a home directory or a monorepo root, not an app. */
const MAX_SOURCE_FILES = 5000;

/** Every source file of the app (relative paths with `/`), outside dependencies and build output. */
export function listSourceFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!NOT_SOURCE.has(entry.name)) walk(path);
      } else if (entry.isFile() && SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith(".d.ts.map")) {
        found.push(path);
        if (found.length > MAX_SOURCE_FILES) throw new Error(`${dir} holds more than ${MAX_SOURCE_FILES} source files: run the command in the app's own folder`);
      }
    }
  };
  walk("");
  return found.sort();
}
