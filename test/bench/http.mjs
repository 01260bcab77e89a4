/**
 * Whole apps over HTTP: two built SvelteKit apps (adapter-node) on 127.0.0.1,
 * one made by our CLI (`auth-init --yes`: credentials, JWT sessions, PGlite)
 * and sv's minimal app with `@auth/sveltekit` 1.11.3 (Credentials, JWT
 * sessions), the same `/protected` page in both (see http-apps.mjs).
 *
 * Timed with autocannon from this process, a fixed number of keep-alive
 * connections, the two apps alternating round by round; requests/s, p50 and
 * p99 latency are medians of the rounds. The server's whole path is in the
 * figures: Node's HTTP parser, adapter-node, SvelteKit's routing and hooks,
 * then the auth work. Every response must be a 200 with the expected body
 * (the signed-in user, `null`, the page naming the user); anything else,
 * or a connection error, fails the run.
 *
 *   node test/bench/http.mjs        (also part of `npm run bench`; BENCH_HTTP=0 leaves it out there)
 *   BENCH_HTTP_SECONDS=5 BENCH_HTTP_ROUNDS=9 node test/bench/http.mjs    longer, steadier runs
 *   BENCH_HTTP_CONNECTIONS=64 ...   more connections (default 16)
 *   BENCH_KEEP_APPS=1 ...           keeps the apps' temp folder for a look
 *
 * The apps are made, installed (npm registry) and built once per run, in one
 * temp folder removed at the end. Client and servers share the machine: on
 * 2 vCPUs autocannon takes CPU from the server it measures, the same for both.
 */
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import {
  REFERENCE,
  USER,
  createReferenceApp,
  finishReferenceApp,
  installedVersion,
  makeOurApp,
  signInOurs,
  signInReference,
  startApp,
  startMailCatcher,
} from "./http-apps.mjs";
import { SMOKE } from "./measure.mjs";

// BENCH_SMOKE=1 (see measure.mjs): one round of one second, no warm-up; checks that every scenario runs.
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_HTTP_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 16);
const WARMUP_SECONDS = 1;

// The CSRF endpoint is not here: in SvelteKit both answer GET /auth/csrf with a 404
// (SvelteKit's Origin check guards form POSTs, so both hand CSRF to it). The new
// visitor's request is the session read without a cookie instead. Signed in, every
// request carries the same session cookie, as one user's would: ours decrypts it
// once and then finds it in its bounded token cache (a new user's first request
// pays the decryption); @auth/sveltekit decrypts it and re-issues the cookie
// (a fresh encryption) on every session read, as it does for its users.
const SCENARIOS = [
  {
    name: "session GET (signed in, JWT)",
    path: "/auth/session",
    signedIn: true,
    body: (body) => body.includes(`"email":"${USER.email}"`),
  },
  { name: "session GET (new visitor)", path: "/auth/session", signedIn: false, body: (body) => body.trim() === "null" },
  {
    name: "page with locals.auth() (signed in)",
    path: "/protected",
    signedIn: true,
    body: (body) => body.includes(`Signed in as ${USER.name} (${USER.email})`),
  },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** What is wrong with a run: anything but 200s with the expected body. */
function problems(result) {
  const wrong = [];
  if (result.errors) wrong.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (result.mismatches) wrong.push(`${result.mismatches} responses without the expected body`);
  const statuses = Object.entries(result.statusCodeStats).filter(([status]) => status !== "200");
  if (statuses.length) wrong.push(`statuses other than 200: ${statuses.map(([status, { count }]) => `${status} x${count}`).join(", ")}`);
  if (!result.requests.total) wrong.push("no responses");
  return wrong;
}

/**
 * One autocannon run against one app. Latencies come from autocannon's
 * per-response times (fractions of a millisecond), not its histogram, which
 * rounds to whole milliseconds.
 */
async function hit(app, scenario, seconds) {
  const latencies = [];
  const instance = autocannon({
    url: `${app.base}${scenario.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: scenario.signedIn ? { cookie: app.cookie } : {},
    verifyBody: scenario.body,
  });
  instance.on("response", (_client, _status, _bytes, time) => latencies.push(time));
  const result = await instance;
  const wrong = problems(result);
  if (wrong.length) throw new Error(`${app.name}, ${scenario.name}: ${wrong.join("; ")}\n${app.output().slice(-2000)}`);
  latencies.sort((a, b) => a - b);
  return { rps: result.requests.total / result.duration, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** Both apps, alternating round by round (the machine's speed drifts); one warm-up run each, untimed. */
async function measure(apps, scenario) {
  if (!SMOKE) for (const app of apps) await hit(app, scenario, WARMUP_SECONDS);
  const rounds = new Map(apps.map((app) => [app, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const app of round % 2 === 0 ? apps : [...apps].reverse()) rounds.get(app).push(await hit(app, scenario, SECONDS));
  }
  const stat = (app, key) => median(rounds.get(app).map((run) => run[key]));
  const [ours, theirs] = apps;
  return {
    scenario: scenario.name,
    [`${ours.name} req/s`]: Math.round(stat(ours, "rps")),
    [`${theirs.name} req/s`]: Math.round(stat(theirs, "rps")),
    ratio: `${(stat(ours, "rps") / stat(theirs, "rps")).toFixed(1)}x`,
    [`${ours.name} p50 ms`]: stat(ours, "p50").toFixed(2),
    [`${theirs.name} p50 ms`]: stat(theirs, "p50").toFixed(2),
    [`${ours.name} p99 ms`]: stat(ours, "p99").toFixed(2),
    [`${theirs.name} p99 ms`]: stat(theirs, "p99").toFixed(2),
  };
}

/** Makes and builds both apps; the two make-and-install chains run side by side to save time. */
async function buildApps(work) {
  const [ourDir, theirDir] = await Promise.all([makeOurApp(work), createReferenceApp(work)]);
  await finishReferenceApp(theirDir, ourDir);
  return { ourDir, theirDir };
}

const work = mkdtempSync(join(tmpdir(), "gatehouse-bench-http-"));
const servers = [];
try {
  console.log(`\nWhole SvelteKit apps over HTTP (making, installing and building both in ${work}: a minute or two)`);
  const started = performance.now();
  const { ourDir, theirDir } = await buildApps(work);
  const mail = await startMailCatcher();
  servers.push(mail);
  const ours = { name: "gatehouse", ...(await startApp(ourDir, mail.url)) };
  servers.push(ours);
  const theirs = { name: "@auth/sveltekit", ...(await startApp(theirDir, mail.url)) };
  servers.push(theirs);
  ours.cookie = await signInOurs(ours, mail);
  theirs.cookie = await signInReference(theirs);
  console.log(`Setup (both apps made, installed, built, started, signed in): ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  const kit = (dir) => `@sveltejs/kit ${installedVersion(dir, "@sveltejs/kit")}, adapter-node ${installedVersion(dir, "@sveltejs/adapter-node")}`;
  console.log(`gatehouse app: ${kit(ourDir)}, the checkout's runtime. Reference: ${kit(theirDir)}, ${REFERENCE} (@auth/core ${installedVersion(theirDir, "@auth/core")}).`);
  console.log(
    SMOKE
      ? "BENCH_SMOKE: one round of one second per app and scenario, to check that every scenario runs; the figures mean nothing."
      : `Node ${process.version}; autocannon on 127.0.0.1, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per app and scenario after a ${WARMUP_SECONDS} s warm-up; medians of the rounds; client and servers on the same ${availableParallelism()} CPUs.`,
  );
  const rows = [];
  for (const scenario of SCENARIOS) rows.push(await measure([ours, theirs], scenario));
  console.table(rows);
} finally {
  await Promise.all(servers.map((server) => (server.stop ?? server.close)()));
  if (process.env.BENCH_KEEP_APPS === "1") console.log(`(apps kept in ${work})`);
  else rmSync(work, { recursive: true, force: true });
}
