/**
 * Pinned runtimes from the npm registry, installed at test time into a cache
 * under the OS temp folder (`gatehouse-runtimes/<name>@<version>`) and reused
 * from there: ~100-190 MB each, which `npm ci` should not give every
 * contributor. A failed install is an error with npm's own words, never a skip.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../e2e/support/processes.js";

const CACHE = join(tmpdir(), "gatehouse-runtimes");
/** Written last: a folder without it is an install that did not finish. */
const DONE = ".installed";

/** The folder `spec` (`name@version`) is installed in, installing it first if it is not there yet. */
export async function installPinned(spec: string): Promise<string> {
  const dir = join(CACHE, spec);
  if (existsSync(join(dir, DONE))) return dir;
  mkdirSync(CACHE, { recursive: true });
  // Installed beside, then renamed into place: a test file running at the same time never sees half an install.
  const staging = mkdtempSync(join(CACHE, `.${spec}-`));
  try {
    writeFileSync(join(staging, "package.json"), '{ "private": true }\n');
    // The packages' install scripts put the native binary in place (bun, deno, workerd, node): they must run.
    await run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts=false", spec], { cwd: staging, timeoutMs: 300_000 }).catch(
      (error: Error) => {
        throw new Error(`Could not install ${spec} from the npm registry for the runtime matrix: ${error.message}`);
      },
    );
    writeFileSync(join(staging, DONE), `${new Date().toISOString()}\n`);
    // Another run may have finished the same install meanwhile: keep that one, in use perhaps.
    if (existsSync(join(dir, DONE))) return dir;
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
