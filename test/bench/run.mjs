/**
 * Side-by-side microbenchmarks of our handler and Auth.js's `@auth/core` (a
 * devDependency used only as the reference), in one process and one run, on the
 * same requests. Runs against the built runtime (`npm run build`), as users get it.
 *
 *   npm run bench            all scenarios
 *   BENCH_TIME=5000 BENCH_ROUNDS=9 npm run bench   longer, steadier runs
 */
import { Bench } from "tinybench";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { Credentials as GatehouseCredentials } from "@gatehouse/runtime/providers";
import { Auth as AuthJs } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";

const ORIGIN = "http://localhost:3000";
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
const USER = { id: "user-1", name: "Ada Lovelace", email: "ada@example.com", image: null };
const authorize = (c) => (c.username === "ada" && c.password === "pw" ? { ...USER } : null);

function makeImpl(name, Auth, Credentials) {
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: { error() {}, warn() {}, debug() {} },
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
  };
  return { name, config, call: (request) => Auth(request, config) };
}

const impls = [
  makeImpl("gatehouse", GatehouseAuth, GatehouseCredentials),
  makeImpl("@auth/core", AuthJs, AuthJsCredentials),
];

function cookiePairs(response) {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** Signs in once per implementation to get real CSRF and session cookies. */
async function prepare(impl) {
  const csrfResponse = await impl.call(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrfResponse.json();
  const csrfCookie = cookiePairs(csrfResponse).find((c) => c.includes("csrf-token"));
  const form = new URLSearchParams({ username: "ada", password: "pw", csrfToken }).toString();
  const signIn = await impl.call(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: form,
    }),
  );
  const sessionCookie = cookiePairs(signIn).find((c) => c.includes("session-token"));
  if (signIn.status !== 302 || !sessionCookie) throw new Error(`${impl.name}: sign-in failed (${signIn.status})`);
  return { csrfToken, csrfCookie, sessionCookie, form };
}

/** Each scenario builds the request (outside the timed part: a framework builds it anyway) and the expected status. */
const scenarios = {
  "session GET (valid JWT)": {
    status: 200,
    // A GET has no body to consume, so one Request serves every call (no harness garbage to collect).
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: s.sessionCookie } }),
  },
  "CSRF GET (new visitor)": { status: 200, reusable: true, request: () => new Request(`${ORIGIN}/auth/csrf`) },
  "CSRF GET (with its cookie)": {
    status: 200,
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/csrf`, { headers: { cookie: s.csrfCookie } }),
  },
  "credentials sign-in": {
    status: 302,
    request: (s) =>
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.csrfCookie },
        body: s.form,
      }),
  },
  "session POST (update)": {
    status: 200,
    request: (s) =>
      new Request(`${ORIGIN}/auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: `${s.sessionCookie}; ${s.csrfCookie}` },
        body: JSON.stringify({ csrfToken: s.csrfToken, data: { name: "Ada" } }),
      }),
  },
};

const time = Number(process.env.BENCH_TIME ?? 2000);
const states = new Map();
for (const impl of impls) states.set(impl, await prepare(impl));

/** Requests handled per timed sample: enough that the harness's own overhead is noise. */
const BATCH = 64;

/** Handles a batch one after the other (latency) or all at once (throughput of a busy server). */
const runners = {
  sequential: async (impl, requests) => {
    const responses = [];
    for (const request of requests) responses.push(await impl.call(request));
    return responses;
  },
  concurrent: (impl, requests) => Promise.all(requests.map((request) => impl.call(request))),
};

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

/**
 * Runs every scenario for both implementations, in alternating rounds (this
 * machine's speed drifts; alternating spreads the drift over both), and reports
 * the median round. One row per scenario.
 */
async function measure(mode) {
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    const rounds = new Map(impls.map((impl) => [impl, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? impls : [...impls].reverse();
      for (const impl of order) {
        const bench = new Bench({ time: time / ROUNDS, warmup: true, warmupTime: 100 });
        const build = () => Array.from({ length: BATCH }, () => scenario.request(states.get(impl)));
        let pending = scenario.reusable ? Array(BATCH).fill(scenario.request(states.get(impl))) : [];
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
      "gatehouse ops/s": Math.round(opsPerSecond(ours)),
      "@auth/core ops/s": Math.round(opsPerSecond(theirs)),
      ratio: `${(opsPerSecond(ours) / opsPerSecond(theirs)).toFixed(1)}x`,
      "gatehouse p99 ms": p99(ours).toFixed(3),
      "@auth/core p99 ms": p99(theirs).toFixed(3),
    });
  }
  return rows;
}

console.log(`Node ${process.version}; per scenario and implementation ${ROUNDS} alternating rounds, ${time} ms in all, ${BATCH} requests per sample; building the Request is not timed; medians of the rounds.`);
console.log("\nOne request at a time (p99: mean per request of the slowest 1% of batches):");
console.table(await measure("sequential"));
console.log(`\n${BATCH} requests in flight, as on a busy server (p99: whole batch):`);
console.table(await measure("concurrent"));
