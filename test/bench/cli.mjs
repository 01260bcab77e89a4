/**
 * CLI cold starts, side by side: our `auth` and Better Auth's CLI
 * (`@better-auth/cli`, the one users would otherwise reach for), each command
 * started as a fresh process, the two alternating run by run; medians and p90.
 * `auth-init --yes --no-install` is timed into a fresh copy of sv's minimal app
 * each run. Better Auth's CLI is installed once into the temp folder (it is not a
 * dependency of this repository); BENCH_CLI_REFERENCE=0 leaves it out.
 *
 * Every command runs without NODE_EXTRA_CA_CERTS: Node reads and parses that CA
 * file at every start, before any code of the CLI runs (on the project's VM, where
 * the sandbox sets it to the system bundle, it doubles Node's own start). When it
 * is set, two more rows show what it costs, with it kept.
 *
 *   node test/bench/cli.mjs          (also the last part of `npm run bench`)
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMOKE } from "./measure.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
// BENCH_SMOKE=1 (see measure.mjs): one run of each, to check that every command runs.
const RUNS = SMOKE ? 1 : Number(process.env.BENCH_CLI_RUNS ?? 15);
const REFERENCE = "@better-auth/cli@1.4.22";
const AUTH = join(ROOT, "bin/auth.js");
const AUTH_INIT = join(ROOT, "bin/auth-init.js");
const FIXTURE = join(ROOT, "test/cli/fixtures/sveltekit-minimal");

function referenceBin() {
  if (process.env.BENCH_CLI_REFERENCE === "0") return undefined;
  const prefix = join(tmpdir(), "gatehouse-bench-better-auth-cli");
  const bin = join(prefix, "node_modules/.bin/better-auth");
  if (!existsSync(bin)) {
    console.log(`(installing ${REFERENCE} into ${prefix} once, for the comparison: a minute or two)`);
    mkdirSync(prefix, { recursive: true });
    const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", prefix, REFERENCE], { stdio: "ignore" });
    if (install.status !== 0 || !existsSync(bin)) {
      console.log(`(could not install ${REFERENCE}: the comparison is left out)`);
      return undefined;
    }
  }
  return bin;
}

const EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
const cleanEnv = { ...process.env };
delete cleanEnv.NODE_EXTRA_CA_CERTS;

/** Wall time of one run, in ms; `prepare` (untimed) returns the cwd; `env` defaults to the clean one. */
function timeRun(command, args, prepare, env = cleanEnv) {
  const cwd = prepare ? prepare() : tmpdir();
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr}`);
  return elapsed;
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const ms = (value) => (value === undefined ? "-" : `${value.toFixed(0)} ms`);

const work = mkdtempSync(join(tmpdir(), "gatehouse-bench-cli-"));
let copies = 0;
const freshApp = () => {
  const dir = join(work, `app-${copies++}`);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
};

const reference = referenceBin();
const scenarios = [
  // The floor every Node CLI stands on: starting Node itself, with nothing to load.
  { name: "node -e 0 (Node's own start)", ours: [process.execPath, ["-e", "0"]], note: "-" },
  { name: "--help", ours: [AUTH, ["--help"]], theirs: reference && [reference, ["--help"]] },
  { name: "secret (print one)", ours: [AUTH, ["secret", "--raw"]], theirs: reference && [reference, ["secret"]] },
  { name: "secret (write .env)", ours: [AUTH, ["secret", "--yes"]], prepare: freshApp },
  { name: "auth-init --yes --no-install", ours: [AUTH_INIT, ["--yes", "--no-install", "--runtime", "^0.1.0"]], prepare: freshApp, note: "better-auth init: interactive only" },
];
if (EXTRA_CA_CERTS) {
  const kept = { ...process.env };
  scenarios.push(
    { name: "node -e 0, NODE_EXTRA_CA_CERTS kept", ours: [process.execPath, ["-e", "0"]], env: kept, note: "-" },
    { name: "secret (print one), NODE_EXTRA_CA_CERTS kept", ours: [AUTH, ["secret", "--raw"]], env: kept, theirs: reference && [reference, ["secret"]] },
  );
}

console.log(`\nCLI cold start (Node ${process.version}; ${RUNS} runs each, alternating; a new process per run):`);
const rows = [];
try {
  for (const scenario of scenarios) {
    const times = { ours: [], theirs: [] };
    timeRun(...scenario.ours, scenario.prepare, scenario.env); // warm the file cache once, untimed
    if (scenario.theirs) timeRun(...scenario.theirs, undefined, scenario.env);
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? ["ours", "theirs"] : ["theirs", "ours"];
      for (const side of order) {
        if (!scenario[side]) continue;
        times[side].push(timeRun(...scenario[side], side === "ours" ? scenario.prepare : undefined, scenario.env));
      }
    }
    const ours = quantile(times.ours, 0.5);
    const theirs = times.theirs.length ? quantile(times.theirs, 0.5) : undefined;
    rows.push({
      command: scenario.name,
      "gatehouse p50": ms(ours),
      "gatehouse p90": ms(quantile(times.ours, 0.9)),
      "better-auth p50": theirs === undefined ? scenario.note ?? "-" : ms(theirs),
      ratio: theirs === undefined ? "-" : `${(theirs / ours).toFixed(1)}x`,
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.table(rows);
const p50 = (name) => rows.find((row) => row.command === name)["gatehouse p50"];
console.log(
  `Targets: auth secret and auth --help under 150 ms median (${p50("secret (print one)")}, ${p50("--help")}; Node's own start is ${p50("node -e 0 (Node's own start)")} of it); auth-init --yes --no-install under 2 s (${p50("auth-init --yes --no-install")}).`,
);
if (EXTRA_CA_CERTS) {
  console.log(
    `NODE_EXTRA_CA_CERTS (${EXTRA_CA_CERTS}) is set here and was removed for the rows above: Node loads that file at every start (node -e 0 ${p50("node -e 0, NODE_EXTRA_CA_CERTS kept")} with it, ${p50("node -e 0 (Node's own start)")} without).`,
  );
}
