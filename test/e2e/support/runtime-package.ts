/**
 * The runtime as users install it: compiled from this checkout and packed with
 * `npm pack`, so a real app gets a real copy in its node_modules (a symlink would
 * make its framework imports resolve from this repository instead of the app).
 * It is staged in a temporary folder, never in runtime/dist, so test files that
 * pack or build at the same time cannot see each other's half-written files.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./processes.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const RUNTIME = join(REPO_ROOT, "runtime");

let packed: Promise<string> | undefined;

/** Compiles and packs `@gatehouse/runtime` once per test file; returns the tarball's path. */
export function packRuntime(): Promise<string> {
  return (packed ??= pack());
}

async function pack(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "gatehouse-pack-"));
  const stage = join(work, "package");
  mkdirSync(stage);
  for (const entry of ["package.json", "migrations", "components"]) cpSync(join(RUNTIME, entry), join(stage, entry), { recursive: true });
  await run(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", join(RUNTIME, "tsconfig.build.json"), "--outDir", join(stage, "dist")], {
    cwd: REPO_ROOT,
  });
  await run("npm", ["pack", "--pack-destination", work], { cwd: stage });
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball to ${work}`);
  return join(work, tarball);
}
