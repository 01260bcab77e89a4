/**
 * Once per test run, before any test file: build the runtime and the CLI, since the
 * CLI tests run the real bins (which import dist/) and the CLI packs the runtime's
 * dist/ into the apps it sets up. One build, so no two test files write dist/ at once.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export function setup(): void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "pipe", timeout: 300_000 });
}
