/**
 * `npm run bench:against -- <git revision>`: this checkout's runtime against the
 * runtime of another revision, on the same requests, side by side in one run.
 *
 * The ratios of `npm run bench` are against `@auth/core` and move with the
 * machine (on this VM a JWT session read measured 27x to 79x across days); this
 * one holds a change against what came before it, on the same machine at the
 * same moment, so "the change cost nothing" is a figure (1.0x), not a guess.
 *
 *   npm run bench:against -- main~10
 *   BENCH_TIME=5000 BENCH_ROUNDS=9 npm run bench:against -- v0.1.0
 *
 * The revision's runtime is taken from `git archive` into a folder of the
 * system's temporary directory (kept for the next run: it is named by the
 * commit) and built there against this checkout's installed dependencies.
 * Scenarios: the core handler paths (JWT session reads, CSRF, credentials
 * sign-in, session update) and the database session read on PGlite (and on a
 * PostgreSQL server when DATABASE_URL is set), one request at a time and 64 in
 * flight. The ratio is this checkout's requests per second
 * over the revision's: above 1.0x is faster.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import * as thisRuntime from "@gatehouse/runtime";
import { Credentials as thisCredentials } from "@gatehouse/runtime/providers";
import { encode as thisEncode } from "@gatehouse/runtime/jwt";
import * as thisPostgres from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite as thisFromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { fromPg as thisFromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { coreScenarios, makeImpl, prepare } from "./core.mjs";
import { databaseConfig, scratchDatabase, seed, sessionGet } from "./database.mjs";
import { BATCH, measure, settings } from "./measure.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * What the bench takes from a runtime, imported through the package's own
 * exports map: the module is written inside the revision's runtime folder, so
 * `@gatehouse/runtime/...` resolves to that package itself, not to ours.
 */
const ENTRY = `export { Auth } from "@gatehouse/runtime";
export { Credentials } from "@gatehouse/runtime/providers";
export { encode } from "@gatehouse/runtime/jwt";
export * as postgres from "@gatehouse/runtime/adapters/postgres";
export { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
export { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
`;

const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/** The revision's runtime, built once into a folder named by its commit; returns what ENTRY exports. */
async function builtRuntime(revision) {
  let commit;
  try {
    commit = git("rev-parse", "--verify", "--quiet", `${revision}^{commit}`);
  } catch {
    console.error(`"${revision}" is not a commit of this repository (try main~5, a tag or a commit hash)`);
    process.exit(2);
  }
  const dir = join(tmpdir(), `gatehouse-bench-${commit.slice(0, 12)}`);
  const entry = join(dir, "runtime", "bench-entry.mjs");
  if (!existsSync(join(dir, "runtime", "dist", "index.js"))) {
    console.log(`Building the runtime of ${revision} (${commit.slice(0, 12)}) in ${dir} ...`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync("sh", ["-c", `git archive --format=tar "${commit}" | tar -x -C "${dir}"`], { cwd: ROOT });
    // This checkout's installed dependencies serve the old build and its run.
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    if (existsSync(join(ROOT, "runtime", "node_modules"))) symlinkSync(join(ROOT, "runtime", "node_modules"), join(dir, "runtime", "node_modules"), "dir");
    execFileSync("npm", ["run", "build"], { cwd: join(dir, "runtime"), stdio: ["ignore", "ignore", "inherit"] });
  }
  writeFileSync(entry, ENTRY);
  return { label: `${revision} (${commit.slice(0, 12)})`, runtime: await import(pathToFileURL(entry).href) };
}

/** One side of the core scenarios: signed in once, as `npm run bench` does. */
const coreSide = (name, { Auth, Credentials, encode }) => prepare(makeImpl(name, Auth, Credentials), encode);

/**
 * One side of a database session scenario: its own database (PGlite, or one
 * made on the server at DATABASE_URL), migrated and seeded by its own runtime.
 */
async function databaseSide(name, { Auth, postgres, fromPGlite, fromPg }, serverUrl) {
  const database = serverUrl ? await scratchDatabase(serverUrl) : new PGlite();
  const { adapter, cookie } = await seed(serverUrl ? fromPg(database.pool) : fromPGlite(database), postgres);
  const config = databaseConfig(adapter);
  return { name, state: { cookie }, call: (request) => Auth(request, config), close: () => database.close() };
}

const revision = process.argv[2];
if (!revision) {
  console.error("Usage: npm run bench:against -- <git revision>   (e.g. main~5, a tag or a commit hash)");
  process.exit(2);
}
const other = await builtRuntime(revision);
const ours = { Auth: thisRuntime.Auth, Credentials: thisCredentials, encode: thisEncode, postgres: thisPostgres, fromPGlite: thisFromPGlite, fromPg: thisFromPg };
const OURS = "this checkout";

console.log(`Node ${process.version}; ${settings}. Ratio: ${OURS}'s requests per second over ${other.label}'s.`);
const core = [await coreSide(OURS, ours), await coreSide(other.label, other.runtime)];
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) console.log("(DATABASE_URL is not set: the PostgreSQL server scenario is left out)");
const databases = [["PGlite", undefined], ...(serverUrl ? [["PostgreSQL", serverUrl]] : [])];
const sides = [];
for (const [label, url] of databases) {
  sides.push({ label, impls: [await databaseSide(OURS, ours, url), await databaseSide(other.label, other.runtime, url)] });
}
try {
  for (const [mode, heading] of [
    ["sequential", "One request at a time"],
    ["concurrent", `${BATCH} requests in flight`],
  ]) {
    const rows = await measure(mode, core, coreScenarios);
    for (const { label, impls } of sides) rows.push(...(await measure(mode, impls, sessionGet(label))));
    console.log(`\n${heading}:`);
    console.table(rows.map((row) => ({ scenario: row.scenario, [OURS]: row[`${OURS} ops/s`], [other.label]: row[`${other.label} ops/s`], ratio: row.ratio })));
  }
} finally {
  await Promise.all(sides.flatMap(({ impls }) => impls.map((side) => side.close())));
}
