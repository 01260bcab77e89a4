import type { ProjectSnapshot } from "../../../src/engine/project.js";
import { packageTemplates } from "../../../src/engine/templates.js";
import type { InitAnswers } from "../../../src/generators/init/answers.js";
import { planInit, type InitInput } from "../../../src/generators/init/plan.js";
import type { Plan } from "../../../src/plan/plan.js";

/** What an ORM detection found (`detectDrizzle`, `detectPrisma`), or a test failure saying what it found instead. */
type Lookup<App> = { found: false } | { found: true; app: App } | { found: true; problem: string };

/** The app the detection found; fails the test with the lookup when there is none. */
export function foundApp<App>(lookup: Lookup<App>): App {
  if (!lookup.found || !("app" in lookup)) throw new Error(`expected an app, got ${JSON.stringify(lookup)}`);
  return lookup.app;
}

/** Why the detection refused the app; fails the test with the lookup when it did not. */
export function problemOf<App>(lookup: Lookup<App>): string {
  if (!lookup.found || !("problem" in lookup)) throw new Error(`expected a problem, got ${JSON.stringify(lookup)}`);
  return lookup.problem;
}

/** auth-init's plan for an ORM app as the CLI makes it (npm, a fixed secret): `setup` is the ORM's part of the input, `{ drizzle }`, `{ prisma }` or `{ kysely }`. */
export function planOrmInit(answers: InitAnswers, project: ProjectSnapshot, setup: Pick<InitInput, "drizzle" | "prisma" | "kysely">): Plan {
  return planInit({ answers, project, packageManager: "npm", templates: packageTemplates, runtimeSpec: "^0.1.0", cliSpec: "^0.1.0", secret: "TEST_SECRET_0123456789_abcdefghijklmnopqrstu", ...setup });
}

/** The text the plan gives `path`, or undefined when it leaves the file as it is. */
export function planned(plan: Plan, path: string): string | undefined {
  return plan.changes.find((change) => change.path === path)?.after;
}
