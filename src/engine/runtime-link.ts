/**
 * Which gatehouse packages an app gets: `@gatehouse/runtime` (a dependency) and
 * this CLI, `@gatehouse/cli` (a dev dependency, so every command we print,
 * `npx @gatehouse/cli ...`, runs the app's own copy). Installed from npm, the
 * CLI asks for its own version of both. Run from a checkout of this repository
 * (not published from it), the app gets the checkout's packages as packed
 * tarballs in `vendor/`: real copies, because a symlinked package would resolve
 * `@sveltejs/kit` from the checkout instead of the app and load two copies.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const CHECKOUT = fileURLToPath(new URL("../../", import.meta.url));
const CHECKOUT_RUNTIME = join(CHECKOUT, "runtime");
export const VENDOR_DIR = "vendor";
export const CLI_PACKAGE = "@gatehouse/cli";
export const RUNTIME_PACKAGE = "@gatehouse/runtime";

export interface PackageSource {
  /** The dependency spec written to package.json. */
  spec: string;
  /** Set when the spec points at a tarball to pack from the checkout first. */
  pack?: { from: string; to: string };
}

export interface GatehouseSources {
  runtime: PackageSource;
  cli: PackageSource;
}

/**
 * `--runtime <spec>` names the runtime to ask for; the CLI then comes from the
 * registry too, at its own version (both come from one place).
 */
export function gatehouseSources(runtimeOverride: string | undefined, cliVersion: string): GatehouseSources {
  const registry = { spec: `^${cliVersion}` };
  if (runtimeOverride) return { runtime: { spec: runtimeOverride }, cli: registry };
  if (!existsSync(join(CHECKOUT_RUNTIME, "src")) || !existsSync(join(CHECKOUT_RUNTIME, "package.json"))) return { runtime: registry, cli: registry };
  return { runtime: fromCheckout(CHECKOUT_RUNTIME), cli: fromCheckout(CHECKOUT) };
}

function fromCheckout(dir: string): PackageSource {
  const { name, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string };
  const file = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  return { spec: `file:${VENDOR_DIR}/${file}`, pack: { from: dir, to: `${VENDOR_DIR}/${file}` } };
}

/** Packs what the sources take from the checkout (their built `dist/`) into the app's `vendor/` folder. */
export async function packGatehouse(appDir: string, sources: GatehouseSources): Promise<void> {
  await packInto(join(appDir, VENDOR_DIR), sources);
}

/**
 * A folder of tarballs already packed from this checkout's current build, when
 * something that builds once and sets up many apps (the test run) names one:
 * each tarball is packed once, then copied. Never set by users.
 */
export const PACK_CACHE_ENV = "GATEHOUSE_PACK_CACHE";

/** Packs what the sources take from the checkout into `destination`; resolves to the tarballs' paths. */
export async function packInto(destination: string, sources: GatehouseSources): Promise<string[]> {
  const written: string[] = [];
  const cache = process.env[PACK_CACHE_ENV];
  for (const source of [sources.runtime, sources.cli]) {
    if (!source.pack) continue;
    if (!existsSync(join(source.pack.from, "dist"))) {
      throw new Error(`${source.pack.from} is not built: run \`npm install\` (or \`npm run build\`) in the gatehouse checkout first`);
    }
    const cached = cache ? join(cache, basename(source.pack.to)) : undefined;
    if (cached && existsSync(cached)) {
      mkdirSync(destination, { recursive: true });
      cpSync(cached, join(destination, basename(cached)));
      written.push(join(destination, basename(cached)));
      continue;
    }
    const tarball = await packStaged(source.pack.from, destination);
    // Copied aside, then renamed: apps set up at once must never copy half a file.
    if (cached) {
      const partial = `${cached}.${process.pid}.partial`;
      cpSync(tarball, partial);
      renameSync(partial, cached);
    }
    written.push(tarball);
  }
  return written;
}

/**
 * `npm pack` of a copy whose manifest has no scripts, dev dependencies or
 * workspaces: the checkout's `prepare` (its build) means nothing in an app, and
 * npm would hold the install to ask about it.
 */
async function packStaged(dir: string, destination: string): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown> & { files?: string[] };
  const stage = mkdtempSync(join(tmpdir(), "gatehouse-pack-"));
  try {
    for (const entry of manifest.files ?? []) if (existsSync(join(dir, entry))) cpSync(join(dir, entry), join(stage, entry), { recursive: true });
    const { scripts: _scripts, devDependencies: _dev, workspaces: _workspaces, ...published } = manifest;
    peerOnPackedRuntime(published);
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
    for (const extra of ["README.md", "LICENSE"]) if (existsSync(join(dir, extra))) cpSync(join(dir, extra), join(stage, extra));
    mkdirSync(destination, { recursive: true });
    // Imported here: `auth doctor` reads cliVersion from this module and never packs.
    const { execa } = await import("execa");
    const { stdout } = await execa("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", stage], { cwd: stage });
    const tarball = stdout.trim().split("\n").pop()!;
    // A copy, not a rename: the temporary folder may be on another file system.
    cpSync(join(stage, tarball), join(destination, tarball));
    return join(destination, tarball);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The packed CLI asks for the runtime as a peer, not a dependency: it is packed
 * next to the runtime and the app depends on that tarball. npm settles a
 * dependency on `@gatehouse/runtime@0.1.0` with the app's copy, but pnpm and
 * yarn resolve it on the registry, where it is not published (a 404 that stops
 * the install). A peer is the app's copy for all three.
 */
function peerOnPackedRuntime(manifest: Record<string, unknown>): void {
  const dependencies = manifest.dependencies as Record<string, string> | undefined;
  const range = dependencies?.[RUNTIME_PACKAGE];
  if (!dependencies || range === undefined) return;
  delete dependencies[RUNTIME_PACKAGE];
  manifest.peerDependencies = { ...(manifest.peerDependencies as Record<string, string> | undefined), [RUNTIME_PACKAGE]: range };
}

/** This CLI's version: an installed CLI gives apps the runtime of the same version. */
export function cliVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("../../package.json");
  return (pkg as { version: string }).version;
}
