/**
 * Installing an app's dependencies with its own package manager. The tool's
 * output is kept and shown only when it fails.
 */
import { execa } from "execa";
import type { PackageManager } from "../generators/detect.js";

const INSTALL_ARGS: Record<PackageManager, string[]> = {
  npm: ["install", "--no-audit", "--no-fund"],
  pnpm: ["install"],
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
  const result = await execa(manager, INSTALL_ARGS[manager], { cwd: dir, all: true, reject: false, stdin: "ignore" });
  if (result.failed) {
    const why = result.code === "ENOENT" ? `${manager} is not installed or not on PATH` : `\`${manager} install\` failed (exit code ${result.exitCode})`;
    throw new InstallError(why, result.all ?? "");
  }
}
