/**
 * One runtime's column of the matrix as vitest tests: install the pinned
 * runtime (cached), start the peers, run every scenario in that runtime's own
 * process once, then report each scenario as a test of its own with the
 * runtime's failure message. Each test file (`<runtime>.test.ts`) is one call,
 * so vitest's workers run runtimes side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarios } from "../scenarios/index.mjs";
import { installPinned } from "./install.js";
import { startPeers, type MatrixPeers } from "./peers.js";
import { runMatrix, type MatrixRun } from "./run-matrix.js";
import { needsInstall, RUNTIMES, type RuntimeId } from "./runtimes.js";

/** Every scenario together, in one process; a scenario alone is bounded at 30 s inside (scenarios/index.mjs). */
const RUN_TIMEOUT_MS = 120_000;
const NO_DATABASE = "skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh)";

export function describeRuntime(id: RuntimeId): void {
  const runtime = RUNTIMES[id];
  const hasDatabase = Boolean(process.env.DATABASE_URL);

  describe(`${runtime.label} (${runtime.spec}) runs the handler`, () => {
    let peers: MatrixPeers | undefined;
    let run: MatrixRun | undefined;
    /** Why there is no run: an install that failed, a peer that did not start. Every test then fails with it. */
    let setupError: Error | undefined;

    beforeAll(async () => {
      try {
        // Installing (the first time) while the peers start.
        const [installDir, started] = await Promise.all([needsInstall(runtime) ? installPinned(runtime.spec) : undefined, startPeers(id)]);
        peers = started;
        run = await runMatrix(runtime.command(installDir, JSON.stringify(peers.context)), RUN_TIMEOUT_MS);
      } catch (error) {
        setupError = error as Error;
      }
    }, 420_000);
    afterAll(async () => {
      await peers?.close();
    });

    /** The run, or the reason there is none. */
    function finished(): MatrixRun {
      if (setupError) throw setupError;
      return run!;
    }

    const builtins = runtime.reports.nodeBuiltins ? "with" : "without";
    it(`is ${runtime.reports.runtime} (${builtins} Node's built-in modules), installed as pinned, and runs every scenario to the end`, () => {
      const { runtime: reported, done, output, durationMs } = finished();
      expect(reported, output).toEqual(runtime.reports);
      expect(done, output).toBe(true);
      console.log(`[runtime matrix] ${runtime.reports.runtime}: every scenario in ${(durationMs / 1000).toFixed(1)} s`);
    });

    for (const scenario of scenarios.filter(({ only }) => only === undefined || only === id)) {
      const skip = scenario.needs === "databaseUrl" && !hasDatabase;
      it.skipIf(skip)(skip ? `${scenario.title} (${NO_DATABASE})` : scenario.title, () => {
        const { results, output } = finished();
        const result = results.get(scenario.id);
        if (result === undefined) throw new Error(`${runtime.label} reported nothing for "${scenario.id}" (the run ended before it).\n${output}`);
        if ("skipped" in result) throw new Error(`${runtime.label} skipped "${scenario.id}": ${result.skipped}`);
        if (!result.ok) throw new Error(`${runtime.label}: ${result.error}`);
        expect(result.checks).toBeGreaterThan(0);
      });
    }
  });
}
