/**
 * A SvelteKit app made entirely by our CLI: `auth-init --yes <dir>` in an empty
 * folder creates it with `sv create`, sets up auth (this checkout's runtime,
 * packed into the app), installs; then the app is built and started on
 * 127.0.0.1 with `npm start` (which reads the generated .env).
 */
import { authBin, authInitBin } from "../../cli/support/cli.js";
import { freePort, run, type RunningServer, scratchApp, startServer, WITHOUT_TEST_DATABASE } from "./processes.js";
import type { Slots } from "./slots.js";


export interface CliSvelteKitApp {
  dir: string;
  server: RunningServer;
  /** What auth-init printed (and the `auth` commands run after it). */
  initOutput: string;
  /** What `npm run build` printed. */
  buildOutput: string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** The port to serve on (chosen first when something else must know the app's origin, e.g. an OAuth provider). */
  port?: number;
  /** More env for the server process, e.g. a provider's AUTH_<ID>_* keys (the process env wins over .env). */
  env?: Record<string, string>;
  /** `auth` commands to run in the app after auth-init and before the build, e.g. `[["add-provider", "github"]]`. */
  afterInit?: string[][];
  /** Where the build waits its turn, when several apps are made at once (support/slots.ts). */
  buildSlots?: Slots;
}

export async function startCliSvelteKitApp(name: string, initArgs: string[], options: StartOptions = {}): Promise<CliSvelteKitApp> {
  const { work, dir, remove } = scratchApp("cli", name);
  let server: RunningServer | undefined;
  const stop = async () => {
    await server?.stop();
    remove();
  };
  try {
    const started = Date.now();
    let initOutput = await run(process.execPath, [authInitBin, name, "--yes", ...initArgs], { cwd: work, timeoutMs: 600_000 });
    for (const command of options.afterInit ?? []) initOutput += await run(process.execPath, [authBin, ...command], { cwd: dir });
    const initialized = Date.now();
    // A production build, as `npm run build` is in a shell: vitest's NODE_ENV=test would make Vite build a development one.
    let built = initialized;
    const build = () => {
      built = Date.now();
      return run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production" } });
    };
    const buildOutput = await (options.buildSlots ? options.buildSlots(build) : build());
    const port = options.port ?? (await freePort());
    // ORIGIN is adapter-node's public origin (its form-action CSRF check and our AUTH_URL).
    // The database is the one in the app's .env: the test run's own DATABASE_URL (the
    // PostgreSQL server's admin database) would win over it, as the process env does.
    const env = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      ORIGIN: `http://localhost:${port}`,
      ...WITHOUT_TEST_DATABASE,
      ...options.env,
    };
    server = await startServer("npm", ["start"], { cwd: dir, env, port });
    console.log(`[e2e] ${name}: auth-init (sv create + install) ${((initialized - started) / 1000).toFixed(1)} s, build ${((Date.now() - built) / 1000).toFixed(1)} s`);
    return { dir, server, initOutput, buildOutput, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
