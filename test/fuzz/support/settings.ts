/**
 * Run settings of the fuzz suite. Each property has its own fixed seed, so a run
 * is the same run every time. A failure prints `{ seed, path }`:
 *
 *   FUZZ_SEED=<seed> npx vitest run test/fuzz -t "<property>"   # replay it (with the FUZZ_RUNS of that run)
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz -t "<property>"   # straight to the shrunk case
 *   FUZZ_RUNS=5000 npx vitest run test/fuzz                      # a longer hunt
 *
 * `FUZZ_SEED` replaces every property's seed, `FUZZ_RUNS` every property's number of cases.
 */
import type * as fc from "fast-check";

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}.`);
  return value;
}

const SEED = envInteger("FUZZ_SEED");
const RUNS = envInteger("FUZZ_RUNS");
const PATH = process.env.FUZZ_PATH?.trim() || undefined;

/** `fc.assert` parameters: the property's own seed unless `FUZZ_SEED` is set, `runs` cases unless `FUZZ_RUNS` is. */
export function fuzzParameters<T>(ownSeed: number, runs: number): fc.Parameters<T> {
  return { seed: SEED ?? ownSeed, numRuns: Math.max(1, RUNS ?? runs), ...(PATH ? { path: PATH } : {}) };
}

/** A time limit for one `it`: generous, since shrinking a failure replays many cases. */
export function fuzzTimeout(runs: number): number {
  return 120_000 + (RUNS ?? runs) * 200;
}
