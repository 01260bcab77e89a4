/**
 * What kind of app a project is, from its files: framework (and major version),
 * package manager, TypeScript, and auth files that already exist. Pure: it reads
 * a `ProjectSnapshot`.
 */
import type { ProjectSnapshot } from "../engine/project.js";

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
  typescript: boolean;
  /** Auth files of a previous run or of another library, relative paths. */
  existingAuth: string[];
}

const FRAMEWORK_PACKAGES: Record<string, Framework> = {
  "@sveltejs/kit": "sveltekit",
  "@solidjs/start": "solid-start",
};

const LOCKFILES: [string, PackageManager][] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
];

const AUTH_FILES = [
  "src/auth.ts",
  "src/auth.js",
  "src/hooks.server.ts",
  "src/hooks.server.js",
  "src/routes/api/auth/[...solidauth].ts",
  "src/routes/api/auth/[...solidauth].js",
];

/** Every path `detect` looks at, for `readProject`. */
export const DETECT_PATHS: readonly string[] = ["package.json", "tsconfig.json", ...LOCKFILES.map(([file]) => file), ...AUTH_FILES];

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
  return {
    hasPackageJson: pkg !== undefined,
    frameworks,
    packageManager: packageManager(project, pkg?.packageManager),
    typescript: project.files["tsconfig.json"] != null || deps.typescript !== undefined,
    existingAuth: AUTH_FILES.filter((path) => project.files[path] != null),
  };
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  packageManager?: string;
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

/** The `packageManager` field (Corepack) wins, then the lockfile, then npm. */
function packageManager(project: ProjectSnapshot, field: string | undefined): PackageManager {
  const fromField = /^(npm|pnpm|yarn|bun)@/.exec(field ?? "")?.[1];
  if (fromField) return fromField as PackageManager;
  for (const [file, manager] of LOCKFILES) if (project.files[file] != null) return manager;
  return "npm";
}
