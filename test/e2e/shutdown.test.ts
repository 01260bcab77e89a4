/**
 * Apps made by the built `auth-init --yes` stop when asked: each built server is
 * started directly with node (as a process manager or `docker stop` runs it: npm's
 * wrapper would be the one signalled), opens its database at a request, gets
 * SIGTERM (or SIGINT, Ctrl-C's signal), and exits with code 0 within a few
 * seconds; a PGlite folder is left closed (no postmaster.pid: PGlite removes it
 * on a clean close) and opens again. SvelteKit (adapter-node) on PGlite, SQLite and,
 * when DATABASE_URL names a PostgreSQL server, a database of its own there and the
 * hosted store (a branch of another such database); SolidStart 2 (Vite + Nitro 3)
 * on the same four (on SQLite a JavaScript app, .js and .jsx files written by
 * auth-init); SolidStart 1.x (vinxi, Nitro 2) on PGlite.
 */
import { PGlite } from "@electric-sql/pglite";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin } from "../cli/support/cli.js";
import { listSourceFiles } from "../../src/engine/project.js";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { freePort, run } from "./support/processes.js";
import { buildNodeBin, buildSolidStart, type SolidStartVersion } from "./support/solid-start-app.js";

/** How long a server may take to exit after the signal: adapter-node and Nitro close idle connections at once. */
const EXIT_WITHIN_MS = 5000;
/** A session cookie the database is asked about (and knows nothing of): the request opens the database. */
const SESSION_COOKIE = "authjs.session-token=not-a-session";
/** Where the generated db modules look for their database: the test run's own must not reach the servers. */
const DATABASE_ENV = ["DATABASE_URL", "HOSTED_STORE_DATABASE_URL", "HOSTED_STORE_BRANCH", "SQLITE_PATH", "PGLITE_DIR"];
/**
 * Nitro's Node server (srvx) handles no signals when CI or TEST is set (vitest sets TEST): unset,
 * as in production. SvelteKit's mail check: production needs the settings, though nothing is mailed here.
 */
const SERVER_ENV = { CI: undefined, TEST: undefined, AUTH_EMAIL_SERVER: "smtp://127.0.0.1:1", AUTH_EMAIL_FROM: "Shutdown test <no-reply@example.test>" };

type Framework = "sveltekit" | "solid-start";
interface Variant {
  name: string;
  framework: Framework;
  /** SolidStart's major: the fixture app auth-init sets up (`test/cli/fixtures/solid-start-v<major>`). */
  major?: SolidStartVersion;
  adapter: "pglite" | "sqlite" | "postgres" | "hosted-store";
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
  { name: "sveltekit-pglite", framework: "sveltekit", adapter: "pglite" },
  { name: "sveltekit-sqlite", framework: "sveltekit", adapter: "sqlite" },
  ...(serverUrl
    ? ([
        { name: "sveltekit-postgres", framework: "sveltekit", adapter: "postgres" },
        { name: "sveltekit-hosted-store", framework: "sveltekit", adapter: "hosted-store" },
      ] as const)
    : []),
  { name: "solid-start-pglite", framework: "solid-start", major: "2", adapter: "pglite" },
  // Nitro 3's server exits once nothing holds the process: a pool's open connections would.
  // In JavaScript: the .js and .jsx files auth-init writes there build and run.
  { name: "solid-start-js-sqlite", framework: "solid-start", major: "2", adapter: "sqlite", javascript: true },
  ...(serverUrl
    ? ([
        { name: "solid-start-postgres", framework: "solid-start", major: "2", adapter: "postgres" },
        { name: "solid-start-hosted-store", framework: "solid-start", major: "2", adapter: "hosted-store" },
      ] as const)
    : []),
  // Nitro 2 (vinxi) exits by itself after its close hook: what matters there is that PGlite was closed cleanly.
  { name: "solid-start-1-pglite", framework: "solid-start", major: "1", adapter: "pglite" },
];
const AUTH_PATH: Record<Framework, string> = { sveltekit: "/auth", "solid-start": "/api/auth" };
const ENTRY: Record<Framework, string> = { sveltekit: "build", "solid-start": join(".output", "server", "index.mjs") };

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
  let dir: string;
  if (variant.framework === "sveltekit") {
    // In an empty folder: auth-init creates the app with `sv create`.
    await run(process.execPath, [authInitBin, variant.name, "--yes", ...adapterArgs], { cwd: work, env: NPM, timeoutMs: 600_000 });
    dir = join(work, variant.name);
    await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production" } });
  } else {
    const major = variant.major!;
    dir = join(work, variant.name);
    cpSync(new URL(`../cli/fixtures/solid-start-v${major}${variant.javascript ? "-js" : ""}/`, import.meta.url), dir, { recursive: true });
    const nodeBin = major === "2" ? buildNodeBin() : undefined;
    nodeBin?.catch(() => undefined); // awaited by the build
    await run(process.execPath, [authInitBin, "--yes", ...adapterArgs], { cwd: dir, env: NPM, timeoutMs: 600_000 });
    // The fixture's document has a <title> of its own, which auth-init keeps (and says so); harmless here.
    await buildSolidStart(dir, major, nodeBin);
  }
  console.log(`[e2e] shutdown ${variant.name}: made and built in ${seconds(started)} s`);
  return { variant, dir, database };
}

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the signal to the exit; Infinity when it had to be killed. */
  tookMs: number;
  output: string;
}

/**
 * Starts the app's built server with node itself (not `npm start`: the signal goes to the
 * server, as a process manager sends it), makes a request that opens the database, sends
 * `signal`, and waits for the exit (SIGKILL after 20 s, reported as Infinity).
 */
async function startUseAndSignal(app: App, signal: NodeJS.Signals): Promise<Stopped> {
  const { framework } = app.variant;
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env = {
    ...process.env,
    ...Object.fromEntries(DATABASE_ENV.map((key) => [key, undefined])),
    ...SERVER_ENV,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    ORIGIN: origin,
    AUTH_URL: origin,
  };
  const child = spawn(process.execPath, ["--env-file=.env", ENTRY[framework]], { cwd: app.dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited before answering:\n${output}`);
      try {
        await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    // The session lookup opens the database (and migrates it on a first start).
    const session = await fetch(`http://127.0.0.1:${port}${AUTH_PATH[framework]}/session`, { headers: { cookie: SESSION_COOKIE } });
    expect(session.status, output).toBe(200);
    expect(await session.json()).toBeNull();
    const signalled = Date.now();
    child.kill(signal);
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const result = await exited;
    clearTimeout(killer);
    return { ...result, tookMs: result.signal === "SIGKILL" ? Infinity : Date.now() - signalled, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
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
  const app = () => apps.get(variant.name)!;
  // SIGINT for one app of each framework (Ctrl-C), SIGTERM for every app.
  const signals: NodeJS.Signals[] = variant.adapter === "pglite" ? ["SIGTERM", "SIGINT"] : ["SIGTERM"];

  it.each(signals)("exits with code 0 within a few seconds of %s, its database closed", async (signal) => {
    const stopped = await startUseAndSignal(app(), signal);
    expect({ code: stopped.code, signal: stopped.signal }, stopped.output).toEqual({ code: 0, signal: null });
    expect(stopped.tookMs, stopped.output).toBeLessThan(EXIT_WITHIN_MS);
    if (variant.adapter === "pglite") {
      // A clean close removes PGlite's postmaster.pid; then the folder opens in another process.
      const folder = join(app().dir, ".pglite");
      expect(existsSync(join(folder, "postmaster.pid")), "PGlite's folder was left open (postmaster.pid)").toBe(false);
      const db = new PGlite(folder);
      try {
        expect((await db.query<{ count: number }>("SELECT count(*)::int AS count FROM users")).rows).toEqual([{ count: 0 }]);
      } finally {
        await db.close();
      }
    }
  }, 60_000);
});
