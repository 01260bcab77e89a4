/**
 * The picture of an app every command reads, from its files: framework (and
 * major version), package manager (and the workspace it belongs to), where its
 * source lives and in which language, its env files, and auth files that
 * already exist. Pure: it reads a `ProjectSnapshot`.
 */
import { LOCKS } from "package-manager-detector/constants";
import { normalizeAgentVersion, resolveAgent } from "package-manager-detector/detect";
import type { FolderFacts, ProjectSnapshot } from "../engine/project.js";
import { DEFAULT_SOURCE, readSourceLayout, SOURCE_LAYOUT_PATHS, type SourceLayout, type SourceLayoutProblem } from "./source-layout.js";

export type Framework = "sveltekit" | "solid-start";
export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

export interface DetectedFramework {
  id: Framework;
  /** Major version from the dependency range, when it says (`^2.0.5` -> 2). */
  major?: number;
}

export interface Detection {
  hasPackageJson: boolean;
  frameworks: DetectedFramework[];
  packageManager: PackageManager;
  /** Where `packageManager` was read, and the monorepo the app is in (`detect` always sets it). */
  workspace?: Workspace;
  /** Where the app keeps its source and in which language; the defaults when `sourceProblem` is set. */
  source: SourceLayout;
  /** The SvelteKit config says where its source is in a way that cannot be read: nothing may be written by guess. */
  sourceProblem?: SourceLayoutProblem;
  /** Which of the env files the commands read and write exist (`.env`, `.env.example`, `.env.local`). */
  envFiles: string[];
  /** Auth files of a previous run or of another library, relative paths. */
  existingAuth: string[];
}

const FRAMEWORK_PACKAGES: Record<string, Framework> = {
  "@sveltejs/kit": "sveltekit",
  "@solidjs/start": "solid-start",
};

export interface Workspace {
  /**
   * The folder whose lockfile or package.json named the package manager (the
   * app's, or one above it), and that file; absent when nothing did and npm is
   * the default.
   */
  packageManagerFrom?: { dir: string; file: string };
  /**
   * The monorepo the app is a package of: the nearest folder above it whose
   * `pnpm-workspace.yaml` or package.json `workspaces` patterns match the app's
   * folder. It keeps the lockfile and node_modules of its packages.
   */
  root?: string;
}

const SUPPORTED: readonly string[] = ["npm", "pnpm", "yarn", "bun"] satisfies PackageManager[];

const AUTH_FILES = [
  "src/auth.ts",
  "src/auth.js",
  "src/hooks.server.ts",
  "src/hooks.server.js",
  "src/routes/api/auth/[...solidauth].ts",
  "src/routes/api/auth/[...solidauth].js",
];

const ENV_FILES = [".env", ".env.example", ".env.local"];

/** Where drizzle-kit looks for its config, in its order: an app with one may keep its auth tables in its Drizzle schema (see drizzle.ts). */
export const DRIZZLE_CONFIGS = ["drizzle.config.ts", "drizzle.config.js", "drizzle.config.mjs", "drizzle.config.mts", "drizzle.config.cjs", "drizzle.config.cts"];

/** Every path `detect` looks at, for `readProject`. */
export const DETECT_PATHS: readonly string[] = [...new Set(["package.json", ...SOURCE_LAYOUT_PATHS, ...ENV_FILES, ...Object.keys(LOCKS), ...AUTH_FILES, ...DRIZZLE_CONFIGS])];

export function detect(project: ProjectSnapshot): Detection {
  const pkg = parsePackageJson(project.files["package.json"]);
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  const frameworks: DetectedFramework[] = [];
  for (const [name, id] of Object.entries(FRAMEWORK_PACKAGES)) {
    const range = deps[name];
    if (range === undefined) continue;
    const major = /^\D*(\d+)/.exec(range)?.[1];
    frameworks.push(major === undefined ? { id } : { id, major: Number(major) });
  }
  const folders = project.folders ?? [ownFolder(project)];
  const found = findPackageManager(folders);
  const root = folders.slice(1).find((folder) => workspacePatterns(folder).some((patterns) => isMember(relativePath(folder.dir, project.dir), patterns)))?.dir;
  return {
    hasPackageJson: pkg !== undefined,
    frameworks,
    // package-manager-detector knows deno and others too; the CLI installs with these four, else npm.
    packageManager: found && SUPPORTED.includes(found.name) ? (found.name as PackageManager) : "npm",
    workspace: { ...(found ? { packageManagerFrom: { dir: found.dir, file: found.file } } : {}), ...(root ? { root } : {}) },
    ...sourceOf(project, frameworks),
    envFiles: ENV_FILES.filter((path) => project.files[path] != null),
    existingAuth: AUTH_FILES.filter((path) => project.files[path] != null),
  };
}

/** SvelteKit's config decides where its source is (when SvelteKit is among the app's frameworks). */
function sourceOf(project: ProjectSnapshot, frameworks: DetectedFramework[]): Pick<Detection, "source" | "sourceProblem"> {
  const read = readSourceLayout(project, frameworks.some((f) => f.id === "sveltekit") ? "sveltekit" : frameworks[0]?.id);
  return "problem" in read ? { source: DEFAULT_SOURCE, sourceProblem: read.problem } : { source: read.layout };
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function parsePackageJson(text: string | null | undefined): PackageJson | undefined {
  if (text == null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as PackageJson) : undefined;
  } catch {
    throw new Error("package.json is not valid JSON; fix it and run auth-init again.");
  }
}

/**
 * package-manager-detector's walk (its `detect`, strategies lockfile then the
 * `packageManager` / `devEngines` fields), over facts the engine read: from the
 * app's folder up, the first folder with a lockfile or such a field decides; in
 * a folder with both, the field wins. Kept pure here so every command reads the
 * same answer from one snapshot; test/cli/detect.test.ts checks it agrees with
 * the library's own `detect` on real folders.
 */
export function findPackageManager(folders: readonly FolderFacts[]): { name: string; dir: string; file: string } | undefined {
  for (const folder of folders) {
    if (folder.markers.includes("rush.json")) return { name: "pnpm", dir: folder.dir, file: "rush.json" };
    const lock = Object.keys(LOCKS).find((file) => folder.markers.includes(file));
    const field = managerField(folder.packageJson);
    if (field) return { name: field, dir: folder.dir, file: "package.json" };
    if (lock) return { name: LOCKS[lock]!, dir: folder.dir, file: lock };
  }
  return undefined;
}

/** The `packageManager` field (Corepack's), else `devEngines.packageManager.name`, when it names a manager the library knows. */
function managerField(text: string | null): string | undefined {
  let pkg: { packageManager?: unknown; devEngines?: { packageManager?: { name?: unknown; version?: unknown } } };
  try {
    pkg = JSON.parse(text ?? "null") ?? {};
  } catch {
    return undefined;
  }
  const [name, version] =
    typeof pkg.packageManager === "string"
      ? pkg.packageManager.replace(/^\^/, "").split("@")
      : typeof pkg.devEngines?.packageManager?.name === "string"
        ? [pkg.devEngines.packageManager.name, typeof pkg.devEngines.packageManager.version === "string" ? pkg.devEngines.packageManager.version : undefined]
        : [];
  if (!name) return undefined;
  return resolveAgent(name as Parameters<typeof resolveAgent>[0], normalizeAgentVersion(version))?.name;
}

/**
 * Where to run the install: at the root of the workspace the app is a package
 * of (yarn 1 resolves a package's `file:` dependencies wrongly when run from
 * the package's folder; pnpm, npm and bun install the whole workspace from
 * either), unless the app's own lockfile or field names its manager.
 */
export function installFolder(dir: string, detection: Detection): string {
  const { root, packageManagerFrom } = detection.workspace ?? {};
  return root && packageManagerFrom?.dir !== dir ? root : dir;
}

/** Each set of workspace patterns the folder declares (pnpm-workspace.yaml's `packages`, package.json's `workspaces`). */
function workspacePatterns(folder: FolderFacts): string[][] {
  const sets: string[][] = [];
  if (folder.pnpmWorkspace != null) sets.push(yamlList(folder.pnpmWorkspace, "packages"));
  try {
    const workspaces = (JSON.parse(folder.packageJson ?? "null") as { workspaces?: unknown } | null)?.workspaces;
    const list = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
    if (Array.isArray(list)) sets.push(list.filter((entry): entry is string => typeof entry === "string"));
  } catch {
    // Not JSON: it declares nothing.
  }
  return sets;
}

/** The items of a top-level YAML block list (`key:` then `- item` lines), enough for pnpm-workspace.yaml. */
function yamlList(text: string, key: string): string[] {
  const items: string[] = [];
  let inside = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\S/.test(line)) inside = line.trimEnd() === `${key}:`;
    else if (inside) {
      const item = /^\s+-\s+(["']?)(.+?)\1\s*(?:#.*)?$/.exec(line);
      if (item) items.push(item[2]!);
    }
  }
  return items;
}

/** `rel` (with `/`) matches a pattern and no `!` pattern; `*` is one path segment's worth, `**` any depth. */
function isMember(rel: string | undefined, patterns: string[]): boolean {
  if (rel === undefined) return false;
  const matches = (pattern: string) => globRegExp(pattern).test(rel);
  return patterns.some((p) => !p.startsWith("!") && matches(p)) && !patterns.some((p) => p.startsWith("!") && matches(p.slice(1)));
}

function globRegExp(pattern: string): RegExp {
  const segments = pattern.replace(/^\.\//, "").replace(/\/+$/, "").split("/");
  const source = segments
    .map((segment) => (segment === "**" ? "(?:[^/]+/)*" : `${segment.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*").replaceAll("?", "[^/]")}/`))
    .join("");
  return new RegExp(`^${source}$`);
}

/** `dir` relative to `root` with `/` and a trailing `/` (for `globRegExp`), or undefined when it is not inside. */
function relativePath(root: string, dir: string): string | undefined {
  const normal = (path: string) => path.replaceAll("\\", "/").replace(/\/+$/, "");
  const [from, to] = [normal(root), normal(dir)];
  return to.startsWith(`${from}/`) ? `${to.slice(from.length + 1)}/` : undefined;
}

/** A snapshot built without folders: the app's own lockfiles and package.json. */
function ownFolder(project: ProjectSnapshot): FolderFacts {
  return { dir: project.dir, markers: Object.keys(LOCKS).filter((file) => project.files[file] != null), packageJson: project.files["package.json"] ?? null, pnpmWorkspace: null };
}
