/**
 * Once per test run, before any test file: build the runtime and the CLI, since the
 * CLI tests run the real bins (which import dist/) and the CLI packs the runtime's
 * dist/ into the apps it sets up. One build, so no two test files write dist/ at once.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { seedBetterSqlite3Prebuild } from "./better-sqlite3-prebuild.mjs";

/** Where the apps the tests set up share the tarballs packed from this run's build (src/engine/runtime-link.ts). */
let packCache: string | undefined;

export function teardown(): void {
  if (packCache) rmSync(packCache, { recursive: true, force: true });
}

export function setup(): void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  // The SQLite apps' installs unpack this checkout's better-sqlite3 instead of compiling it.
  seedBetterSqlite3Prebuild(root);
  // For a focused run of tests that import only the runtime's sources (never the bins or dist/).
  if (process.env.GATEHOUSE_SKIP_BUILD === "1") return;
  // `npm ci` has just built both (its `prepare`), as in CI: a second build would change nothing.
  if (!builtSinceSourcesChanged(root)) buildAll(root);
  // Every app an e2e test sets up packs the runtime and the CLI of this one build: once each, then copied.
  // Set before the test workers start, so they and the bins they run inherit it.
  packCache = mkdtempSync(join(tmpdir(), "gatehouse-packed-"));
  process.env.GATEHOUSE_PACK_CACHE = packCache;
}

function buildAll(root: string): void {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, encoding: "utf8", timeout: 300_000 });
  if (build.status !== 0) {
    // The compiler's own messages, not a dump of buffers.
    const output = `${build.stdout}${build.stderr}`.split("\n").filter((line) => !line.includes("nodedir")).join("\n");
    throw new Error(`npm run build failed before the tests (exit ${build.status}):\n${output.trim()}`);
  }
}

/** What `npm run build` reads: the sources, its scripts and configs, and the lock file (the embedded browser script's version). */
const BUILD_INPUTS = ["src", "runtime/src", "runtime/scripts", "package.json", "package-lock.json", "tsconfig.base.json", "tsconfig.build.json", "runtime/package.json", "runtime/tsconfig.build.json"];
/** Where tsc writes each compiled source folder's files (`src/a/b.ts` -> `dist/a/b.js`). */
const COMPILED = [
  { src: "src", dist: "dist" },
  { src: "runtime/src", dist: "runtime/dist" },
];

/**
 * Whether the compiled file of every source is newer than every file the build
 * reads (by modification time). Only the files the sources compile to count: a
 * file left in dist/ by a source since removed is never written again.
 */
function builtSinceSourcesChanged(root: string): boolean {
  const outputs = COMPILED.flatMap(({ src, dist }) =>
    filesUnder(join(root, src))
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => join(root, dist, relative(join(root, src), file)).replace(/\.ts$/, ".js")),
  );
  if (outputs.some((file) => !existsSync(file))) return false;
  const oldestOutput = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return BUILD_INPUTS.flatMap((path) => filesUnder(join(root, path))).every((file) => statSync(file).mtimeMs <= oldestOutput);
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
