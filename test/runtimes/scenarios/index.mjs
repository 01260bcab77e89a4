/**
 * The runtime matrix's scenarios: the handler's representative behaviour,
 * written once in web standards and the runtime's public exports only, and run
 * unchanged in every runtime of the matrix (test/runtimes/*.test.ts). Each
 * scenario is `run(checks, context)`; `runScenarios` reports each one as it ends.
 */
import { Checks } from "./checks.mjs";
import { credentialsJwt } from "./credentials-jwt.mjs";
import { csrf } from "./csrf.mjs";
import { emailLink } from "./email-link.mjs";
import { memorySession } from "./memory-session.mjs";
import { oidc } from "./oidc.mjs";
import { firstRequest, laterRequest } from "./pool-across-requests.mjs";
import { postgresSession } from "./postgres-session.mjs";

/**
 * `needs`: the context field a scenario cannot run without. `only`: the one
 * runtime it is about; its `steps` are requests of their own, which that
 * runtime's driver sends (runScenarios leaves it out).
 */
export const scenarios = [
  { id: "csrf", title: "CSRF: the token and its cookie; a sign-in without the token or with a wrong one is refused", run: csrf },
  { id: "credentials-jwt", title: "credentials sign-in, JWT session: cookie, read, update, sign-out", run: credentialsJwt },
  { id: "email-link", title: "email link sign-in: the link is sent, following it gives a database session (memory adapter)", run: emailLink },
  { id: "oidc", title: "OIDC sign-in against oidc-provider on 127.0.0.1: discovery, code exchange, ID token, JWT session", run: oidc },
  { id: "memory-session", title: "database session on the memory adapter: sign-in stores it, read returns it, sign-out deletes it", run: memorySession },
  { id: "postgres-session", title: "database session on a PostgreSQL server through pg: migrate, sign-in, read, sign-out", run: postgresSession, needs: "databaseUrl" },
  {
    id: "pg-pool-across-requests",
    title: "a pg Pool kept across requests: the next request fails at once with CrossRequestConnectionError, not a hang",
    steps: [firstRequest, laterRequest],
    needs: "databaseUrl",
    only: "workerd",
  },
];

/** How long one scenario may take before it is reported as hanging (the runtime's process may then be stopped). */
const SCENARIO_TIMEOUT_MS = 30_000;

/**
 * Runs the scenarios one after another (those `context.only` lists, if given, but
 * none `context.except` lists) and calls `report` with each result: `{ id, ok:
 * true, checks }`, `{ id, ok: false, error }` or `{ id, skipped }`.
 */
export async function runScenarios(context, report) {
  const chosen = scenarios.filter(({ id, steps }) => !steps && (context.only?.includes(id) ?? true) && !context.except?.includes(id));
  for (const scenario of chosen) {
    if (scenario.needs && !context[scenario.needs]) report({ id: scenario.id, skipped: `no ${scenario.needs} given` });
    else report(await runChecked(scenario.id, (checks) => scenario.run(checks, context)));
  }
}

/** Runs `fn(checks)` and says how it went: `{ id, ok: true, checks }` or `{ id, ok: false, error }`. */
export async function runChecked(id, fn) {
  const checks = new Checks();
  try {
    await withTimeout(fn(checks), SCENARIO_TIMEOUT_MS);
    return checks.count > 0 ? { id, ok: true, checks: checks.count } : { id, ok: false, error: "the scenario checked nothing" };
  } catch (error) {
    return { id, ok: false, error: `${error?.stack ?? error}\n(after ${checks.count} checks passed)` };
  }
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
