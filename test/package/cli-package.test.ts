/**
 * The CLI as users get it from npm: this checkout's CLI and runtime packed with
 * `npm pack`, the CLI installed into an empty project, and its bins run from
 * there. It catches what a run from the checkout hides: a file missing from
 * `files`, or an import of a package the CLI's manifest does not list (the
 * checkout's node_modules would resolve it anyway).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packRuntime, REPO_ROOT } from "../e2e/support/runtime-package.js";
import { run } from "../e2e/support/processes.js";

const work = mkdtempSync(join(tmpdir(), "gatehouse-cli-package-"));
const consumer = join(work, "consumer");
const bin = (name: string) => join(consumer, "node_modules/.bin", name);

/** Runs an installed bin; resolves to its stdout, or throws with its output. */
function installed(name: string, args: string[], cwd = consumer): string {
  return execFileSync(bin(name), args, { cwd, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
}

function manifest(dir: string): { version: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string; dependencies?: Record<string, string> };
}

beforeAll(async () => {
  const runtimeTarball = await packRuntime();
  // --ignore-scripts: `prepare` would rebuild dist/ while other test files read it;
  // the global setup has built it already.
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", work], { cwd: REPO_ROOT });
  const cliTarball = readdirSync(work).find((name) => name.startsWith("gatehouse-") && name.endsWith(".tgz"));
  if (!cliTarball) throw new Error(`npm pack wrote no CLI tarball to ${work}`);
  cpSync(join(REPO_ROOT, "test/cli/fixtures/sveltekit-minimal"), join(work, "template"), { recursive: true });
  mkdirSync(consumer);
  // Only the CLI is installed, as `npx auth-init` does; its runtime dependency comes
  // from the packed checkout (the override) instead of the registry.
  const overrides = { "@gatehouse/runtime": `file:${runtimeTarball}` };
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, overrides }));
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", join(work, cliTarball)], { cwd: consumer });
}, 300_000);

describe("the CLI installed from its package", () => {
  it("declares the runtime it imports, at its own version", () => {
    const cli = manifest(join(consumer, "node_modules/gatehouse"));
    expect(cli.dependencies?.["@gatehouse/runtime"]).toBe(cli.version);
    expect(manifest(join(consumer, "node_modules/@gatehouse/runtime")).version).toBe(cli.version);
  });

  it("prints its version and help", () => {
    expect(installed("auth", ["--version"]).trim()).toBe(manifest(REPO_ROOT).version);
    const help = installed("auth", ["--help"]);
    for (const command of ["secret", "init", "add-provider", "migrate", "doctor"]) expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
  });

  it("generates a secret", () => {
    expect(installed("auth", ["secret", "--raw"]).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("sets up an app that asks for the runtime from npm at the CLI's version", () => {
    const app = join(work, "app");
    cpSync(join(work, "template"), app, { recursive: true });
    installed("auth-init", [app, "--yes", "--no-install"]);
    expect(manifest(app).dependencies?.["@gatehouse/runtime"]).toBe(`^${manifest(REPO_ROOT).version}`);
    for (const file of ["src/auth.ts", "src/hooks.server.ts", "src/routes/signin/+page.svelte", ".env"]) expect(existsSync(join(app, file)), file).toBe(true);
    expect(readFileSync(join(app, ".env"), "utf8")).toMatch(/^AUTH_SECRET="?[A-Za-z0-9_-]{43}"?$/m);
  });

  it("adds a provider to that app and checks it with doctor", () => {
    const app = join(work, "app");
    installed("auth", ["add-provider", "github", "--cwd", app]);
    expect(readFileSync(join(app, "src/auth.ts"), "utf8")).toMatch(/GitHub/);
    // Exit 1: the new provider's keys are empty and the app's dependencies not installed.
    let output = "";
    try {
      installed("auth", ["doctor", "--cwd", app]);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/ok\s+framework: sveltekit/);
    // GitHub is known from the runtime's provider catalog, with its env keys.
    expect(output).toMatch(/fail\s+GitHub: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET not set/);
    expect(output).toMatch(/fail\s+@gatehouse\/runtime is not installed/);
  });
});
