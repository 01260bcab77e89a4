/**
 * Apps made by the built `auth-init --yes` stop when asked (support/shutdown.ts):
 * each built server, started directly with node as a process manager runs it,
 * opens its database at a request, gets SIGTERM (or SIGINT, Ctrl-C's signal),
 * and exits with code 0 within a few seconds; a PGlite folder is left closed
 * and opens again. Here only the apps no other e2e file builds: SolidStart 2
 * (Vite + Nitro 3) as a JavaScript app on SQLite (.js and .jsx files written by
 * auth-init) and, when DATABASE_URL names a PostgreSQL server, on a database of
 * its own there and on the hosted store (a branch of another such database);
 * SolidStart 1.x (vinxi, Nitro 2) on PGlite (cli-solid-start.test.ts puts its
 * 1.x app on the PostgreSQL server). The SvelteKit apps on PGlite, SQLite,
 * PostgreSQL and the hosted store and SolidStart 2 on PGlite are stopped the
 * same way at the end of cli-sveltekit.test.ts and cli-solid-start.test.ts.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin } from "../cli/support/cli.js";
import { listSourceFiles } from "../../src/engine/project.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { run } from "./support/processes.js";
import { expectCleanStop, shutdownSignals, type ShutdownAdapter } from "./support/shutdown.js";
import { buildNodeBin, buildSolidStart, type SolidStartVersion } from "./support/solid-start-app.js";

/** A SolidStart app: the other e2e files build the SvelteKit ones. */
interface Variant {
  name: string;
  /** SolidStart's major: the fixture app auth-init sets up (`test/cli/fixtures/solid-start-v<major>`). */
  major: SolidStartVersion;
  adapter: ShutdownAdapter;
  /** A JavaScript app (SolidStart 2's fixture in JavaScript): auth-init writes JavaScript into it. */
  javascript?: boolean;
}
interface App {
  variant: Variant;
  dir: string;
  /** The database the app's .env names (postgres). */
  database?: TestDatabase;
}

const serverUrl = process.env.DATABASE_URL;
const VARIANTS: Variant[] = [
  // Nitro 3's server exits once nothing holds the process: a pool's open connections would.
  // In JavaScript: the .js and .jsx files auth-init writes there build and run.
  { name: "solid-start-js-sqlite", major: "2", adapter: "sqlite", javascript: true },
  ...(serverUrl
    ? ([
        { name: "solid-start-postgres", major: "2", adapter: "postgres" },
        { name: "solid-start-hosted-store", major: "2", adapter: "hosted-store" },
      ] as const)
    : []),
  // Nitro 2 (vinxi) exits by itself after its close hook: what matters there is that PGlite was closed cleanly.
  // cli-solid-start.test.ts runs its 1.x app on the PostgreSQL server (on PGlite only without one): this one stays.
  { name: "solid-start-1-pglite", major: "1", adapter: "pglite" },
];

const work = mkdtempSync(join(tmpdir(), "gatehouse-shutdown-"));
const apps = new Map<string, App>();
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
/** npm's options for auth-init's install: metadata from the cache, no engine-strict (SolidStart 2 asks for Node >= 24). */
const NPM = { npm_config_prefer_offline: "true", npm_config_engine_strict: "false", npm_config_audit: "false", npm_config_fund: "false" };

async function makeApp(variant: Variant): Promise<App> {
  const started = Date.now();
  let database: TestDatabase | undefined;
  const adapterArgs = ["--adapter", variant.adapter];
  if (variant.adapter === "postgres" || variant.adapter === "hosted-store") {
    // The hosted store's branch ("main", auth-init's default) is a schema of this database.
    database = await createTestDatabase(serverUrl!, variant.adapter === "postgres" ? "shutdown" : "shutdown_store");
    adapterArgs.push("--database-url", database.url);
  }
  const { major } = variant;
  const dir = join(work, variant.name);
  cpSync(new URL(`../cli/fixtures/solid-start-v${major}${variant.javascript ? "-js" : ""}/`, import.meta.url), dir, { recursive: true });
  const nodeBin = major === "2" ? buildNodeBin() : undefined;
  nodeBin?.catch(() => undefined); // awaited by the build
  await run(process.execPath, [authInitBin, "--yes", ...adapterArgs], { cwd: dir, env: NPM, timeoutMs: 600_000 });
  // The fixture's document has a <title> of its own, which auth-init keeps (and says so); harmless here.
  await buildSolidStart(dir, major, nodeBin);
  console.log(`[e2e] shutdown ${variant.name}: made and built in ${seconds(started)} s`);
  return { variant, dir, database };
}

beforeAll(async () => {
  const started = Date.now();
  // Two at a time (2 CPUs): installs wait on the network while another app builds.
  const queue = [...VARIANTS];
  const failures: unknown[] = [];
  const worker = async () => {
    for (let variant = queue.shift(); variant; variant = queue.shift()) {
      try {
        apps.set(variant.name, await makeApp(variant));
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (failures.length > 0) throw failures[0];
  console.log(`[e2e] shutdown: ${apps.size} apps ready in ${seconds(started)} s`);
}, 900_000);

afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.database?.drop()));
  if (process.env.KEEP_E2E_APPS) console.log(`[e2e] shutdown apps kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}, 120_000);

describe.each(VARIANTS.filter((variant) => variant.javascript))("$name: a JavaScript app", (variant) => {
  it("auth-init wrote JavaScript: no .ts or .tsx file in the app", () => {
    const dir = apps.get(variant.name)!.dir;
    const typescript = listSourceFiles(dir).filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"));
    expect(typescript).toEqual([]);
    expect(existsSync(join(dir, "src", "middleware.js"))).toBe(true);
  });
});

describe.each(VARIANTS)("$name: the built server, its database open", (variant) => {
  it.each(shutdownSignals(variant.adapter))("exits with code 0 within a few seconds of %s, its database closed", async (signal) => {
    await expectCleanStop(apps.get(variant.name)!.dir, { framework: "solid-start", adapter: variant.adapter, signal });
  }, 60_000);
});
