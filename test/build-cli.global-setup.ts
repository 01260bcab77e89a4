/**
 * Once per test run, before any test file: build the runtime and the CLI, since the
 * CLI tests run the real bins (which import dist/) and the CLI packs the runtime's
 * dist/ into the apps it sets up. One build, so no two test files write dist/ at once.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  const build = spawnSync("npm", ["run", "build"], { cwd: root, encoding: "utf8", timeout: 300_000 });
  if (build.status !== 0) {
    // The compiler's own messages, not a dump of buffers.
    const output = `${build.stdout}${build.stderr}`.split("\n").filter((line) => !line.includes("nodedir")).join("\n");
    throw new Error(`npm run build failed before the tests (exit ${build.status}):\n${output.trim()}`);
  }
  // Every app an e2e test sets up packs the runtime and the CLI of this one build: once each, then copied.
  // Set before the test workers start, so they and the bins they run inherit it.
  packCache = mkdtempSync(join(tmpdir(), "gatehouse-packed-"));
  process.env.GATEHOUSE_PACK_CACHE = packCache;
}
