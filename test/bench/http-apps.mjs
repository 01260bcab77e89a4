/**
 * The two SvelteKit apps of the HTTP benchmark (test/bench/http.mjs), made,
 * built, started on 127.0.0.1 and signed in over HTTP:
 *
 * - ours: made by our own CLI, `auth-init --yes` in an empty folder
 *   (credentials, JWT sessions, PGlite), with this checkout's runtime packed
 *   into the app, as a user gets it;
 * - the reference: sv's minimal app (adapter-node) plus `@auth/sveltekit`, a
 *   Credentials provider and JWT sessions in `src/hooks.server.ts`, and a copy
 *   of our app's `/protected` page (the same `locals.auth()` load and markup).
 *
 * Both are started as our app's `npm start` starts it: `node --env-file=.env build`.
 */
import { spawn } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const AUTH_INIT = fileURLToPath(new URL("../../bin/auth-init.js", import.meta.url));
const SV = "sv@0.17.1";
export const REFERENCE = "@auth/sveltekit@1.11.3";
/** The one user both apps sign in (ours stores it at sign-up, the reference knows it in `authorize`). */
export const USER = { name: "Ada Lovelace", email: "ada@example.com", password: "bench-password-1" };

// Where the generated db module looks for its database: the bench's own env (say a
// DATABASE_URL for the PostgreSQL suite) must not reach the apps.
const DATABASE_ENV = ["DATABASE_URL", "HOSTED_STORE_DATABASE_URL", "HOSTED_STORE_BRANCH", "SQLITE_PATH", "PGLITE_DIR"];

/** Runs a command to completion; rejects with the end of its output when it fails. */
export function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}) in ${cwd}:\n${output.slice(-4000)}`)),
    );
  });
}

/** Our app, as the CLI makes it; returns its folder once built. */
export async function makeOurApp(work) {
  await run(process.execPath, [AUTH_INIT, "ours", "--yes", "--providers", "credentials", "--strategy", "jwt", "--adapter", "pglite"], work);
  const dir = join(work, "ours");
  await run("npm", ["run", "build"], dir);
  return dir;
}

// The reference's auth: the same provider and session strategy as ours. Its
// `authorize` accepts one fixed user where ours looks the user up in PGlite and
// checks a scrypt hash; sign-in is done once, before timing, so that is not timed.
const REFERENCE_HOOKS = `import { SvelteKitAuth } from '@auth/sveltekit';
import Credentials from '@auth/sveltekit/providers/credentials';
import { env } from '$env/dynamic/private';

const USER = { id: 'bench-user', name: ${JSON.stringify(USER.name)}, email: ${JSON.stringify(USER.email)} };

export const { handle } = SvelteKitAuth({
	secret: env.AUTH_SECRET,
	trustHost: true,
	session: { strategy: 'jwt' },
	providers: [
		Credentials({
			credentials: { email: {}, password: {} },
			authorize: (c) => (c.email === USER.email && c.password === ${JSON.stringify(USER.password)} ? { ...USER } : null)
		})
	]
});
`;

/** sv's minimal app plus @auth/sveltekit, installed but not built (it needs our app's page first). */
export async function createReferenceApp(work) {
  await run("npx", ["-y", SV, "create", "theirs", "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", "--install", "npm"], work);
  const dir = join(work, "theirs");
  await run("npm", ["install", "--no-audit", "--no-fund", "--save-exact", REFERENCE], dir);
  return dir;
}

/** Writes the reference's auth files and our app's protected page into it, then builds it. */
export async function finishReferenceApp(dir, ourDir) {
  writeFileSync(join(dir, "src/hooks.server.ts"), REFERENCE_HOOKS);
  writeFileSync(join(dir, ".env"), `AUTH_SECRET="${randomBytes(32).toString("base64url")}"\n`);
  cpSync(join(ourDir, "src/routes/protected"), join(dir, "src/routes/protected"), { recursive: true });
  // The page's stylesheet, which it imports: the same markup and style on both sides.
  cpSync(join(ourDir, "src/lib/auth.css"), join(dir, "src/lib/auth.css"));
  await run("npm", ["run", "build"], dir);
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
 * Starts a built app on 127.0.0.1 and waits until it answers. ORIGIN is
 * adapter-node's public origin: its form-POST Origin check and the auth URL.
 * `mailServer` is the `smtp://` URL its mail goes to.
 */
export async function startApp(dir, mailServer) {
  const port = await freePort();
  const mail = { AUTH_EMAIL_SERVER: mailServer, AUTH_EMAIL_FROM: "bench@localhost" };
  const env = { ...process.env, ...mail, HOST: "127.0.0.1", PORT: String(port), ORIGIN: `http://localhost:${port}` };
  for (const key of DATABASE_ENV) delete env[key];
  const child = spawn(process.execPath, ["--env-file=.env", "build"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
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
  return { base, origin: `http://localhost:${port}`, output: () => output, stop };
}

/** POSTs a form as a browser on the app's origin does (SvelteKit refuses form POSTs from another Origin). */
function postForm(app, path, fields) {
  return fetch(`${app.base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

function sessionCookie(response, what) {
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("authjs.session-token="));
  if (!cookie) throw new Error(`${what}: no session cookie (status ${response.status}): ${response.headers.getSetCookie().join(" | ")}`);
  return cookie;
}

/**
 * Ours, as a new user does it: the generated /signup page's form (POST
 * /auth/signup), which mails a link to confirm the address; the link opens
 * /signin, whose form action signs in with the password and the link's
 * `confirm` (the link alone proves only the mailbox). Returns that sign-in's
 * session cookie.
 */
export async function signInOurs(app, mail) {
  const signUp = await postForm(app, "/auth/signup", { name: USER.name, email: USER.email, password: USER.password });
  if (signUp.status >= 400) throw new Error(`ours: sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const text = await mail.next();
  const link = text.match(/https?:\/\/\S+\/signin\?\S+/)?.[0];
  const confirm = link && new URL(link).searchParams.get("confirm");
  if (!confirm) throw new Error(`ours: the sign-up mail has no link to /signin with a confirm token:\n${text}`);
  const signIn = await postForm(app, "/signin", { providerId: "password", email: USER.email, password: USER.password, confirm });
  return sessionCookie(signIn, "ours: sign-in");
}

/**
 * The reference: POST /auth/callback/credentials. No CSRF token: @auth/sveltekit
 * turns Auth.js's own CSRF check off (`skipCSRFCheck`; SvelteKit checks the
 * Origin of form POSTs instead), so its GET /auth/csrf answers 404, as ours does
 * in SvelteKit.
 */
export async function signInReference(app) {
  const response = await postForm(app, "/auth/callback/credentials", { email: USER.email, password: USER.password });
  if (response.status !== 302) throw new Error(`reference: sign-in answered ${response.status}`);
  return sessionCookie(response, "reference: sign-in");
}
