/**
 * Reads what the generators need to know about an app: the text of a given list
 * of files (`null` when absent), and the package-manager files of its folder and
 * every folder above it (a monorepo keeps its lockfile at the root, not in the
 * app). Generators never touch the disk themselves.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, parse } from "node:path";
import { LOCKS } from "package-manager-detector/constants";

export interface ProjectSnapshot {
  /** Absolute path of the app. */
  dir: string;
  /** The directory exists. */
  exists: boolean;
  /** It has no entries (or does not exist): a place to create a new app. */
  empty: boolean;
  /** Relative path -> text, `null` when the file is absent. */
  files: Record<string, string | null>;
  /**
   * The app's folder, then each folder above it (up to, not including, the
   * filesystem root, as package-manager-detector walks): what says which
   * package manager and workspace the app belongs to. Absent in snapshots
   * built by hand; `detect` then reads the app's own files.
   */
  folders?: FolderFacts[];
}

/** One folder's package-manager facts. */
export interface FolderFacts {
  /** Absolute path. */
  dir: string;
  /** Which of `PACKAGE_MANAGER_FILES` are files in it. */
  markers: string[];
  /** Its package.json text, `null` when absent or unreadable. */
  packageJson: string | null;
  /** Its pnpm-workspace.yaml text (which folders are the workspace's packages), `null` when absent. */
  pnpmWorkspace: string | null;
}

/** Lockfiles (and `pnpm-workspace.yaml`) as package-manager-detector knows them, and Rush's config. */
export const PACKAGE_MANAGER_FILES: readonly string[] = [...Object.keys(LOCKS), "rush.json"];

export function readProject(dir: string, paths: readonly string[]): ProjectSnapshot {
  const exists = isDirectory(dir);
  const files: Record<string, string | null> = {};
  for (const path of paths) files[path] = exists ? readOrNull(join(dir, path)) : null;
  // Dotfiles such as .git or .DS_Store do not make a folder an app.
  const empty = !exists || readdirSync(dir).every((name) => name.startsWith("."));
  return { dir, exists, empty, files, folders: readFolders(dir) };
}

/** The app's folder and those above it. A folder that cannot be read (permissions) says nothing. */
export function readFolders(dir: string): FolderFacts[] {
  const folders: FolderFacts[] = [];
  const { root } = parse(dir);
  for (let current = dir; current && current !== root; current = dirname(current)) {
    const markers = PACKAGE_MANAGER_FILES.filter((name) => isFile(join(current, name)));
    const pnpmWorkspace = markers.includes("pnpm-workspace.yaml") ? readQuietly(join(current, "pnpm-workspace.yaml")) : null;
    folders.push({ dir: current, markers, packageJson: readQuietly(join(current, "package.json")), pnpmWorkspace });
  }
  return folders;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readQuietly(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A file's text; null when there is no such file (other errors are thrown). */
export function readOrNull(path: string): string | null {
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
export function listSourceFiles(dir: string, extensions: readonly string[] = SOURCE_EXTENSIONS): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!NOT_SOURCE.has(entry.name)) walk(path);
      } else if (entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith(".d.ts.map")) {
        found.push(path);
        if (found.length > MAX_SOURCE_FILES) throw new Error(`${dir} holds more than ${MAX_SOURCE_FILES} source files: run the command in the app's own folder`);
      }
    }
  };
  walk("");
  return found.sort();
}

/** The version of a package installed in the app's node_modules, or undefined when it is not installed (or unreadable). */
export function installedVersion(dir: string, name: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
