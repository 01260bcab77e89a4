/**
 * Real SolidStart apps for the end-to-end tests, one per supported major:
 * SolidStart 2 (Vite + Nitro) and SolidStart 1.x (vinxi). SolidStart has no
 * offline scaffolder, so the app is the files of `test/e2e/apps/solid-start`
 * (shared `src/`, per-version `package.json` and config) written into a fresh
 * directory, installed from npm with our runtime from its packed tarball, built,
 * and started on 127.0.0.1 (`node .output/server/index.mjs`). Or, for the CLI's
 * test, a copy of a fixture app (`test/cli/fixtures/solid-start-v*`) that
 * `auth-init --yes` sets up and installs, built and started the same way.
 *
 * SolidStart 2 needs Node >= 22 to build (`fs.globSync`); the build runs with a
 * Node 24 from npm, installed once into a shared directory under the OS temp
 * directory. The built server runs on the Node running the tests.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { authInitBin } from "../../cli/support/cli.js";
import { buildNodeBin } from "./build-node.mjs";
import { freePort, run, startServer, type RunningServer } from "./processes.js";

const FIXTURE = fileURLToPath(new URL("../apps/solid-start/", import.meta.url));
const CLI_FIXTURES = fileURLToPath(new URL("../../cli/fixtures/", import.meta.url));

export type SolidStartVersion = "2" | "1";

// The Node 24 that builds SolidStart 2 lives in build-node.mjs, shared with the HTTP bench.
export { buildNodeBin };

export interface SolidStartApp {
  version: SolidStartVersion;
  dir: string;
  server: RunningServer;
  /** Seconds spent installing and building, for the log. */
  timings: { install: number; build: number };
  stop: () => Promise<void>;
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

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

  const started = Date.now();
  // No engine-strict: @solidjs/start 2 asks for Node >= 24, vinxi's nitropack pulls a package asking for >= 22.
  // --prefer-offline: metadata from npm's cache when it has it (v1's 530 packages: ~70 s -> ~30 s once warm).
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--engine-strict=false"], { cwd: dir, timeoutMs: 400_000 });
  const install = seconds(started);
  return { install, build: await buildSolidStart(dir, version, nodeBin) };
}

/**
 * `npm run build` in a SolidStart app, for production; SolidStart 2 with the Node
 * 24 of `buildNodeBin()` first on PATH. Resolves to the seconds it took.
 */
export async function buildSolidStart(dir: string, version: SolidStartVersion, nodeBin = version === "2" ? buildNodeBin() : undefined): Promise<number> {
  // NODE_ENV: vitest sets "test", which the children would inherit.
  const env: Record<string, string> = { NODE_ENV: "production" };
  if (nodeBin) env.PATH = `${await nodeBin}${delimiter}${process.env.PATH ?? ""}`;
  const started = Date.now();
  await run("npm", ["run", "build"], { cwd: dir, env });
  return seconds(started);
}

/**
 * Starts a built SolidStart app (`node [nodeArgs] .output/server/index.mjs`, on the
 * Node running the tests) on 127.0.0.1 and a free port, in production mode, with
 * AUTH_URL the origin the browser uses (`http://localhost:PORT`).
 */
export async function startBuiltSolidStart(
  dir: string,
  { env = {}, nodeArgs = [], port: chosen }: { env?: Record<string, string>; nodeArgs?: string[]; port?: number } = {},
): Promise<RunningServer> {
  const port = chosen ?? (await freePort());
  const serverEnv = { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), AUTH_URL: `http://localhost:${port}`, ...env };
  return startServer(process.execPath, [...nodeArgs, join(".output", "server", "index.mjs")], { cwd: dir, env: serverEnv, port });
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
    server = await startBuiltSolidStart(dir, { env: { AUTH_SECRET: secret } });
    return { version, dir, server, timings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface CliSolidStartApp {
  version: SolidStartVersion;
  dir: string;
  server: RunningServer;
  /** What auth-init printed. */
  initOutput: string;
  /** Seconds spent in auth-init (packing the runtime, installing) and building, for the log. */
  timings: { init: number; build: number };
  stop: () => Promise<void>;
}

export interface CliSolidStartOptions {
  /** More auth-init flags after `--yes`, e.g. `--providers credentials,keycloak`. */
  initArgs?: string[];
  /** The port to serve on (chosen first when an OAuth provider must know the app's callback URL). */
  port?: number;
  /** More env for the server process, e.g. a provider's AUTH_<ID>_* keys (the process env wins over .env). */
  env?: Record<string, string>;
}

/**
 * A copy of the fixture app of `version` set up by the built `auth-init --yes`
 * (this checkout's runtime packed into vendor/, PGlite, installed with npm),
 * built, and started as its next steps say: `node --env-file=.env
 * .output/server/index.mjs` with AUTH_URL.
 */
export async function startCliSolidStartApp(version: SolidStartVersion, options: CliSolidStartOptions = {}): Promise<CliSolidStartApp> {
  const work = mkdtempSync(join(tmpdir(), `gatehouse-cli-solid-start-v${version}-`));
  const dir = join(work, "app");
  let server: RunningServer | undefined;
  const stop = async () => {
    await server?.stop();
    if (process.env.KEEP_E2E_APPS) console.log(`[e2e] auth-init's SolidStart ${version} app kept in ${dir}`);
    else rmSync(work, { recursive: true, force: true });
  };
  try {
    cpSync(join(CLI_FIXTURES, `solid-start-v${version}`), dir, { recursive: true });
    const nodeBin = version === "2" ? buildNodeBin() : undefined;
    nodeBin?.catch(() => undefined); // awaited by the build; must not count as unhandled if auth-init fails first
    const started = Date.now();
    // auth-init's `npm install` takes npm's options from the environment: metadata from the cache when it has it,
    // and no engine-strict (@solidjs/start 2 asks for Node >= 24, vinxi's nitropack pulls a package asking for >= 22).
    const npm = { npm_config_prefer_offline: "true", npm_config_engine_strict: "false", npm_config_audit: "false", npm_config_fund: "false" };
    const initOutput = await run(process.execPath, [authInitBin, "--yes", ...(options.initArgs ?? [])], { cwd: dir, env: npm, timeoutMs: 400_000 });
    const init = seconds(started);
    // The fixture's document has a <title> of its own: auth-init leaves it, saying to remove it (or the
    // pages' titles never show); done here as the message says.
    if (!initOutput.includes("kept src/entry-server.tsx: it has a <title> of its own")) throw new Error(`auth-init did not say to remove the document's <title>:\n${initOutput}`);
    const document = join(dir, "src/entry-server.tsx");
    writeFileSync(document, readFileSync(document, "utf8").replace(/^[ \t]*<title>.*<\/title>\n/m, ""));
    const build = await buildSolidStart(dir, version, nodeBin);
    server = await startBuiltSolidStart(dir, { nodeArgs: ["--env-file=.env"], port: options.port, env: options.env });
    return { version, dir, server, initOutput, timings: { init, build }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
