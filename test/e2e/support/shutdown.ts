/**
 * Stopping a built app as a process manager (or `docker stop`) does: its server is
 * started with node itself (npm's wrapper would be the one signalled), opens its
 * database at a request, gets SIGTERM (or SIGINT, Ctrl-C's signal), and must exit
 * with code 0 within a few seconds; a PGlite folder must be left closed (no
 * postmaster.pid: PGlite removes it on a clean close) and open again elsewhere.
 * Shared by the tests that build apps, so each app is built once.
 */
import { PGlite } from "@electric-sql/pglite";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { CookieJar, request } from "../../helpers.js";
import { freePort, WITHOUT_TEST_DATABASE } from "./processes.js";

export type ShutdownFramework = "sveltekit" | "solid-start";
export type ShutdownAdapter = "pglite" | "sqlite" | "postgres" | "hosted-store";

/** How long a server may take to exit after the signal: adapter-node and Nitro close idle connections at once. */
const EXIT_WITHIN_MS = 5000;
/** A session cookie the database is asked about (and knows nothing of): with database sessions the request opens the database. */
const SESSION_COOKIE = "authjs.session-token=not-a-session";
/**
 * Nitro's Node server (srvx) handles no signals when CI or TEST is set (vitest sets TEST): unset,
 * as in production. SvelteKit's mail check: production needs the settings, though nothing is mailed here.
 */
const SERVER_ENV = { CI: undefined, TEST: undefined, AUTH_EMAIL_SERVER: "smtp://127.0.0.1:1", AUTH_EMAIL_FROM: "Shutdown test <no-reply@example.test>" };
const AUTH_PATH: Record<ShutdownFramework, string> = { sveltekit: "/auth", "solid-start": "/api/auth" };
/** The built server's entry, as the app's next steps run it. */
const ENTRY: Record<ShutdownFramework, string> = { sveltekit: "build", "solid-start": join(".output", "server", "index.mjs") };
/** Where the generated PGlite db module keeps its folder (PGLITE_DIR unset). */
const PGLITE_FOLDER = ".pglite";

export interface CleanStopOptions {
  framework: ShutdownFramework;
  adapter: ShutdownAdapter;
  signal: NodeJS.Signals;
  /** JWT sessions: the session lookup reads no database, so a wrong password for an unknown address is tried too (a user lookup). */
  jwt?: boolean;
  /** More env for the server, e.g. the test's SMTP server or a provider's AUTH_<ID>_* keys (the process env wins over .env). */
  env?: Record<string, string>;
}

/** The signals worth sending: SIGINT (Ctrl-C) too where a database left open would show, PGlite. */
export function shutdownSignals(adapter: ShutdownAdapter): NodeJS.Signals[] {
  return adapter === "pglite" ? ["SIGTERM", "SIGINT"] : ["SIGTERM"];
}

/**
 * Starts the built app in `dir`, opens its database with a request, sends the signal,
 * and expects exit code 0 within EXIT_WITHIN_MS; for PGlite, the folder closed and
 * opening again (a query on users succeeds: whatever earlier tests left there).
 * Nothing else may have the app's PGlite folder open: stop the app's own server first.
 */
export async function expectCleanStop(dir: string, options: CleanStopOptions): Promise<void> {
  const folder = join(dir, PGLITE_FOLDER);
  if (options.adapter === "pglite") await pgliteClosed(folder, "before the start: the app's earlier server left it open");
  const stopped = await startUseAndSignal(dir, options);
  expect({ code: stopped.code, signal: stopped.signal }, stopped.output).toEqual({ code: 0, signal: null });
  expect(stopped.tookMs, stopped.output).toBeLessThan(EXIT_WITHIN_MS);
  if (options.adapter !== "pglite") return;
  expect(existsSync(join(folder, "postmaster.pid")), `PGlite's folder was left open (postmaster.pid):\n${stopped.output}`).toBe(false);
  const db = new PGlite(folder);
  try {
    const { rows } = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM users");
    expect(rows[0]?.count).toBeTypeOf("number");
  } finally {
    await db.close();
  }
}

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the signal to the exit; Infinity when it had to be killed. */
  tookMs: number;
  output: string;
}

/** Waits (up to 10 s) for a PGlite folder to have no postmaster.pid: a server stopped just before may still be closing it. */
async function pgliteClosed(folder: string, why: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (existsSync(join(folder, "postmaster.pid"))) {
    if (Date.now() > deadline) throw new Error(`PGlite's folder ${folder} is open (postmaster.pid) ${why}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts the built server with node itself (not `npm start`: the signal goes to the
 * server, as a process manager sends it), makes the requests that open the database,
 * sends the signal, and waits for the exit (SIGKILL after 20 s, reported as Infinity).
 */
async function startUseAndSignal(dir: string, { framework, signal, jwt, env: extra }: CleanStopOptions): Promise<Stopped> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env = {
    ...process.env,
    ...WITHOUT_TEST_DATABASE,
    ...SERVER_ENV,
    ...extra,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    ORIGIN: origin,
    AUTH_URL: origin,
  };
  const child = spawn(process.execPath, ["--env-file=.env", ENTRY[framework]], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const local = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited before answering:\n${output}`);
      try {
        await fetch(`${local}/`, { redirect: "manual" });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the server did not answer within 60 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    // With database sessions the session lookup opens the database (and migrates it on a first start).
    const session = await fetch(`${local}${AUTH_PATH[framework]}/session`, { headers: { cookie: SESSION_COOKIE } });
    expect(session.status, output).toBe(200);
    expect(await session.json()).toBeNull();
    if (jwt) await wrongPassword(local, origin, AUTH_PATH[framework], output);
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

/** A password sign-in for an address nobody has: the handler looks the user up, which opens the database, and refuses. */
async function wrongPassword(local: string, origin: string, authPath: string, output: string): Promise<void> {
  const jar = new CookieJar();
  const csrf = jar.store(await fetch(request(`${authPath}/csrf`, { jar, origin: local })));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = { csrfToken, email: "nobody-at-shutdown@example.test", password: "not anyone's password", callbackUrl: "/" };
  const signIn = await fetch(request(`${authPath}/callback/password`, { jar, form, origin: local, headers: { origin } }), { redirect: "manual" });
  expect(signIn.status, output).toBe(302);
  expect(signIn.headers.get("location"), output).toMatch(/error=CredentialsSignin/);
}
