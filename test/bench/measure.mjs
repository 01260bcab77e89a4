/**
 * The measuring part of `npm run bench`: both implementations, alternating
 * rounds, medians, ratios. Scenarios and implementations come from the suites.
 */
import { Bench } from "tinybench";

/**
 * BENCH_SMOKE=1 measures nothing: one round of two samples per scenario, no
 * warm-up, so a test can run every script through every scenario (statuses and
 * checks included) in seconds and they cannot rot unseen. Its figures mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";
const time = SMOKE ? 1 : Number(process.env.BENCH_TIME ?? 2000);
const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests handled per timed sample: enough that the harness's own overhead is noise. */
export const BATCH = 64;

export const settings = SMOKE
  ? "BENCH_SMOKE: one round of two samples per scenario, to check that every scenario runs; the figures mean nothing"
  : `${ROUNDS} alternating rounds, ${time} ms in all per scenario and implementation, ${BATCH} requests per sample; building the Request (and, for the OIDC callback, its sign-in and code) is not timed; medians of the rounds`;

/** Handles a batch one after the other (latency) or all at once (throughput of a busy server). */
const runners = {
  sequential: async (impl, requests) => {
    const responses = [];
    for (const request of requests) responses.push(await impl.call(request));
    return responses;
  },
  concurrent: (impl, requests) => Promise.all(requests.map((request) => impl.call(request))),
};

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

/**
 * Each scenario: `{ status, request(state), reusable?, prepare?, check?, samples? }`
 * (`status` a number, or `status(impl)` where the two answer differently);
 * `request` builds one Request (reusable: a GET without body serves every call).
 * A scenario whose requests need fresh state each (an OAuth callback: its code
 * and check cookies are single-use) has `prepare(state, count)` instead, which
 * resolves to the requests of one sample, made before the sample is timed.
 * `check(response)` returns what is wrong with a response of the right status
 * (a 302 to the error page is a 302 too); `samples` lowers the minimum number
 * of samples per round (tinybench's 64) for scenarios whose samples take long.
 * `impls` is `[ours, theirs]` or `[ours, theirs, floor]` (see `aboveTheFloor`),
 * each `{ name, call(request), state }`. The
 * machine's speed drifts, so the two alternate round by round and the median
 * round counts.
 */
export async function measure(mode, impls, scenarios) {
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    const rounds = new Map(impls.map((impl) => [impl, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? impls : [...impls].reverse();
      for (const impl of order) {
        const minimum = SMOKE
          ? { iterations: 2, warmup: false }
          : scenario.samples
            ? { iterations: scenario.samples, warmupIterations: Math.min(4, scenario.samples) }
            : {};
        const bench = new Bench({ time: time / ROUNDS, warmup: true, warmupTime: 100, ...minimum });
        const build = scenario.prepare
          ? () => scenario.prepare(impl.state, BATCH)
          : () => Array.from({ length: BATCH }, () => scenario.request(impl.state));
        // One status for both, or each its own (a form post's redirect against a JSON answer).
        const expected = typeof scenario.status === "function" ? scenario.status(impl) : scenario.status;
        let pending = scenario.reusable ? Array(BATCH).fill(scenario.request(impl.state)) : [];
        bench.add(
          impl.name,
          async () => {
            for (const response of await runners[mode](impl, pending)) {
              if (response.status !== expected) throw new Error(`${impl.name} ${name}: expected ${expected}, got ${response.status}`);
              const wrong = scenario.check?.(response);
              if (wrong) throw new Error(`${impl.name} ${name}: ${wrong}`);
            }
          },
          scenario.reusable ? {} : { beforeEach: async () => void (pending = await build()) },
        );
        await bench.run();
        const result = bench.tasks[0].result;
        if (result?.error) throw result.error;
        rounds.get(impl).push(result.latency);
      }
    }
    const opsPerSecond = (impl) => median(rounds.get(impl).map((latency) => (1000 / latency.mean) * BATCH));
    // One request at a time: the mean per request of a sample at that percentile; in flight: the whole batch.
    const percentile = (impl, key) => median(rounds.get(impl).map((latency) => (mode === "sequential" ? latency[key] / BATCH : latency[key])));
    const [ours, theirs, floor] = impls;
    rows.push({
      scenario: name,
      [`${ours.name} ops/s`]: Math.round(opsPerSecond(ours)),
      [`${theirs.name} ops/s`]: Math.round(opsPerSecond(theirs)),
      ratio: `${(opsPerSecond(ours) / opsPerSecond(theirs)).toFixed(1)}x`,
      [`${ours.name} p50 ms`]: percentile(ours, "p50").toFixed(3),
      [`${theirs.name} p50 ms`]: percentile(theirs, "p50").toFixed(3),
      [`${ours.name} p99 ms`]: percentile(ours, "p99").toFixed(3),
      [`${theirs.name} p99 ms`]: percentile(theirs, "p99").toFixed(3),
      ...(floor ? aboveTheFloor(ours, theirs, floor, percentile, opsPerSecond) : {}),
    });
  }
  return rows;
}

/**
 * With a third implementation, the floor (work no handler can skip, e.g. the
 * identity provider's token endpoint, or a scenario's database queries): its
 * p50, the ratio of what each handler adds on top of it (median against
 * median), and the floor's rate against theirs: the most any handler could be
 * ahead of theirs, one that did nothing but the floor's work.
 */
function aboveTheFloor(ours, theirs, floor, percentile, opsPerSecond) {
  const base = percentile(floor, "p50");
  const own = (impl) => percentile(impl, "p50") - base;
  return {
    [`${floor.name} p50 ms`]: base.toFixed(3),
    [`${ours.name} above it ms`]: own(ours).toFixed(3),
    [`${theirs.name} above it ms`]: own(theirs).toFixed(3),
    "ratio above the floor": own(ours) > 0 ? `${(own(theirs) / own(ours)).toFixed(1)}x` : "-",
    "floor's ratio": `${(opsPerSecond(floor) / opsPerSecond(theirs)).toFixed(1)}x`,
  };
}

export function cookiePairs(response) {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}
