/**
 * The measuring part of `npm run bench`: both implementations, alternating
 * rounds, medians, ratios. Scenarios and implementations come from the suites.
 */
import { Bench } from "tinybench";

const time = Number(process.env.BENCH_TIME ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests handled per timed sample: enough that the harness's own overhead is noise. */
export const BATCH = 64;

export const settings = `${ROUNDS} alternating rounds, ${time} ms in all per scenario and implementation, ${BATCH} requests per sample; building the Request is not timed; medians of the rounds`;

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
 * Each scenario: `{ status, request(state), reusable? }`; `request` builds one
 * Request (reusable: a GET without body serves every call). `impls` is
 * `[ours, theirs]`, each `{ name, call(request), state }`. The machine's speed
 * drifts, so the two alternate round by round and the median round counts.
 */
export async function measure(mode, impls, scenarios) {
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    const rounds = new Map(impls.map((impl) => [impl, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? impls : [...impls].reverse();
      for (const impl of order) {
        const bench = new Bench({ time: time / ROUNDS, warmup: true, warmupTime: 100 });
        const build = () => Array.from({ length: BATCH }, () => scenario.request(impl.state));
        let pending = scenario.reusable ? Array(BATCH).fill(scenario.request(impl.state)) : [];
        bench.add(
          impl.name,
          async () => {
            for (const response of await runners[mode](impl, pending)) {
              if (response.status !== scenario.status) {
                throw new Error(`${impl.name} ${name}: expected ${scenario.status}, got ${response.status}`);
              }
            }
          },
          scenario.reusable ? {} : { beforeEach: () => void (pending = build()) },
        );
        await bench.run();
        const result = bench.tasks[0].result;
        if (result?.error) throw result.error;
        rounds.get(impl).push(result.latency);
      }
    }
    const opsPerSecond = (impl) => median(rounds.get(impl).map((latency) => (1000 / latency.mean) * BATCH));
    const p99 = (impl) => median(rounds.get(impl).map((latency) => (mode === "sequential" ? latency.p99 / BATCH : latency.p99)));
    const [ours, theirs] = impls;
    rows.push({
      scenario: name,
      [`${ours.name} ops/s`]: Math.round(opsPerSecond(ours)),
      [`${theirs.name} ops/s`]: Math.round(opsPerSecond(theirs)),
      ratio: `${(opsPerSecond(ours) / opsPerSecond(theirs)).toFixed(1)}x`,
      [`${ours.name} p99 ms`]: p99(ours).toFixed(3),
      [`${theirs.name} p99 ms`]: p99(theirs).toFixed(3),
    });
  }
  return rows;
}

export function cookiePairs(response) {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}
