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
 *
 * The SolidStart 2 apps ask for the same packages but their database driver
 * (and typescript): one is installed from npm by auth-init; the others start
 * from a copy of its node_modules and lockfile, so auth-init's own install in
 * them only adds and removes the difference (a few seconds on an idle machine,
 * where a whole install takes half a minute).
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
import { slots } from "./support/slots.js";
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

/** Resolves to the folder of the SolidStart 2 app installed from npm once auth-init has installed it; rejects if that fails. */
let installedV2: Promise<string> | undefined;
/** Builds run two at a time (2 CPUs; each takes most of one): installs and copies go on beside them. */
const buildSlots = slots(2);
/** Written by the build and the dev server: not carried from one app into another. */
const CACHES = [".vite", ".cache", ".nitro", ".vinxi"];

async function makeApp(variant: Variant, first?: { installed: (dir: string) => void }): Promise<App> {
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
  if (major === "2" && !first) {
    const from = await installedV2!;
    // cp -a, not Node's fs.cp: links kept as they are (node_modules/.bin's relative ones then point into this
    // app's node_modules), in a fifth of fs.cp's time and CPU on these 11,000 files. Not cpSync either: it would
    // block this process, which reads the output of the other apps' installs and builds meanwhile.
    await run("cp", ["-a", join(from, "node_modules"), join(from, "package-lock.json"), dir], { cwd: work });
    // The first app's build may have begun writing its caches meanwhile.
    for (const cache of CACHES) rmSync(join(dir, "node_modules", cache), { recursive: true, force: true });
  }
  await run(process.execPath, [authInitBin, "--yes", ...adapterArgs], { cwd: dir, env: NPM, timeoutMs: 600_000 });
  const initialized = seconds(started);
  first?.installed(dir);
  // The fixture's document has a <title> of its own, which auth-init keeps (and says so); harmless here.
  const built = await buildSlots(() => buildSolidStart(dir, major, nodeBin));
  console.log(`[e2e] shutdown ${variant.name}: auth-init (and its install) ${initialized} s, then the build ${built} s; ready after ${seconds(started)} s`);
  return { variant, dir, database };
}

beforeAll(async () => {
  const started = Date.now();
  // All at once: the installs wait on the network and the disk, the builds take turns (buildSlots).
  // A TypeScript one where there is one: the others but one are TypeScript apps too (typescript, pg).
  const firstV2 = VARIANTS.find((variant) => variant.major === "2" && !variant.javascript) ?? VARIANTS.find((variant) => variant.major === "2");
  let installed!: (dir: string) => void;
  let installFailed!: (error: unknown) => void;
  installedV2 = new Promise<string>((resolve, reject) => {
    installed = resolve;
    installFailed = reject;
  });
  installedV2.catch(() => undefined); // the first app's own failure is the one reported
  const made = VARIANTS.map((variant) => {
    if (variant !== firstV2) return makeApp(variant);
    const app = makeApp(variant, { installed });
    // The other SolidStart 2 apps wait for its install: if it fails, so do they.
    app.catch(installFailed);
    return app;
  });
  const results = await Promise.allSettled(made);
  for (const result of results) if (result.status === "fulfilled") apps.set(result.value.variant.name, result.value);
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
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
