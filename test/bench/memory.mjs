/**
 * Memory per 1,000 sessions: the heap a handler still holds, after a full
 * garbage collection, once 1,000 distinct signed-in users have each had their
 * JWT session read (`GET /auth/session`) once: state kept per session in the
 * process (our decoded-token cache, bounded at 1,000 entries per config). What
 * a request only allocates and drops is not counted, nor compiled code (see
 * `heapAfterGc`). Needs `node --expose-gc` (run.mjs passes it).
 *
 * Each measurement starts from a fresh config (both handlers keep their state
 * per config), after one request that resolves it (keys, cookie names), so only
 * what the requests add is counted; each reads sessions no handler has seen.
 * The floor row is the same 1,000 requests with one session: what the method
 * counts that is not per session (JIT feedback, heap noise). The two handlers
 * alternate; the median of the repeats counts. `BENCH_MEMORY_SESSIONS=3000`
 * shows the cache's bound.
 */
import v8 from "node:v8";
import { Auth as AuthJs } from "@auth/core";
import { encode } from "@auth/core/jwt";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { ORIGIN, SECRET, quiet } from "./core.mjs";
import { SMOKE } from "./measure.mjs";

// BENCH_SMOKE=1 (see measure.mjs): 100 sessions, once, to check that the method runs.
export const SESSIONS = SMOKE ? 100 : Number(process.env.BENCH_MEMORY_SESSIONS ?? 1000);
const REPEATS = SMOKE ? 1 : Number(process.env.BENCH_MEMORY_REPEATS ?? 5);
const COOKIE = "authjs.session-token";

const handlers = [
  { name: "gatehouse", Auth: GatehouseAuth },
  { name: "@auth/core", Auth: AuthJs },
];

/** `count` session cookies of distinct users (made with Auth.js's encoder: both handlers read its tokens). */
async function sessionCookies(count, first) {
  const cookies = [];
  for (let i = first; i < first + count; i++) {
    const token = { sub: `user-${i}`, name: `User ${i}`, email: `user-${i}@example.com`, picture: null };
    cookies.push(`${COOKIE}=${await encode({ token, secret: SECRET, salt: COOKIE, maxAge: 30 * 86_400 })}`);
  }
  return cookies;
}

async function read(call, cookie) {
  const response = await call(new Request(`${ORIGIN}/auth/session`, cookie ? { headers: { cookie } } : {}));
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`session GET answered ${response.status}`);
}

/**
 * The heap in use after a full collection, less compiled code and bytecode: the
 * JIT keeps compiling and tiering up as requests run, which is not state kept
 * per session (a heap snapshot of @auth/core, which keeps nothing per session,
 * showed compiled code as nearly all of what it "retained").
 */
function heapAfterGc() {
  globalThis.gc();
  globalThis.gc();
  const code = v8.getHeapCodeStatistics();
  return process.memoryUsage().heapUsed - code.code_and_metadata_size - code.bytecode_and_metadata_size;
}

/** Bytes the handler still holds after reading `cookies`, one after the other, through a config of its own. */
async function retained(Auth, cookies) {
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet, providers: [] };
  const call = (request) => Auth(request, config);
  await read(call);
  const before = heapAfterGc();
  for (const cookie of cookies) await read(call, cookie);
  const after = heapAfterGc();
  // The config (and what it holds) must still be reachable at the second count.
  if (!config.secret) throw new Error("unreachable");
  return after - before;
}

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

export async function memoryRows() {
  if (typeof globalThis.gc !== "function") throw new Error("the memory suite needs node --expose-gc");
  let next = 0;
  const fresh = () => sessionCookies(SESSIONS, (next += SESSIONS) - SESSIONS);
  // The same requests but one session: what is not kept per session (code, feedback, one cache entry).
  const same = async () => Array(SESSIONS).fill((await sessionCookies(1, (next += 1) - 1))[0]);
  // Warm-up: the code paths compiled and their one-time state made before anything is counted.
  for (const { Auth } of handlers) await retained(Auth, await fresh());
  const bytes = new Map(handlers.map((h) => [h, { distinct: [], same: [] }]));
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (const handler of repeat % 2 === 0 ? handlers : [...handlers].reverse()) {
      bytes.get(handler).same.push(await retained(handler.Auth, await same()));
      bytes.get(handler).distinct.push(await retained(handler.Auth, await fresh()));
    }
  }
  const kb = (handler, kind) => median(bytes.get(handler)[kind]) / 1024;
  const [ours, theirs] = handlers;
  // A figure within about twice the floor is heap noise, not state: a ratio to it would say nothing.
  const floor = Math.max(kb(ours, "same"), kb(theirs, "same"), 0);
  const ratio = (kind) =>
    kind === "same" ? "-" : kb(theirs, kind) < 2 * floor + 16 ? `- (${theirs.name} at the floor)` : `${(kb(ours, kind) / kb(theirs, kind)).toFixed(1)}x`;
  const row = (scenario, kind) => ({
    scenario,
    [`${ours.name} KB`]: Math.round(kb(ours, kind)),
    [`${theirs.name} KB`]: Math.round(kb(theirs, kind)),
    ratio: ratio(kind),
  });
  const count = SESSIONS.toLocaleString("en");
  return [row(`session GET (valid JWT), ${count} distinct sessions`, "distinct"), row(`  the floor: one session read ${count} times`, "same")];
}
