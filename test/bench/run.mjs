/**
 * Side-by-side microbenchmarks of our handler and Auth.js's `@auth/core` (a
 * devDependency used only as the reference), in one process and one run, on the
 * same requests. Runs against the built runtime (`npm run build`), as users get it.
 *
 *   npm run bench            all scenarios
 *   BENCH_TIME=2000 npm run bench   longer runs (ms per task)
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

const scenarios = {
  "session GET (valid JWT)": (impl, s) => () =>
    impl.call(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: s.sessionCookie } })).then(check(200)),
  "CSRF GET (new visitor)": (impl) => () => impl.call(new Request(`${ORIGIN}/auth/csrf`)).then(check(200)),
  "credentials sign-in": (impl, s) => () =>
    impl
      .call(
        new Request(`${ORIGIN}/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.csrfCookie },
          body: s.form,
        }),
      )
      .then(check(302)),
  "session POST (update)": (impl, s) => () =>
    impl
      .call(
        new Request(`${ORIGIN}/auth/session`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: `${s.sessionCookie}; ${s.csrfCookie}` },
          body: JSON.stringify({ csrfToken: s.csrfToken, data: { name: "Ada" } }),
        }),
      )
      .then(check(200)),
};

function check(status) {
  return (response) => {
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}`);
  };
}

const time = Number(process.env.BENCH_TIME ?? 1000);
const states = new Map();
for (const impl of impls) states.set(impl, await prepare(impl));

const rows = [];
for (const [scenario, make] of Object.entries(scenarios)) {
  const bench = new Bench({ time, warmup: true, warmupTime: 200 });
  for (const impl of impls) bench.add(impl.name, make(impl, states.get(impl)));
  await bench.run();
  const [ours, theirs] = bench.tasks.map((t) => t.result);
  for (const task of bench.tasks) if (task.result?.error) throw task.result.error;
  rows.push({
    scenario,
    "gatehouse ops/s": Math.round(ours.throughput.mean),
    "@auth/core ops/s": Math.round(theirs.throughput.mean),
    ratio: `${(ours.throughput.mean / theirs.throughput.mean).toFixed(1)}x`,
    "gatehouse p99 ms": ours.latency.p99.toFixed(3),
    "@auth/core p99 ms": theirs.latency.p99.toFixed(3),
  });
}
console.log(`Node ${process.version}, ${time} ms per task`);
console.table(rows);
