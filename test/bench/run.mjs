/**
 * `npm run bench`: side-by-side microbenchmarks of our handler and Auth.js's
 * `@auth/core`, then Better Auth's `better-auth` (devDependencies used only as
 * the references) on the same work.
 * Runs against the built runtime, as users get it.
 *
 *   npm run bench                                   every scenario
 *   BENCH_TIME=5000 BENCH_ROUNDS=9 npm run bench    longer, steadier runs
 *   DATABASE_URL=postgres://... npm run bench       adds the PostgreSQL server
 *   BENCH_HTTP=0 BENCH_FOOTPRINT=0 npm run bench     leaves out the whole-app HTTP
 *                                                   bench and the install footprint
 *
 * The OIDC suite starts `oidc-provider` on 127.0.0.1 in a child process; the
 * memory suite runs with `--expose-gc`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BATCH, settings } from "./measure.mjs";

const suites = ["core", "oidc", "email", "pglite"];
if (process.env.DATABASE_URL) suites.push("postgres");
else console.log("(DATABASE_URL is not set: the PostgreSQL server scenarios are left out)");

const suiteScript = fileURLToPath(new URL("./suite.mjs", import.meta.url));
const runSuite = (args) => JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
function table(mode) {
  console.table(suites.flatMap((suite) => runSuite([suiteScript, suite, mode])));
}

console.log(`Node ${process.version}; ${settings}.`);
console.log("\nOne request at a time (p50, p99: mean per request of the median batch, of the slowest 1% of batches):");
table("sequential");
console.log(`\n${BATCH} requests in flight, as on a busy server (p50, p99: whole batch):`);
table("concurrent");
// Better Auth, what a new user picks instead today: the same work in process, on memory adapters and on PGlite (no server needed).
const betterAuthVersion = JSON.parse(readFileSync(fileURLToPath(new URL("../../node_modules/better-auth/package.json", import.meta.url)), "utf8")).version;
const betterAuthSuites = ["better-auth-cookie-cache", "better-auth", "better-auth-pglite", ...(process.env.DATABASE_URL ? ["better-auth-postgres"] : [])];
console.log(`\nAgainst Better Auth ${betterAuthVersion} (better-auth), in process on memory adapters, on PGlite${process.env.DATABASE_URL ? " and on the PostgreSQL server" : ""}, the same password hash function on both sides (ratio: ours/theirs ops/s; one at a time, then ${BATCH} in flight). On a database, the floor is each scenario's queries alone on our tables, work no handler can skip: the ratio above the floor compares what each side adds to it, the floor's ratio (floor/theirs ops/s) is the most any handler could be ahead:`);
console.table(["sequential", "concurrent"].flatMap((mode) => betterAuthSuites.flatMap((suite) => runSuite([suiteScript, suite, mode]).map((row) => ({ mode, ...row })))));
console.log("\nThe JWT session GET against its floor, one bare jose JWE decrypt + encrypt with the key derived once (ratio: ours/floor ops/s; the target is above 0.5x):");
console.table(runSuite([suiteScript, "core", "floor"]));
if (process.env.DATABASE_URL) {
  console.log(
    "\nThe database session GET on the PostgreSQL server against its floor, the one prepared query it needs on the same pool (ratio: handler/floor ops/s; the target is above 0.67x, within 1.5x of the floor), for ours and for the least handler (the token from the cookie header, that query, the same JSON in a Response: what any handler pays above the bare query):",
  );
  console.table(runSuite([suiteScript, "postgres-floor", "sequential"]));
}
console.log("\nWhy fromPGlite takes PGlite's private locks: the database session GET as shipped against PGlite's public query only (ratio: shipped/public ops/s; one at a time, then 64 in flight):");
console.table(["sequential", "concurrent"].flatMap((mode) => runSuite([suiteScript, "pglite-public", mode]).map((row) => ({ mode, ...row }))));
console.log("\nHeap kept per 1,000 sessions (after a full GC, compiled code left out; the floor is what the method counts that is not per session):");
console.table(runSuite(["--expose-gc", suiteScript, "core", "memory"]));

// The last parts run as scripts of their own: they time processes and servers, not calls.
const runScript = (file) => execFileSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], { stdio: "inherit" });
// The CLI's cold starts, next to Better Auth's CLI.
runScript("./cli.mjs");
// Built apps over HTTP (makes and builds four side by side: a few minutes): ours in SvelteKit against
// @auth/sveltekit's and Better Auth's, and ours in SvelteKit and SolidStart against a bare endpoint of the same app.
if (process.env.BENCH_HTTP !== "0") runScript("./http.mjs");
// What installing the runtime brings into an app, next to @auth/core and better-auth.
if (process.env.BENCH_FOOTPRINT !== "0") runScript("./footprint.mjs");
