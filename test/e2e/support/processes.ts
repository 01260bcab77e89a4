/**
 * Commands and servers for the real-app tests: scaffolding, installs and builds
 * run as child processes with their output kept for the failure message, and a
 * built app started on 127.0.0.1 and stopped again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where the generated db modules and the apps' ORMs look for their database:
 * the test run's own DATABASE_URL (the PostgreSQL server's admin database)
 * would win over an app's .env, as the process env does with `node
 * --env-file` and dotenv. Spread into a child's env to leave them unset.
 */
export const WITHOUT_TEST_DATABASE: Readonly<Record<string, undefined>> = Object.freeze(
  Object.fromEntries(["DATABASE_URL", "HOSTED_STORE_DATABASE_URL", "HOSTED_STORE_BRANCH", "SQLITE_PATH", "PGLITE_DIR"].map((key) => [key, undefined])),
);

export interface ScratchApp {
  /** The fresh folder the app's folder is made in. */
  work: string;
  /** The app's folder, `<work>/<name>` (not created here). */
  dir: string;
  /** Deletes `work`; with KEEP_E2E_APPS set, keeps it and says where it is. */
  remove: () => void;
}

/** A fresh folder under the system's temp folder for an app called `name`. */
export function scratchApp(prefix: string, name: string): ScratchApp {
  const work = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-${name}-`));
  const dir = join(work, name);
  const remove = () => {
    if (process.env.KEEP_E2E_APPS) return console.log(`[e2e] ${name} kept in ${dir}`);
    rmSync(work, { recursive: true, force: true });
  };
  return { work, dir, remove };
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Runs a command to completion; rejects with its output when it fails. */
export function run(command: string, args: string[], { cwd, env, timeoutMs = 300_000 }: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}) in ${cwd}:\n${output.slice(-6000)}`));
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  /** `http://localhost:PORT`: the origin the browser uses (WebAuthn and cookies want a host name). */
  origin: string;
  port: number;
  /** Everything the server printed so far. */
  output: () => string;
  stop: () => Promise<void>;
  /**
   * Sends `signal` to its process group, as a terminal's Ctrl-C (SIGINT) does, and
   * resolves with how long it took to exit (Infinity when it did not within 20 s,
   * and was killed).
   */
  interrupt: (signal: NodeJS.Signals) => Promise<number>;
}

/** Signals the child's process group (it is its leader), or the child alone if the group is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
}

/** Starts a long-running server and waits until it answers HTTP on 127.0.0.1. */
export async function startServer(
  command: string,
  args: string[],
  {
    cwd,
    env,
    port,
    readyPath = "/",
    readyTimeoutMs = 60_000,
  }: { cwd: string; env: Record<string, string | undefined>; port: number; readyPath?: string; readyTimeoutMs?: number },
): Promise<RunningServer> {
  // A process group of its own: `npm start` runs the server as a grandchild (npm -> sh -> node),
  // which a signal to npm alone leaves running. Stopping signals the whole group.
  const child: ChildProcess = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  let exited = false;
  child.on("exit", () => (exited = true));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      child.once("exit", () => resolve());
      signalGroup(child, "SIGTERM");
      setTimeout(() => signalGroup(child, "SIGKILL"), 5000).unref();
    });
  const interrupt = (signal: NodeJS.Signals) =>
    new Promise<number>((resolve) => {
      if (exited) return resolve(0);
      const sent = Date.now();
      const killer = setTimeout(() => {
        signalGroup(child, "SIGKILL");
        resolve(Infinity);
      }, 20_000);
      child.once("exit", () => {
        clearTimeout(killer);
        resolve(Date.now() - sent);
      });
      signalGroup(child, signal);
    });
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) throw new Error(`${command} ${args.join(" ")} exited before answering:\n${output}`);
    try {
      await fetch(`http://127.0.0.1:${port}${readyPath}`, { redirect: "manual" });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${command} ${args.join(" ")} did not answer on port ${port} within ${readyTimeoutMs / 1000} s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { origin: `http://localhost:${port}`, port, output: () => output, stop, interrupt };
}

/** A built app started with `npm start` (which reads its .env) on 127.0.0.1 in production, on its own database, with `env` on top. */
export async function startBuiltApp(dir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const origin = { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ORIGIN: `http://localhost:${port}` };
  return startServer("npm", ["start"], { cwd: dir, env: { ...origin, ...WITHOUT_TEST_DATABASE, ...env }, port });
}
