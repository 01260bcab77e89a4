/**
 * What installing the runtime costs an app, next to `@auth/core` and
 * `better-auth`: each is installed alone into a fresh temp folder as a
 * production dependency (`npm install --omit=dev --no-audit --no-fund
 * --ignore-scripts`), then counted: the packages npm installed (from
 * node_modules/.package-lock.json: the package itself and everything it
 * brought, the temp folder's own root left out), the package's own
 * tarball and unpacked size, and node_modules on disk (du-style: allocated
 * blocks, each inode once). Ours is this checkout's runtime, packed with
 * `npm pack` (its built dist/, as it would be published).
 *
 *   node test/bench/footprint.mjs    (also part of `npm run bench`; BENCH_FOOTPRINT=0 leaves it out there)
 *
 * Needs the npm registry; `better-auth` is its latest version at the time
 * (printed). Optional peers (database drivers, frameworks) are not installed
 * by npm unless the app asks for them, for all three.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNTIME = fileURLToPath(new URL("../../runtime/", import.meta.url));
const AUTH_CORE = "@auth/core@0.41.3";

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * `npm pack` into `dir` of a registry spec, or of the package in `cwd` when
 * `spec` is undefined (as the CLI packs the runtime): the tarball's path, packed
 * and unpacked bytes.
 */
function pack(spec, cwd, dir) {
  const [info] = JSON.parse(npm(["pack", ...(spec ? [spec] : []), "--json", "--pack-destination", dir], cwd));
  return { tarball: join(dir, info.filename), size: info.size, unpackedSize: info.unpackedSize, version: info.version };
}

/** Installs one spec alone into a fresh folder, as an app's production dependency. */
function installAlone(spec, dir) {
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "footprint", private: true }));
  npm(["install", "--omit=dev", "--no-audit", "--no-fund", "--ignore-scripts", spec], dir);
}

/** The installed packages, `name@version`, from npm's own record of node_modules (the root is not in it). */
function installedPackages(dir) {
  const { packages } = JSON.parse(readFileSync(join(dir, "node_modules/.package-lock.json"), "utf8"));
  return Object.entries(packages)
    .filter(([path, entry]) => path.startsWith("node_modules/") && !entry.link)
    .map(([path, entry]) => `${path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)}@${entry.version}`)
    .sort();
}

/**
 * For each direct dependency of `name`, the installed packages it brings
 * (itself and everything it needs, resolved as Node resolves `node_modules`).
 */
function dependencyClosures(dir, name) {
  const { packages } = JSON.parse(readFileSync(join(dir, "node_modules/.package-lock.json"), "utf8"));
  const resolve = (from, dependency) => {
    for (let base = from; ; base = base.slice(0, base.lastIndexOf("/node_modules/"))) {
      if (packages[`${base}/node_modules/${dependency}`]) return `${base}/node_modules/${dependency}`;
      if (!base.includes("/node_modules/")) return packages[`node_modules/${dependency}`] ? `node_modules/${dependency}` : undefined;
    }
  };
  const closure = (path, seen = new Set()) => {
    if (!path || seen.has(path)) return seen;
    seen.add(path);
    for (const dependency of Object.keys(packages[path].dependencies ?? {})) closure(resolve(path, dependency), seen);
    return seen;
  };
  const root = `node_modules/${name}`;
  return Object.keys(packages[root].dependencies ?? {}).map((dependency) => {
    const paths = closure(resolve(root, dependency));
    // Each package's own files: its nested node_modules are packages of the closure too.
    const bytes = [...paths].reduce((sum, path) => sum + diskUsage(join(dir, path), new Set(), "node_modules"), 0);
    return { dependency, packages: paths.size, bytes };
  });
}

/** Bytes allocated on disk under `path`, as `du` counts them (hard links once), leaving out entries named `skip`. */
function diskUsage(path, seen = new Set(), skip = undefined) {
  const stat = lstatSync(path);
  if (seen.has(stat.ino)) return 0;
  seen.add(stat.ino);
  let bytes = stat.blocks * 512;
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path)) if (entry !== skip) bytes += diskUsage(join(path, entry), seen);
  }
  return bytes;
}

/** The optional peers a package declares: npm leaves them out unless the app installs them. */
function optionalPeers(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  return Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional)
    .map(([name]) => name);
}

const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const work = mkdtempSync(join(tmpdir(), "gatehouse-bench-footprint-"));
try {
  const betterAuth = `better-auth@${npm(["view", "better-auth", "version"], work).trim()}`;
  console.log(`\nInstall footprint (npm install --omit=dev --no-audit --no-fund --ignore-scripts, each alone in a fresh folder; ${betterAuth} is npm's latest today):`);
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs);
  const ours = pack(undefined, RUNTIME, tarballs);
  const candidates = [
    { name: "@gatehouse/runtime", spec: ours.tarball, packed: ours },
    { name: "@auth/core", spec: AUTH_CORE, packed: pack(AUTH_CORE, work, tarballs) },
    { name: "better-auth", spec: betterAuth, packed: pack(betterAuth, work, tarballs) },
  ];
  const rows = [];
  for (const [index, candidate] of candidates.entries()) {
    const dir = join(work, `app-${index}`);
    installAlone(candidate.spec, dir);
    candidate.installed = installedPackages(dir);
    candidate.closures = dependencyClosures(dir, candidate.name);
    candidate.optionalPeers = optionalPeers(join(dir, "node_modules", candidate.name));
    candidate.peersInstalled = candidate.optionalPeers.filter((peer) => candidate.installed.some((p) => p.startsWith(`${peer}@`)));
    rows.push({
      package: `${candidate.name}@${candidate.packed.version}`,
      "tarball": kB(candidate.packed.size),
      "unpacked": kB(candidate.packed.unpackedSize),
      "packages installed": candidate.installed.length,
      "node_modules on disk": MB(diskUsage(join(dir, "node_modules"))),
      "optional peers (installed)": `${candidate.optionalPeers.length} (${candidate.peersInstalled.length})`,
    });
  }
  console.table(rows);
  const [runtime] = candidates;
  console.log(`@gatehouse/runtime installs: ${runtime.installed.join(", ")}.`);
  console.log("What each of its dependencies brings (itself and what it needs; a package two of them share counts in both):");
  console.table(runtime.closures.map(({ dependency, packages, bytes }) => ({ dependency, packages, "on disk": MB(bytes) })));
  console.log(
    `Its optional peers, installed only when an app uses them: ${runtime.optionalPeers.join(", ")}` +
      (runtime.peersInstalled.length ? ` (installed anyway: ${runtime.peersInstalled.join(", ")})` : " (none installed)") +
      `. The CLI adds the driver an app's adapter needs (e.g. @electric-sql/pglite) to that app.`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
