/**
 * A SvelteKit app with its database set up by `sv add drizzle` (PostgreSQL
 * through postgres.js, or SQLite through better-sqlite3), not yet installed, then
 * `auth-init --yes` of this checkout run in it (which installs everything) as a user runs it (it packs this
 * checkout's runtime into the app), then built once. The auth tables are the
 * app's to create: the test runs the commands auth-init printed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { authInitBin } from "../../cli/support/cli.js";
import { run, scratchApp, WITHOUT_TEST_DATABASE } from "./processes.js";

export type DrizzleDialect = "postgres" | "sqlite";

/** The sv auth-init itself creates apps with (src/engine/create-app.ts). */
const SV = "sv@0.17.1";

/** sv's drizzle add-on options, as its prompts would answer them. */
const SV_DRIZZLE: Record<DrizzleDialect, string> = {
  postgres: "drizzle=database:postgresql+postgresql:postgres.js+docker:no",
  sqlite: "drizzle=database:sqlite+sqlite:better-sqlite3",
};

/**
 * sv 0.17.1 asks for better-sqlite3 ^13, which needs Node.js 22 (npm refuses it on
 * Node 20 with EBADENGINE, and 13's binary crashes there): on Node 20 a user asks
 * for ^12 before installing, and so does this. auth-init's own install then
 * installs the app's packages with ours, as it does for a user who never
 * installed after `sv create --no-install`.
 */
function pinForNode20(dir: string, dialect: DrizzleDialect): void {
  if (dialect !== "sqlite" || Number(process.versions.node.split(".")[0]) >= 22) return;
  const path = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(path, "utf8")) as { dependencies: Record<string, string> };
  pkg.dependencies["better-sqlite3"] = "^12.4.1";
  writeFileSync(path, `${JSON.stringify(pkg, null, "\t")}\n`);
}

export interface DrizzleSvelteKitApp {
  dir: string;
  /** What auth-init printed. */
  initOutput: string;
  buildOutput: string;
  remove: () => void;
}

/**
 * Makes, sets up and builds the app. `databaseUrl` replaces sv's placeholder
 * DATABASE_URL in .env (PostgreSQL); SQLite keeps sv's `local.db`.
 */
export async function makeDrizzleApp(name: string, dialect: DrizzleDialect, databaseUrl?: string): Promise<DrizzleSvelteKitApp> {
  const { work, dir, remove } = scratchApp("drizzle", name);
  try {
    const started = Date.now();
    await run("npx", ["-y", SV, "create", name, "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", SV_DRIZZLE[dialect], "--no-install"], { cwd: work });
    if (databaseUrl) setDatabaseUrl(dir, databaseUrl);
    pinForNode20(dir, dialect);
    const installed = Date.now();
    const initOutput = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, timeoutMs: 600_000 });
    const initialized = Date.now();
    // A production build, as `npm run build` is in a shell: vitest's NODE_ENV=test would make Vite build a development one.
    const buildOutput = await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production", ...WITHOUT_TEST_DATABASE } });
    const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
    console.log(
      `[e2e] ${name}: sv create ${seconds(started, installed)}, auth-init (pack + install) ${seconds(installed, initialized)}, build ${seconds(initialized, Date.now())}`,
    );
    return { dir, initOutput, buildOutput, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** sv writes a placeholder (`postgres://user:password@host:port/db-name`): the test's database instead. */
function setDatabaseUrl(dir: string, url: string): void {
  const path = join(dir, ".env");
  const text = readFileSync(path, "utf8");
  if (!/^DATABASE_URL=.*$/m.test(text)) throw new Error(`sv wrote no DATABASE_URL in .env:\n${text}`);
  writeFileSync(path, text.replace(/^DATABASE_URL=.*$/m, `DATABASE_URL="${url}"`));
}
