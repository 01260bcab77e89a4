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
