/**
 * Real SolidStart apps for the end-to-end tests, one per supported major:
 * SolidStart 2 (Vite + Nitro) and SolidStart 1.x (vinxi). SolidStart has no
 * offline scaffolder, so the app is the files of `test/e2e/apps/solid-start`
 * (shared `src/`, per-version `package.json` and config) written into a fresh
 * directory, installed from npm with our runtime from its packed tarball, built,
 * and started on 127.0.0.1 (`node .output/server/index.mjs`).
 *
 * SolidStart 2 needs Node >= 22 to build (`fs.globSync`); the build runs with a
 * Node 24 from npm, installed once into a shared directory under the OS temp
 * directory. The built server runs on the Node running the tests.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, run, startServer, type RunningServer } from "./processes.js";

const FIXTURE = fileURLToPath(new URL("../apps/solid-start/", import.meta.url));

export type SolidStartVersion = "2" | "1";

/** The Node that builds SolidStart 2 (its `engines` asks for >= 24). */
const BUILD_NODE = "node@24.21.0";

export interface SolidStartApp {
  version: SolidStartVersion;
  dir: string;
  server: RunningServer;
  /** Seconds spent installing and building, for the log. */
  timings: { install: number; build: number };
  stop: () => Promise<void>;
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/**
 * `bin` directory holding a Node 24 binary, from `npm i node@24` into
 * `$TMPDIR/gatehouse-node24.21.0` (reused by later runs; installed into a
 * scratch directory and renamed, so concurrent runs never see half an install).
 */
export async function buildNodeBin(): Promise<string> {
  const home = join(tmpdir(), `gatehouse-${BUILD_NODE.replace("@", "")}`);
  const bin = join(home, "node_modules", ".bin");
  const works = async (dir: string) => {
    try {
      return (await run(join(dir, "node"), ["--version"], { cwd: tmpdir(), timeoutMs: 30_000 })).trim().startsWith("v24.");
    } catch {
      return false;
    }
  };
  if (await works(bin)) return bin;
  rmSync(home, { recursive: true, force: true });
  const scratch = mkdtempSync(join(tmpdir(), "gatehouse-node-install-"));
  await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", scratch, BUILD_NODE], { cwd: scratch });
  try {
    renameSync(scratch, home);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another run got there first
  }
  if (!(await works(bin))) throw new Error(`${BUILD_NODE} from npm does not run (${bin}/node)`);
  return bin;
}

/** Writes the app into `dir`, installs it with the runtime tarball, and builds it. */
async function buildApp(version: SolidStartVersion, dir: string, tarball: string): Promise<SolidStartApp["timings"]> {
  const own = join(FIXTURE, `v${version}`);
  cpSync(join(FIXTURE, "src"), join(dir, "src"), { recursive: true });
  cpSync(own, dir, { recursive: true, filter: (path) => !path.endsWith("package.json") });
  const pkg = JSON.parse(readFileSync(join(own, "package.json"), "utf8"));
  pkg.dependencies["@gatehouse/runtime"] = `file:${tarball}`;
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);

  // SolidStart 2's build Node installs (first run only) while npm installs the app.
  const nodeBin = version === "2" ? buildNodeBin() : undefined;
  nodeBin?.catch(() => undefined); // awaited below; must not count as unhandled if the app install fails first

  let started = Date.now();
  // No engine-strict: @solidjs/start 2 asks for Node >= 24, vinxi's nitropack pulls a package asking for >= 22.
  // --prefer-offline: metadata from npm's cache when it has it (v1's 530 packages: ~70 s -> ~30 s once warm).
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--engine-strict=false"], { cwd: dir, timeoutMs: 400_000 });
  const install = seconds(started);

  // NODE_ENV: vitest sets "test", which the children would inherit.
  const env: Record<string, string> = { NODE_ENV: "production" };
  if (nodeBin) env.PATH = `${await nodeBin}${delimiter}${process.env.PATH ?? ""}`;
  started = Date.now();
  await run("npm", ["run", "build"], { cwd: dir, env });
  return { install, build: seconds(started) };
}

/** Builds and starts the app of `version` in a fresh temp directory; `stop` removes it unless KEEP_E2E_APPS is set. */
export async function startSolidStartApp(version: SolidStartVersion, tarball: string, secret: string): Promise<SolidStartApp> {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-solid-start-v${version}-`));
  let server: RunningServer | undefined;
  const stop = async () => {
    await server?.stop();
    if (process.env.KEEP_E2E_APPS) console.log(`[e2e] SolidStart ${version} app kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    const timings = await buildApp(version, dir, tarball);
    const port = await freePort();
    // AUTH_URL is the origin the browser uses; the server itself listens on 127.0.0.1 only.
    const env = { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), AUTH_SECRET: secret, AUTH_URL: `http://localhost:${port}` };
    server = await startServer(process.execPath, [join(".output", "server", "index.mjs")], { cwd: dir, env, port });
    return { version, dir, server, timings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
