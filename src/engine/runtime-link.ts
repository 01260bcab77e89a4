/**
 * Which `@gatehouse/runtime` an app gets. Installed from npm, the CLI asks for its
 * own version. Run from a checkout of this repository (the runtime is not
 * published from it), the app gets the checkout's runtime as a packed tarball in
 * `vendor/`: a real copy, because a symlinked package would resolve
 * `@sveltejs/kit` from the checkout instead of the app and load two copies.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

const CHECKOUT_RUNTIME = fileURLToPath(new URL("../../runtime/", import.meta.url));
export const VENDOR_DIR = "vendor";

export interface RuntimeSource {
  /** The dependency spec written to package.json. */
  spec: string;
  /** Set when the spec points at a tarball to pack from the checkout first. */
  pack?: { from: string; to: string };
}

export function runtimeSource(override: string | undefined, cliVersion: string): RuntimeSource {
  if (override) return { spec: override };
  const manifest = join(CHECKOUT_RUNTIME, "package.json");
  if (!existsSync(join(CHECKOUT_RUNTIME, "src")) || !existsSync(manifest)) return { spec: `^${cliVersion}` };
  const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; version: string };
  const file = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  return { spec: `file:${VENDOR_DIR}/${file}`, pack: { from: CHECKOUT_RUNTIME, to: `${VENDOR_DIR}/${file}` } };
}

/** Packs the checkout's runtime (its built `dist/`) into the app's `vendor/` folder. */
export async function packRuntime(appDir: string, pack: NonNullable<RuntimeSource["pack"]>): Promise<void> {
  if (!existsSync(join(pack.from, "dist", "index.js"))) {
    throw new Error(`the runtime in ${pack.from} is not built: run \`npm install\` (or \`npm run build\`) in the gatehouse checkout first`);
  }
  const destination = join(appDir, VENDOR_DIR);
  mkdirSync(destination, { recursive: true });
  await execa("npm", ["pack", "--silent", "--pack-destination", destination], { cwd: pack.from });
  if (!existsSync(join(appDir, pack.to))) throw new Error(`npm pack did not write ${pack.to}`);
}

/** This CLI's version: an installed CLI gives apps the runtime of the same version. */
export function cliVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("../../package.json");
  return (pkg as { version: string }).version;
}
