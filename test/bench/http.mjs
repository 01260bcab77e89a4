/**
 * Whole apps over HTTP: four built apps on 127.0.0.1, made side by side:
 *
 * - ours in SvelteKit (adapter-node), made by our CLI (`auth-init --yes`:
 *   credentials, JWT sessions, PGlite), and the same in SolidStart 2
 *   (`--framework solid-start`), with this checkout's runtime (http-ours.mjs);
 * - sv's minimal SvelteKit app with `@auth/sveltekit` 1.11.3 (Credentials, JWT
 *   sessions), and with Better Auth (the version our package.json pins; its
 *   SvelteKit handler, email + password, the session cookie cache on,
 *   better-sqlite3), each with our app's `/protected` page (http-references.mjs).
 *
 * Five tables: ours against @auth/sveltekit and against Better Auth (the same
 * runs: the three SvelteKit apps alternate) on the signed-in session read, the
 * new visitor's session read and the protected page whose load reads the
 * session; then, in each of our apps, the signed-in session read against a
 * bare endpoint of the same app that answers the same JSON and headers with no auth call
 * (GET /bench-bare, added by the bench before the build): the whole app
 * against its limit; and in SvelteKit the protected page against the same
 * page whose load hands it the user with no auth call (GET /bench-bare-page):
 * what reading the session adds to a rendered page. The targets printed
 * (>= 3x Better Auth's requests/s, p50 within 1.25x of the bare endpoint's)
 * are not asserted.
 *
 * Timed with autocannon from this process (http-measure.mjs): a fixed number
 * of keep-alive connections, the apps of a table alternating round by round;
 * requests/s, p50 and p99 latency are medians of the rounds. The server's
 * whole path is in the figures: Node's HTTP parser, adapter-node or Nitro, the
 * framework's routing and hooks, then the auth work. Every response must be a
 * 200 with the expected body (the signed-in user, `null`, the page naming the
 * user; against the bare endpoint, on both sides, the one body recorded before
 * timing, byte for byte); anything else, or a connection error, fails the run.
 *
 *   node test/bench/http.mjs        (also part of `npm run bench`; BENCH_HTTP=0 leaves it out there)
 *   BENCH_HTTP_SECONDS=5 BENCH_HTTP_ROUNDS=9 node test/bench/http.mjs    longer, steadier runs
 *   BENCH_HTTP_CONNECTIONS=64 ...   more connections (default 16)
 *   BENCH_KEEP_APPS=1 ...           keeps the apps' temp folder for a look
 *
 * The apps are made, installed (npm registry) and built once per run, in one
 * temp folder removed at the end; SolidStart builds with a Node 24 from npm
 * (installed once into the OS temp folder and kept). They run with
 * NODE_ENV=production, as servers do (Better Auth's rate limits are on only
 * then; its app lets the session read through, see http-references.mjs).
 * Client and servers share the machine: on 2 vCPUs autocannon takes CPU from
 * the server it measures, the same for every app.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { SVELTEKIT_SERVER, USER, installedVersion, startApp, startMailCatcher } from "./http-apps.mjs";
import { CONNECTIONS, ROUNDS, SECONDS, WARMUP_SECONDS, measure, row } from "./http-measure.mjs";
import { BARE_PAGE_PATH, BARE_PATH, SOLID_START, SVELTEKIT, makeOurApp, recordBareBody, signInOurs } from "./http-ours.mjs";
import { BETTER_AUTH, REFERENCE, createSvApp, makeBetterAuthApp, makeReferenceApp, signInBetterAuth, signInReference } from "./http-references.mjs";
import { SMOKE } from "./measure.mjs";

// What each app answers per scenario. The CSRF endpoint is not here: in SvelteKit
// ours and @auth/sveltekit answer GET /auth/csrf with a 404 (SvelteKit's Origin
// check guards form POSTs, so both hand CSRF to it); Better Auth has none. The new
// visitor's request is the session read without a cookie instead (`null` from all
// three). Signed in, every request carries the same session cookies, as one
// user's would: ours decrypts its JWT once and then finds it in its bounded token
// cache (a new user's first request pays the decryption); @auth/sveltekit decrypts
// it and re-issues the cookie (a fresh encryption) on every session read, as it
// does for its users; Better Auth checks its signed session token and its cookie
// cache's signature, and answers from the cache (no database query).
const signedInRead = (path) => ({ path, signedIn: true, body: (body) => body.includes(`"email":"${USER.email}"`) });
const newVisitorRead = (path) => ({ path, signedIn: false, body: (body) => body.trim() === "null" });
const protectedPage = { path: "/protected", signedIn: true, body: (body) => body.includes(`Signed in as ${USER.name} (${USER.email})`) };
/** Ours and @auth/sveltekit: Auth.js's session endpoint, at `session`. */
const authjsRoutes = (session) => ({ signedIn: signedInRead(session), newVisitor: newVisitorRead(session), page: protectedPage });
const BETTER_AUTH_ROUTES = { signedIn: signedInRead("/api/auth/get-session"), newVisitor: newVisitorRead("/api/auth/get-session"), page: protectedPage };

/** Each table's rows: the scenario's key and its name in that table (what each side does differs). */
const AGAINST_AUTHJS = [
  ["signedIn", "session GET (signed in, JWT)"],
  ["newVisitor", "session GET (new visitor)"],
  ["page", "page with locals.auth() (signed in)"],
];
const AGAINST_BETTER_AUTH = [
  ["signedIn", "session GET (signed in; ours JWT, theirs cookie cache)"],
  ["newVisitor", "session GET (new visitor)"],
  ["page", "page reading the session in its load (signed in)"],
];
const AGAINST_BARE = "session GET (signed in, JWT) vs bare endpoint";
const AGAINST_BARE_PAGE = "page reading the session (signed in) vs the same page without auth";

/** Makes and builds the four apps side by side: the installs wait on the network, the builds on the CPU. */
async function buildApps(work) {
  const kit = makeOurApp(work, SVELTEKIT);
  const solid = makeOurApp(work, SOLID_START);
  const svApp = createSvApp(work);
  const [kitDir, solidDir, authjsDir, betterAuthDir] = await Promise.all([
    kit.built,
    solid.built,
    makeReferenceApp(work, svApp, kit),
    makeBetterAuthApp(work, svApp, kit),
  ]);
  return { kitDir, solidDir, authjsDir, betterAuthDir };
}

/** Starts the apps side by side; every one that runs goes into `servers`, so that the end stops it whatever failed. */
async function startApps(specs, mailServer, servers) {
  const started = await Promise.allSettled(
    specs.map(async ({ name, dir, server, routes }) => {
      const app = { name, routes, ...(await startApp(dir, server, mailServer)) };
      servers.push(app);
      return app;
    }),
  );
  const failed = started.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return started.map((result) => result.value);
}

/**
 * The app's signed-in session read and its bare endpoint (one server, one cookie,
 * two paths), each response of both held to `body`, the one recorded before
 * timing, byte for byte.
 */
function withBare(app, body) {
  const same = (answered) => answered === body;
  return [
    { ...app, routes: { signedIn: { ...app.routes.signedIn, body: same } } },
    { ...app, name: "bare endpoint", routes: { signedIn: { path: BARE_PATH, signedIn: true, body: same } } },
  ];
}

function printVersions({ kitDir, solidDir, authjsDir, betterAuthDir }) {
  const kit = (dir) => `@sveltejs/kit ${installedVersion(dir, "@sveltejs/kit")}, adapter-node ${installedVersion(dir, "@sveltejs/adapter-node")}`;
  console.log(`gatehouse, SvelteKit: ${kit(kitDir)}; SolidStart: @solidjs/start ${installedVersion(solidDir, "@solidjs/start")}, nitro ${installedVersion(solidDir, "nitro")}; the checkout's runtime.`);
  console.log(`References: ${REFERENCE} (@auth/core ${installedVersion(authjsDir, "@auth/core")}), ${kit(authjsDir)}; ${BETTER_AUTH} with better-sqlite3 ${installedVersion(betterAuthDir, "better-sqlite3")}, ${kit(betterAuthDir)}.`);
  console.log(
    SMOKE
      ? "BENCH_SMOKE: one round of one second per app and scenario, to check that every scenario runs; the figures mean nothing."
      : `Node ${process.version}; autocannon on 127.0.0.1, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per app and scenario after a ${WARMUP_SECONDS} s warm-up; medians of the rounds; client and servers on the same ${availableParallelism()} CPUs.`,
  );
}

/** Ours against @auth/sveltekit and Better Auth: each scenario measured once on all three, alternating; two tables. */
async function againstReferences(ours, authjs, betterAuth) {
  const stats = new Map();
  for (const [key] of AGAINST_AUTHJS) stats.set(key, await measure([ours, authjs, betterAuth], key));
  console.log(`\ngatehouse against ${REFERENCE}, SvelteKit (ratio: gatehouse/@auth/sveltekit req/s):`);
  console.table(AGAINST_AUTHJS.map(([key, name]) => row(name, stats.get(key), ours, authjs)));
  console.log(
    `\ngatehouse against ${BETTER_AUTH}, SvelteKit (its svelteKitHandler, session cookie cache on, better-sqlite3; the page's load calls auth.api.getSession; ratio: gatehouse/better-auth req/s; the target is >= 3x, not asserted):`,
  );
  console.table(AGAINST_BETTER_AUTH.map(([key, name]) => row(name, stats.get(key), ours, betterAuth)));
}

/**
 * The page that reads the session against the same page whose load hands it the
 * user without auth (GET /bench-bare-page, SvelteKit only): one server, one cookie.
 */
function withBarePage(app) {
  return [
    { ...app, routes: { page: protectedPage } },
    { ...app, name: "bare page", routes: { page: { ...protectedPage, path: BARE_PAGE_PATH } } },
  ];
}

/** Ours against the bare endpoint of the same app (from withBare), alternating, the same cookie sent to both. */
async function againstBare(framework, [ours, bare]) {
  const stats = await measure([ours, bare], "signedIn");
  console.log(
    `\nThe whole ${framework} app against its limit: GET ${ours.routes.signedIn.path} (signed in) against GET ${BARE_PATH} in the same app, the same JSON and headers with no auth call (ratio: gatehouse/bare req/s; p50 ratio: gatehouse/bare p50, the target is within 1.25x, not asserted):`,
  );
  console.table([row(AGAINST_BARE, stats, ours, bare, { p50Ratio: true })]);
}

/** The page against its limit (from withBarePage): what reading the session adds to a rendered page. */
async function againstBarePage([ours, bare]) {
  const stats = await measure([ours, bare], "page");
  console.log(
    `\nThe SvelteKit page against its limit: GET ${ours.routes.page.path} (signed in; its load calls locals.auth()) against GET ${BARE_PAGE_PATH}, the same page whose load hands it the user with no auth call (ratio: gatehouse/bare page req/s; p50 ratio: gatehouse/bare page p50):`,
  );
  console.table([row(AGAINST_BARE_PAGE, stats, ours, bare, { p50Ratio: true })]);
}

const work = mkdtempSync(join(tmpdir(), "gatehouse-bench-http-"));
const servers = [];
try {
  console.log(`\nWhole apps over HTTP (making, installing and building four apps side by side in ${work}: a few minutes)`);
  const started = performance.now();
  const dirs = await buildApps(work);
  const mail = await startMailCatcher();
  servers.push(mail);
  const [ours, oursSolid, authjs, betterAuth] = await startApps(
    [
      { name: "gatehouse", dir: dirs.kitDir, server: SVELTEKIT.server, routes: authjsRoutes(SVELTEKIT.session) },
      { name: "gatehouse", dir: dirs.solidDir, server: SOLID_START.server, routes: { signedIn: signedInRead(SOLID_START.session) } },
      { name: "@auth/sveltekit", dir: dirs.authjsDir, server: SVELTEKIT_SERVER, routes: authjsRoutes("/auth/session") },
      { name: "better-auth", dir: dirs.betterAuthDir, server: SVELTEKIT_SERVER, routes: BETTER_AUTH_ROUTES },
    ],
    mail.url,
    servers,
  );
  // One at a time: our two apps' sign-up mails arrive at the one mail server in turn.
  ours.cookie = await signInOurs(ours, mail, SVELTEKIT);
  oursSolid.cookie = await signInOurs(oursSolid, mail, SOLID_START);
  authjs.cookie = await signInReference(authjs);
  await signInBetterAuth(betterAuth);
  const kitBare = withBare(ours, await recordBareBody(ours, SVELTEKIT));
  const solidBare = withBare(oursSolid, await recordBareBody(oursSolid, SOLID_START));
  console.log(`Setup (all four apps made, installed, built, started, signed in): ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  printVersions(dirs);
  await againstReferences(ours, authjs, betterAuth);
  await againstBare("SvelteKit", kitBare);
  await againstBarePage(withBarePage(ours));
  await againstBare("SolidStart", solidBare);
} finally {
  await Promise.all(servers.map((server) => (server.stop ?? server.close)()));
  if (process.env.BENCH_KEEP_APPS === "1") console.log(`(apps kept in ${work})`);
  else rmSync(work, { recursive: true, force: true });
}
