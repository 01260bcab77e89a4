/**
 * The runtimes of the matrix, each pinned here and nowhere else: the npm
 * package (exact version) it installs from, and how to start the matrix in it.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RuntimeEvent } from "../scenarios/report.mjs";

const HERE = fileURLToPath(new URL("../", import.meta.url));
const CLI_ENTRY = join(HERE, "cli-entry.mjs");

export type RuntimeId = "node20" | "node22" | "node24" | "bun" | "deno" | "workerd";

export interface Command {
  file: string;
  args: string[];
  env?: Record<string, string>;
}

export interface Runtime {
  /** What the tests call it. */
  label: string;
  /** `name@version` on the npm registry. */
  spec: string;
  /** What the runtime says it is (`runtimeEvent()` in scenarios/report.mjs): proof that the pinned one ran. */
  reports: RuntimeEvent;
  /** The command that runs the matrix, given where the package was installed (`undefined`: not installed, see `needsInstall`). */
  command(installDir: string | undefined, contextJson: string): Command;
}

/** The npm package `node@X` puts X's binary here. Without an install folder: this process's own node. */
function node(installDir: string | undefined, contextJson: string): Command {
  return { file: installDir ? join(installDir, "node_modules/node/bin/node") : process.execPath, args: [CLI_ENTRY, contextJson] };
}

export const RUNTIMES: Record<RuntimeId, Runtime> = {
  node20: { label: "Node 20", spec: "node@20.20.2", reports: { runtime: "node 20.20.2", nodeBuiltins: true }, command: node },
  node22: { label: "Node 22", spec: "node@22.23.3", reports: { runtime: "node 22.23.3", nodeBuiltins: true }, command: node },
  node24: { label: "Node 24", spec: "node@24.21.0", reports: { runtime: "node 24.21.0", nodeBuiltins: true }, command: node },
  bun: {
    label: "Bun",
    spec: "bun@1.4.5",
    reports: { runtime: "bun 1.4.5", nodeBuiltins: true },
    command: (dir, context) => ({ file: join(dir!, "node_modules/.bin/bun"), args: [CLI_ENTRY, context], env: { DO_NOT_TRACK: "1" } }),
  },
  deno: {
    label: "Deno",
    spec: "deno@2.9.6",
    reports: { runtime: "deno 2.9.6", nodeBuiltins: true },
    command: (dir, context) => ({
      file: join(dir!, "node_modules/.bin/deno"),
      // The least it needs: the handler only the network (loopback here), pg the environment (its PG* variables).
      // Packages resolve through node_modules, as in an app with a package.json.
      args: ["run", "--no-lock", "--allow-net=127.0.0.1", "--allow-env", CLI_ENTRY, context],
      // No update check (a request to the internet); its caches stay in the install folder.
      env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(dir!, "deno-dir") },
    }),
  },
  workerd: {
    label: "workerd",
    spec: "miniflare@4.20260730.0",
    // Miniflare 4.20260730.0 depends on exactly this workerd. No Node built-ins: the scenarios but pg's run
    // without nodejs_compat (run-in-miniflare.mjs), so the handler takes its WebCrypto paths.
    reports: { runtime: "workerd 1.20260730.1", nodeBuiltins: false },
    command: (dir, context) => ({ file: process.execPath, args: [join(HERE, "run-in-miniflare.mjs"), dir!, context] }),
  },
};

/** Whether the runtime comes from npm: not Node's pinned version when this process runs on it. */
export function needsInstall(runtime: Runtime): boolean {
  return runtime.spec !== `node@${process.versions.node}`;
}
