/**
 * The timing of the HTTP benchmark (test/bench/http.mjs): autocannon from this
 * process against apps on 127.0.0.1, a fixed number of keep-alive connections,
 * the apps alternating round by round; requests/s, p50 and p99 latency are
 * medians of the rounds. Every response must be a 200 with the expected body;
 * anything else, or a connection error, fails the run.
 *
 * An app here is a running server plus `name`, `cookie` (its signed-in
 * session's cookies), `routes` (scenario key -> `{ path, signedIn, body }`,
 * `body` the check of each response's body) and, optionally, `renew()`, called
 * before each run to keep its cookie fresh.
 */
import autocannon from "autocannon";
import { SMOKE } from "./measure.mjs";

// BENCH_SMOKE=1 (see measure.mjs): one round of one second, no warm-up; checks that every scenario runs.
export const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_HTTP_SECONDS ?? 3);
export const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_HTTP_ROUNDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 16);
export const WARMUP_SECONDS = 1;

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
 * One autocannon run against one app's route for scenario `key`. Latencies come
 * from autocannon's per-response times (fractions of a millisecond), not its
 * histogram, which rounds to whole milliseconds.
 */
async function hit(app, key, seconds) {
  await app.renew?.();
  const route = app.routes[key];
  const latencies = [];
  const instance = autocannon({
    url: `${app.base}${route.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: route.signedIn ? { cookie: app.cookie } : {},
    verifyBody: route.body,
  });
  instance.on("response", (_client, _status, _bytes, time) => latencies.push(time));
  const result = await instance;
  const wrong = problems(result);
  if (wrong.length) throw new Error(`${app.name}, GET ${route.path} (${key}): ${wrong.join("; ")}\n${app.output().slice(-2000)}`);
  latencies.sort((a, b) => a - b);
  return { rps: result.requests.total / result.duration, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/**
 * Scenario `key` on every app in `apps`, alternating round by round (the
 * machine's speed drifts; the order flips every round), after one untimed
 * warm-up run each. Resolves to each app's medians: a Map app -> { rps, p50, p99 }.
 */
export async function measure(apps, key) {
  if (!SMOKE) for (const app of apps) await hit(app, key, WARMUP_SECONDS);
  const rounds = new Map(apps.map((app) => [app, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const app of round % 2 === 0 ? apps : [...apps].reverse()) rounds.get(app).push(await hit(app, key, SECONDS));
  }
  const stat = (app, field) => median(rounds.get(app).map((run) => run[field]));
  return new Map(apps.map((app) => [app, { rps: stat(app, "rps"), p50: stat(app, "p50"), p99: stat(app, "p99") }]));
}

/**
 * One console.table row: `ours` against `other` in `stats` (from `measure`),
 * the ratio of their requests/s, and with `p50Ratio` also ours p50 over theirs.
 */
export function row(scenario, stats, ours, other, { p50Ratio = false } = {}) {
  const [a, b] = [stats.get(ours), stats.get(other)];
  return {
    scenario,
    [`${ours.name} req/s`]: Math.round(a.rps),
    [`${other.name} req/s`]: Math.round(b.rps),
    ratio: `${(a.rps / b.rps).toFixed(1)}x`,
    [`${ours.name} p50 ms`]: a.p50.toFixed(2),
    [`${other.name} p50 ms`]: b.p50.toFixed(2),
    ...(p50Ratio ? { "p50 ratio": `${(a.p50 / b.p50).toFixed(2)}x` } : {}),
    [`${ours.name} p99 ms`]: a.p99.toFixed(2),
    [`${other.name} p99 ms`]: b.p99.toFixed(2),
  };
}
