/**
 * One benchmark suite in its own process: `node suite.mjs <core|pglite|postgres> <sequential|concurrent>`
 * prints the rows as JSON. Separate processes because `@auth/core` keeps module
 * state between configs (once it has seen a credentials provider it refuses every
 * later config with database sessions), so its suites cannot share a process.
 */
import { coreImpls, coreScenarios } from "./core.mjs";
import { pgliteSuite, postgresSuite } from "./database.mjs";
import { measure } from "./measure.mjs";

const [name, mode] = process.argv.slice(2);
const open = {
  core: async () => ({ impls: await coreImpls(), scenarios: coreScenarios }),
  pglite: pgliteSuite,
  postgres: () => postgresSuite(process.env.DATABASE_URL),
};
const suite = await open[name]();
try {
  process.stdout.write(JSON.stringify(await measure(mode, suite.impls, suite.scenarios)));
} finally {
  await suite.close?.();
}
