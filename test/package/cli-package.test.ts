/**
 * The CLI as users get it before it is on npm, following docs/cli.md's
 * "Installing before gatehouse is on npm": `npm run pack` packs this checkout's
 * CLI and runtime, an app installs both tarballs (offline), and every command
 * runs as we print it, `npx @gatehouse/cli ...`, from the app's own copy. It
 * catches what a run from the checkout hides: a file missing from `files`, an
 * import of a package the CLI's manifest does not list, a manifest that asks npm
 * to run the checkout's build.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../e2e/support/runtime-package.js";
import { run } from "../e2e/support/processes.js";

const work = mkdtempSync(join(tmpdir(), "gatehouse-cli-package-"));
const packed = join(work, "packed");
const app = join(work, "app");
const template = join(REPO_ROOT, "test/cli/fixtures/sveltekit-minimal");
const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const tarball = (name: string) => join(packed, `gatehouse-${name}-${version}.tgz`);

/** A command as we print it (`npx @gatehouse/cli ...`), run in `cwd`; resolves to its stdout, or throws with its output. */
function npx(args: string[], cwd = app): string {
  return execFileSync("npx", ["--no-install", "@gatehouse/cli", ...args], { cwd, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
}

type Manifest = {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
};
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;

beforeAll(async () => {
  // docs/cli.md's commands: pack in the checkout (the global setup built it), then install in the app, runtime first.
  await run("npm", ["run", "pack", "--", packed], { cwd: REPO_ROOT });
  cpSync(template, app, { recursive: true });
  await run("npm", ["install", "--no-audit", "--no-fund", tarball("runtime")], { cwd: app, timeoutMs: 300_000 });
  await run("npm", ["install", "-D", "--no-audit", "--no-fund", tarball("cli")], { cwd: app, timeoutMs: 300_000 });
}, 600_000);

describe("the CLI installed from its packed tarball", () => {
  it("is @gatehouse/cli, asks for the runtime of its own version (a peer: the app's copy, also for pnpm and yarn), and carries no scripts of the checkout", () => {
    const cli = manifest(join(app, "node_modules/@gatehouse/cli"));
    expect(cli.peerDependencies?.["@gatehouse/runtime"]).toBe(cli.version);
    expect(cli.dependencies?.["@gatehouse/runtime"]).toBeUndefined();
    expect(cli.scripts).toBeUndefined();
    expect(manifest(join(app, "node_modules/@gatehouse/runtime")).version).toBe(version);
  });

  it("npx @gatehouse/cli runs the app's copy: version, help, a secret", () => {
    expect(npx(["--version"]).trim()).toBe(version);
    const help = npx(["--help"]);
    for (const command of ["secret", "init", "add-provider", "migrate", "doctor"]) expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    expect(npx(["secret", "--raw"]).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("npx @gatehouse/cli init sets the app up and keeps the tarballs it was installed from", () => {
    npx(["init", "--yes", "--no-install"]);
    for (const file of ["src/auth.ts", "src/hooks.server.ts", "src/routes/signin/+page.svelte", ".env"]) expect(existsSync(join(app, file)), file).toBe(true);
    expect(readFileSync(join(app, ".env"), "utf8")).toMatch(/^AUTH_SECRET="?[A-Za-z0-9_-]{43}"?$/m);
    const pkg = manifest(app);
    expect(pkg.dependencies?.["@gatehouse/runtime"]).toMatch(/^file:.*gatehouse-runtime-/);
    expect(pkg.devDependencies?.["@gatehouse/cli"]).toMatch(/^file:.*gatehouse-cli-/);
  });

  it("in an app without them, init asks npm for the runtime and the CLI at its own version", () => {
    const fresh = join(work, "fresh");
    cpSync(template, fresh, { recursive: true });
    npx(["init", fresh, "--yes", "--no-install"]);
    expect(manifest(fresh).dependencies?.["@gatehouse/runtime"]).toBe(`^${version}`);
    expect(manifest(fresh).devDependencies?.["@gatehouse/cli"]).toBe(`^${version}`);
  });

  it("npx @gatehouse/cli add-provider and doctor work in the app", () => {
    npx(["add-provider", "github"]);
    expect(readFileSync(join(app, "src/auth.ts"), "utf8")).toMatch(/GitHub/);
    // Exit 1: the new provider's keys are empty.
    let output = "";
    try {
      npx(["doctor"]);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/ok\s+framework: sveltekit/);
    expect(output).toMatch(/fail\s+GitHub: AUTH_GITHUB_ID, AUTH_GITHUB_SECRET not set/);
    expect(output).toMatch(/ok\s+@gatehouse\/runtime 0\.1\.0/);
  });
});
