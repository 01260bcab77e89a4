/**
 * A real SvelteKit app for the end-to-end tests: `sv create` (the official
 * scaffolder, adapter-node), our runtime installed from its packed tarball, the
 * files of `test/e2e/apps/sveltekit` copied over it, then built twice — at the
 * root, and under `paths.base = /base` with the config passed as a function.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, run, startServer, type RunningServer } from "./processes.js";
import { packRuntime } from "./runtime-package.js";

const FIXTURE = fileURLToPath(new URL("../apps/sveltekit/", import.meta.url));
/** Pinned: the version field-notes.md proves on Node 20 (it pins kit 2 and TypeScript 6). */
const SV = "sv@0.17.1";
export const BASE = "/base";

export interface SvelteKitApp {
  dir: string;
  /** The app at the root, config object form. */
  root: RunningServer;
  /** The app under `paths.base = /base`, config function form. */
  based: RunningServer;
  stop: () => Promise<void>;
}

export async function startSvelteKitApp(secret: string): Promise<SvelteKitApp> {
  const work = mkdtempSync(join(tmpdir(), "gatehouse-sveltekit-"));
  const dir = join(work, "app");
  const tarball = await packRuntime();
  await run("npx", ["-y", SV, "create", "app", "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", "--install", "npm"], {
    cwd: work,
  });
  await run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: dir });
  cpSync(join(FIXTURE, "src"), join(dir, "src"), { recursive: true });
  cpSync(join(FIXTURE, "vite.config.ts"), join(dir, "vite.config.ts"));
  await run("npm", ["run", "build"], { cwd: dir });
  await run("npm", ["run", "build"], { cwd: dir, env: { E2E_BASE: BASE, E2E_OUT: "build-base", VITE_E2E_CONFIG_FORM: "function" } });

  const servers: RunningServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (process.env.KEEP_E2E_APPS) return console.log(`[e2e] SvelteKit app kept in ${dir}`);
    rmSync(work, { recursive: true, force: true });
    rmSync(dirname(tarball), { recursive: true, force: true });
  };
  try {
    for (const [out, base] of [["build", ""], ["build-base", BASE]] as const) {
      const port = await freePort();
      // ORIGIN is adapter-node's public origin; the integration takes it as AUTH_URL.
      const env = { AUTH_SECRET: secret, HOST: "127.0.0.1", PORT: String(port), ORIGIN: `http://localhost:${port}` };
      servers.push(await startServer(process.execPath, [out], { cwd: dir, env, port, readyPath: `${base}/` }));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { dir, root: servers[0]!, based: servers[1]!, stop };
}
