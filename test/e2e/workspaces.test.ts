/**
 * `auth-init --yes` in a SvelteKit app that is a package of a monorepo
 * (packages/web), with the built CLI: a pnpm workspace and a yarn (1.x)
 * workspace, pnpm and yarn installed from npm into one temporary prefix. The
 * install runs with the workspace's manager into the root's lockfile and
 * node_modules (no package-lock.json, no second node_modules tree of npm's),
 * the app resolves @gatehouse/runtime, and the printed next steps name the
 * workspace's manager, never npm.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin, cli, root as checkout } from "../cli/support/cli.js";
import { run } from "./support/processes.js";

type Manager = "pnpm" | "yarn";

interface Case {
  manager: Manager;
  lockfile: string;
  /** The workspace root's files besides the app. */
  rootFiles: Record<string, string>;
  /** The next step that starts the app. */
  dev: string;
}

/**
 * The Vite this checkout locks. vite 8.4.0 lists an optional dependency
 * (napi-windows-process-start-time) that the registry does not have: npm and
 * pnpm skip a missing optional package, yarn 1 fails the whole install on it. So
 * the yarn workspace pins Vite (`resolutions`) to a release yarn can install: this
 * test is about where the install goes, not about the newest Vite.
 */
const lockedVite: string = JSON.parse(readFileSync(join(checkout, "package-lock.json"), "utf8")).packages["node_modules/vite"].version;

const cases: Case[] = [
  {
    manager: "pnpm",
    lockfile: "pnpm-lock.yaml",
    // Not installed yet: pnpm-workspace.yaml alone makes it a pnpm workspace.
    rootFiles: { "package.json": JSON.stringify({ name: "mono", private: true }), "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n" },
    dev: "`pnpm dev`",
  },
  {
    manager: "yarn",
    lockfile: "yarn.lock",
    rootFiles: {
      "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"], resolutions: { vite: lockedVite } }),
      "yarn.lock": "",
    },
    dev: "`yarn dev`",
  },
];

const temp = mkdtempSync(join(tmpdir(), "gatehouse-workspaces-"));
const prefix = join(temp, "managers");
let env: Record<string, string>;

beforeAll(async () => {
  await run("npm", ["i", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", "pnpm", "yarn"], { cwd: temp, timeoutMs: 180_000 });
  env = {
    PATH: [join(prefix, "node_modules/.bin"), join(process.execPath, ".."), process.env.PATH ?? ""].join(delimiter),
    // Yarn 1 caches a file: tarball by name and version: a cache from another run would hand back an older build's tarball.
    YARN_CACHE_FOLDER: join(prefix, "yarn-cache"),
  };
}, 200_000);

afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("auth-init in a monorepo's package", () => {
  for (const { manager, lockfile, rootFiles, dev } of cases) {
    it(`installs with ${manager} into the ${manager} workspace's root and says \`${manager}\` in the next steps`, () => {
      const workspace = join(temp, `${manager}-workspace`);
      const web = join(workspace, "packages/web");
      mkdirSync(web, { recursive: true });
      for (const [path, text] of Object.entries(rootFiles)) writeFileSync(join(workspace, path), text);
      cpSync(join(checkout, "test/cli/fixtures/sveltekit-minimal"), web, { recursive: true });

      const result = cli(authInitBin, ["--yes"], web, env, 300_000);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);

      expect(result.stdout).toContain(`Installing dependencies with ${manager}`);
      expect(result.stdout).toContain(dev);
      expect(result.stdout).not.toMatch(/`npm (install|run)/);

      for (const dir of [web, workspace]) expect(existsSync(join(dir, "package-lock.json")), `a package-lock.json in ${dir}`).toBe(false);
      expect(existsSync(join(web, lockfile)), "no lockfile of the app's own").toBe(false);
      expect(readFileSync(join(workspace, lockfile), "utf8")).toContain("@gatehouse/runtime");
      expect(existsSync(join(workspace, "node_modules")), "the workspace's node_modules").toBe(true);

      // Node's own resolution from the app's folder, as the app's server does it.
      const resolved = spawnSync(process.execPath, ["--input-type=module", "-e", "console.log(import.meta.resolve('@gatehouse/runtime'))"], { cwd: web, encoding: "utf8" });
      expect(resolved.status, resolved.stderr).toBe(0);
      expect(resolved.stdout.trim().startsWith(pathToFileURL(workspace).href)).toBe(true);
    }, 360_000);
  }
});
