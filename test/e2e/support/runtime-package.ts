/**
 * The runtime as users install it: built from this checkout and packed with
 * `npm pack`, so a real app gets a real copy in its node_modules (a symlink would
 * make its framework imports resolve from this repository instead of the app).
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./processes.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Builds and packs `@gatehouse/runtime`; returns the tarball's path. */
export async function packRuntime(): Promise<string> {
  const destination = mkdtempSync(join(tmpdir(), "gatehouse-pack-"));
  await run(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "runtime/tsconfig.build.json"], { cwd: REPO_ROOT });
  await run("npm", ["pack", "--workspace", "runtime", "--pack-destination", destination], { cwd: REPO_ROOT });
  const tarball = readdirSync(destination).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball to ${destination}`);
  return join(destination, tarball);
}
