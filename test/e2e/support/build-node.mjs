/**
 * The Node that builds SolidStart 2 apps (its build needs Node >= 22 for
 * `fs.globSync`, its `engines` asks for >= 24), for the e2e tests
 * (solid-start-app.ts) and the HTTP bench (test/bench/http-ours.mjs). Plain
 * JavaScript so that the bench, run by Node without a TypeScript loader, shares
 * it, and with it the one cached install.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const BUILD_NODE = "node@24.21.0";

const execFileAsync = promisify(execFile);

async function runsNode24(bin) {
  try {
    const { stdout } = await execFileAsync(join(bin, "node"), ["--version"], { cwd: tmpdir(), timeout: 30_000 });
    return stdout.trim().startsWith("v24.");
  } catch {
    return false;
  }
}

/**
 * `bin` directory holding a Node 24 binary, from `npm i node@24` into
 * `$TMPDIR/gatehouse-node24.21.0` (reused by later runs; installed into a
 * scratch directory and renamed, so concurrent runs never see half an install).
 */
export async function buildNodeBin() {
  const home = join(tmpdir(), `gatehouse-${BUILD_NODE.replace("@", "")}`);
  const bin = join(home, "node_modules", ".bin");
  if (await runsNode24(bin)) return bin;
  rmSync(home, { recursive: true, force: true });
  const scratch = mkdtempSync(join(tmpdir(), "gatehouse-node-install-"));
  try {
    await execFileAsync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", scratch, BUILD_NODE], { cwd: scratch, timeout: 300_000 });
  } catch (error) {
    throw new Error(`npm install ${BUILD_NODE} failed:\n${error.stdout ?? ""}${error.stderr ?? error.message}`);
  }
  try {
    renameSync(scratch, home);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another run got there first
  }
  if (!(await runsNode24(bin))) throw new Error(`${BUILD_NODE} from npm does not run (${bin}/node)`);
  return bin;
}
