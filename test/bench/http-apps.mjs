/**
 * What the apps of the HTTP benchmark (test/bench/http.mjs) share: commands
 * run to completion with their times, the one user every app signs in, a
 * loopback mail server, starting a built app on 127.0.0.1 and waiting until
 * it answers, and form posts as a browser on the app's origin sends them.
 * The apps themselves are made in http-ours.mjs (ours, by our CLI, SvelteKit
 * and SolidStart) and http-references.mjs (@auth/sveltekit and Better Auth
 * in sv's minimal SvelteKit app).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { cookiePairs } from "./measure.mjs";

/** The one user every app signs in (ours and Better Auth store it at sign-up, @auth/sveltekit knows it in `authorize`). */
export const USER = { name: "Ada Lovelace", email: "ada@example.com", password: "bench-password-1" };

// Where the generated db module looks for its database: the bench's own env (say a
// DATABASE_URL for the PostgreSQL suite) must not reach the apps.
const DATABASE_ENV = ["DATABASE_URL", "HOSTED_STORE_DATABASE_URL", "HOSTED_STORE_BRANCH", "SQLITE_PATH", "PGLITE_DIR"];

/**
 * npm's options for every install here, through the environment (so `auth-init`'s
 * and `sv create`'s own installs take them too): registry metadata from npm's cache
 * when it has it, which makes a warm install several times faster.
 */
export const NPM_ENV = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };

/** Runs a command to completion; rejects with the end of its output when it fails. */
export function run(command, args, cwd, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...NPM_ENV, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}) in ${cwd}:\n${output.slice(-4000)}`)),
    );
  });
}

/**
 * `npm run build` in an app, for production: NODE_ENV as a deploy sets it (under
 * vitest, which runs the bench's smoke test, the children would inherit "test").
 */
export const build = (dir, env = {}) => run("npm", ["run", "build"], dir, { NODE_ENV: "production", ...env });

/**
 * The steps that make one app, each timed: `step(name, work)` awaits `work()` and
 * notes its seconds; `done()` prints the app's line (`label: name 12.3 s, ...`) for
 * the setup log, as soon as that app is ready.
 */
export function stepsOf(label) {
  const times = [];
  return {
    async step(name, work) {
      const started = performance.now();
      const result = await work();
      times.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return result;
    },
    done: () => console.log(`  ${label}: ${times.join(", ")}`),
  };
}

/** The installed version of a package in an app, for the report. */
export const installedVersion = (dir, name) => JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A mail server on 127.0.0.1 for the apps' sign-up mail (a production app refuses
 * to start without one): keeps the text of each message; `next()` waits for the
 * next one to arrive.
 */
export async function startMailCatcher() {
  const arrived = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        arrived.push(mail.text ?? "");
        callback();
      }, callback);
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  let taken = 0;
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    async next() {
      for (const deadline = Date.now() + 10_000; arrived.length <= taken; await new Promise((resolve) => setTimeout(resolve, 50))) {
        if (Date.now() > deadline) throw new Error("no mail arrived within 10 s");
      }
      return arrived[taken++];
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Starts a built app on 127.0.0.1, in production mode as a server runs, and waits
 * until it answers: `node --env-file=.env <entry>` in `dir` (what our apps' `npm
 * start` runs), with `env(origin)` on top, the app's public origin
 * (`http://localhost:PORT`) in the variable its framework reads (adapter-node's
 * ORIGIN: its form-POST Origin check and the auth URL; AUTH_URL in SolidStart).
 * `mailServer` is the `smtp://` URL its mail goes to.
 */
export async function startApp(dir, { entry, env: envOf }, mailServer) {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const mail = { AUTH_EMAIL_SERVER: mailServer, AUTH_EMAIL_FROM: "bench@localhost" };
  const env = { ...process.env, ...mail, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...envOf(origin) };
  for (const key of DATABASE_ENV) delete env[key];
  const child = spawn(process.execPath, ["--env-file=.env", entry], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  let exited = false;
  child.on("exit", () => (exited = true));
  const stop = () =>
    new Promise((resolve) => {
      if (exited) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (exited) throw new Error(`the app in ${dir} exited before answering:\n${output}`);
    try {
      await fetch(base, { redirect: "manual" });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`the app in ${dir} did not answer within 60 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { dir, base, origin, output: () => output, stop };
}

/** The SvelteKit apps' start: adapter-node's server in build/, which takes its public origin from ORIGIN. */
export const SVELTEKIT_SERVER = { entry: "build", env: (origin) => ({ ORIGIN: origin }) };

/** POSTs a form as a browser on the app's origin does (SvelteKit refuses form POSTs from another Origin). */
export function postForm(app, path, fields, cookie) {
  return fetch(`${app.base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** The Auth.js session cookie a sign-in set. */
export function sessionCookie(response, what) {
  const cookie = cookiePairs(response).find((c) => c.startsWith("authjs.session-token="));
  if (!cookie) throw new Error(`${what}: no session cookie (status ${response.status}): ${response.headers.getSetCookie().join(" | ")}`);
  return cookie;
}
