/**
 * One benchmark suite in its own process:
 *
 *   node suite.mjs <core|oidc|email|pglite|postgres> <sequential|concurrent>
 *   node suite.mjs pglite-public <sequential|concurrent>   (PGlite: ours as shipped vs its public API only)
 *   node suite.mjs better-auth[-cookie-cache|-pglite|-postgres] <sequential|concurrent>   (against Better Auth)
 *   node suite.mjs core floor                   (JWT session GET against one bare jose decrypt + encrypt)
 *   node suite.mjs postgres-floor sequential    (PostgreSQL session GET against its one prepared query)
 *   node --expose-gc suite.mjs core memory      (memory per 1,000 sessions)
 *
 * prints the rows as JSON. Separate processes because `@auth/core` keeps module
 * state between configs (once it has seen a credentials provider it refuses every
 * later config with database sessions; once it has seen an email provider, every
 * later config without an adapter), so its suites cannot share a process. Each
 * process loads only its own suite.
 */
import { measure } from "./measure.mjs";

const [name, mode] = process.argv.slice(2);
const open = {
  core: async () => {
    if (mode === "memory") return { memory: (await import("./memory.mjs")).memoryRows };
    if (mode === "floor") {
      const [{ floorImpls }, { floorScenarios }] = await Promise.all([import("./core.mjs"), import("./floor.mjs")]);
      return { impls: await floorImpls(), scenarios: floorScenarios };
    }
    const { coreImpls, coreScenarios } = await import("./core.mjs");
    return { impls: await coreImpls(), scenarios: coreScenarios };
  },
  oidc: async () => (await import("./oidc.mjs")).oidcSuite(mode),
  email: async () => (await import("./email.mjs")).emailSuite(),
  pglite: async () => (await import("./database.mjs")).pgliteSuite(),
  "pglite-public": async () => (await import("./database.mjs")).pglitePublicSuite(),
  postgres: async () => (await import("./database.mjs")).postgresSuite(process.env.DATABASE_URL),
  "postgres-floor": async () => (await import("./database.mjs")).postgresFloorSuite(process.env.DATABASE_URL),
  "better-auth": async () => (await import("./better-auth.mjs")).betterAuthSuite("database"),
  "better-auth-cookie-cache": async () => (await import("./better-auth.mjs")).betterAuthSuite("cookie-cache"),
  "better-auth-pglite": async () => (await import("./better-auth.mjs")).betterAuthSuite("pglite"),
  "better-auth-postgres": async () => (await import("./better-auth.mjs")).betterAuthSuite("postgres", process.env.DATABASE_URL),
};
const suite = await open[name]();
try {
  // The floor is one request at a time: its ratio compares costs, not a busy server.
  // A suite with a `measure` of its own measures more than one pair (the PostgreSQL floor).
  const rows =
    mode === "memory" ? await suite.memory() : suite.measure ? await suite.measure(mode) : await measure(mode === "floor" ? "sequential" : mode, suite.impls, suite.scenarios);
  process.stdout.write(JSON.stringify(rows));
} finally {
  await suite.close?.();
}
