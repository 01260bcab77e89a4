/**
 * Installing an app's dependencies with its own package manager (`detect`'s,
 * which may come from a monorepo root above the app). It runs in the app's
 * folder: pnpm, yarn (1 and berry), bun and npm (7+) each find the workspace the
 * folder belongs to from there and install at its root, into its one lockfile
 * and node_modules. The tool's output is kept and shown only when it fails.
 */
import { execa } from "execa";
import type { PackageManager } from "../generators/detect.js";

const INSTALL_ARGS: Record<PackageManager, string[]> = {
  npm: ["install", "--no-audit", "--no-fund"],
  // pnpm freezes the lockfile when CI is set; auth-init has just added dependencies it must take in.
  pnpm: ["install", "--no-frozen-lockfile"],
  yarn: ["install"],
  bun: ["install"],
};

export class InstallError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

export async function installDependencies(dir: string, manager: PackageManager): Promise<void> {
  // Yarn berry makes installs immutable when CI is set (yarn 1 ignores the variable), for the same reason as pnpm's flag.
  const env = manager === "yarn" ? { YARN_ENABLE_IMMUTABLE_INSTALLS: "false" } : {};
  const result = await execa(manager, INSTALL_ARGS[manager], { cwd: dir, env, all: true, reject: false, stdin: "ignore" });
  if (result.failed) {
    const why = result.code === "ENOENT" ? `${manager} is not installed or not on PATH` : `\`${manager} install\` failed (exit code ${result.exitCode})`;
    throw new InstallError(why, result.all ?? "");
  }
}
