/**
 * The apps the e2e tests and the HTTP bench set up on SQLite install
 * better-sqlite3, whose install script (prebuild-install) downloads a prebuilt
 * binary from GitHub, which this machine cannot reach, and then compiles it from
 * source instead: about 100 s of both CPUs per app. prebuild-install looks in
 * npm's cache first (`<cache>/_prebuilds/`, under a name made from the
 * download's URL). This checkout's own better-sqlite3 was compiled for this
 * Node.js and machine by `npm ci`: packed as that download and put where
 * prebuild-install looks, an app's install of the same version unpacks it
 * instead of compiling. Another version, Node.js (ABI) or platform names another
 * download, which is not there: it compiles as before. (An environment setting,
 * prebuild-install's `npm_config_better_sqlite3_local_prebuilds`, would make
 * every npm command warn about an unknown config; a name without `npm_config_`
 * does not reach the install script through `sh`.) Plain JavaScript so that the
 * bench, run by Node without a TypeScript loader, shares it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export function seedBetterSqlite3Prebuild(root) {
  const moduleDir = join(root, "node_modules", "better-sqlite3");
  const binary = join(moduleDir, "build", "Release", "better_sqlite3.node");
  if (!existsSync(binary)) return;
  try {
    const fromPrebuild = createRequire(join(root, "node_modules", "prebuild-install", "package.json"));
    const util = fromPrebuild("./util.js");
    const detect = fromPrebuild("detect-libc");
    const pkg = JSON.parse(readFileSync(join(moduleDir, "package.json"), "utf8"));
    // As prebuild-install's rc.js makes them for this Node.js: the libc part is empty on glibc.
    const libc = process.platform === "linux" && detect.isNonGlibcLinuxSync() ? (detect.familySync() ?? "") : "";
    const url = util.getDownloadUrl({ pkg, platform: process.platform, arch: process.arch, libc, runtime: "node", abi: process.versions.modules, "tag-prefix": "v" });
    const cached = util.cachedPrebuild(url);
    if (existsSync(cached)) return;
    mkdirSync(dirname(cached), { recursive: true });
    // The layout of the project's own prebuilt tarballs: build/Release/better_sqlite3.node.
    spawnSync("tar", ["-czf", cached, "-C", moduleDir, "build/Release/better_sqlite3.node"]);
  } catch {
    // A layout of prebuild-install this does not know: the installs compile, as without it.
  }
}
