/**
 * A SvelteKit app that keeps its database with Kysely and migrates it with
 * kysely-ctl (the fixture test/cli/fixtures/sveltekit-kysely: a db module on
 * PostgresDialect, `.config/kysely.config.ts`, a migration of its own), on a
 * database of its own on the PostgreSQL server, not yet installed; then
 * `auth-init --yes` of this checkout run in it (which installs everything,
 * kysely-ctl too) and the app built once.
 */
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { authInitBin, root } from "../../cli/support/cli.js";
import { run, scratchApp, WITHOUT_TEST_DATABASE } from "./processes.js";

export interface KyselySvelteKitApp {
  dir: string;
  /** What auth-init printed. */
  initOutput: string;
  buildOutput: string;
  remove: () => void;
}

export async function makeKyselyApp(name: string, databaseUrl: string): Promise<KyselySvelteKitApp> {
  const { dir, remove } = scratchApp("kysely", name);
  try {
    const started = Date.now();
    cpSync(join(root, "test/cli/fixtures/sveltekit-kysely"), dir, { recursive: true });
    writeFileSync(join(dir, ".env"), `DATABASE_URL="${databaseUrl}"\n`, { mode: 0o600 });
    const initOutput = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, timeoutMs: 600_000 });
    const initialized = Date.now();
    // A production build, as `npm run build` is in a shell: vitest's NODE_ENV=test would make Vite build a development one.
    const buildOutput = await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production", ...WITHOUT_TEST_DATABASE } });
    const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
    console.log(`[e2e] ${name}: auth-init (pack + install) ${seconds(started, initialized)}, build ${seconds(initialized, Date.now())}`);
    return { dir, initOutput, buildOutput, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
