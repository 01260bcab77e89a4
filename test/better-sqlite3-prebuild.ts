/**
 * The apps the e2e tests set up on SQLite install better-sqlite3, whose install
 * script (prebuild-install) fetches a prebuilt binary from GitHub, which this
 * machine cannot reach, then compiles it from source instead: about 100 s of
 * both CPUs per app. This checkout's own better-sqlite3 was compiled for this
 * Node.js by `npm ci`; packed as the prebuilt tarball prebuild-install looks
 * for, in a folder named by `npm_config_better_sqlite3_local_prebuilds` (its
 * documented local-prebuilds option), an app's install of the same version
 * unpacks it instead of compiling. Another version, or another Node.js (ABI),
 * names another tarball, which is not there: it compiles as before.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

export function seedBetterSqlite3Prebuild(root: string): void {
  const moduleDir = join(root, "node_modules", "better-sqlite3");
  const binary = join(moduleDir, "build", "Release", "better_sqlite3.node");
  if (!existsSync(binary)) return;
  const { version } = JSON.parse(readFileSync(join(moduleDir, "package.json"), "utf8")) as { version: string };
  const folder = join(root, "node_modules", ".cache", "gatehouse-prebuilds");
  const tarball = join(folder, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc(root)}-${process.arch}.tar.gz`);
  if (!existsSync(tarball)) {
    mkdirSync(folder, { recursive: true });
    // The layout of the project's own prebuilt tarballs: build/Release/better_sqlite3.node.
    const tar = spawnSync("tar", ["-czf", tarball, "-C", moduleDir, "build/Release/better_sqlite3.node"], { encoding: "utf8" });
    if (tar.status !== 0) return;
  }
  process.env.npm_config_better_sqlite3_local_prebuilds = folder;
}

/** prebuild-install's libc part of the name: empty on glibc (and off Linux), `musl` on Alpine. */
function libc(root: string): string {
  if (process.platform !== "linux") return "";
  try {
    const detect = createRequire(join(root, "node_modules", "prebuild-install", "rc.js"))("detect-libc") as { isNonGlibcLinuxSync(): boolean; familySync(): string | null };
    return detect.isNonGlibcLinuxSync() ? (detect.familySync() ?? "") : "";
  } catch {
    return "";
  }
}
