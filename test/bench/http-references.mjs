/**
 * The references of the HTTP benchmark, each a copy of one sv minimal SvelteKit
 * app (adapter-node) with a copy of our app's `/protected` page markup:
 *
 * - `@auth/sveltekit`: a Credentials provider and JWT sessions in
 *   `src/hooks.server.ts`, and our page's load as is (`locals.auth()`);
 * - Better Auth (`better-auth`, the version our root package.json pins as the
 *   in-process reference): its SvelteKit integration (`svelteKitHandler` in
 *   `src/hooks.server.ts`), email + password, the session cookie cache on (the
 *   closest to our JWT sessions), better-sqlite3 as its database, and a page
 *   load that reads the session with `auth.api.getSession`.
 *
 * Both are started as our SvelteKit app is: `node --env-file=.env build`.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { seedBetterSqlite3Prebuild } from "../better-sqlite3-prebuild.mjs";
import { cookiePairs } from "./measure.mjs";
import { USER, build, postForm, run, sessionCookie, stepsOf } from "./http-apps.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SV = "sv@0.17.1";
export const REFERENCE = "@auth/sveltekit@1.11.3";
export const BETTER_AUTH = `better-auth@${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies["better-auth"]}`;

/** better-sqlite3 at the checkout's version: its install unpacks the checkout's compiled binary (see seedBetterSqlite3Prebuild). */
const sqliteSpec = () => `better-sqlite3@${JSON.parse(readFileSync(join(ROOT, "node_modules/better-sqlite3/package.json"), "utf8")).version}`;

/**
 * sv's minimal app (adapter-node) in `work/sv-minimal`, made once: each reference
 * is a copy of it. One npm install brings the app's own packages and both
 * references' (one install where three took most of the setup's CPU), so each
 * copy carries the other's packages unused: a build takes in only what the app
 * imports.
 */
export async function createSvApp(work) {
  const { step, done } = stepsOf(`sv's minimal app (${SV})`);
  const create = ["-y", SV, "create", "sv-minimal", "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", "--no-install"];
  await step("sv create", () => run("npx", create, work));
  const dir = join(work, "sv-minimal");
  const packages = [REFERENCE, BETTER_AUTH, sqliteSpec()];
  // better-sqlite3's install script would compile it (about 90 s of CPU): it unpacks the checkout's binary instead.
  seedBetterSqlite3Prebuild(ROOT);
  await step(`npm install (with ${packages.join(", ")})`, () => run("npm", ["install", "--save-exact", ...packages], dir));
  done();
  return dir;
}

/**
 * A copy of sv's app (from createSvApp) in `dir`, its node_modules a link to
 * the one installed (a copy of its 120 MB took up to 35 s on a busy machine):
 * a build writes nothing there but Vite's uniquely named temp config, and a
 * built app's imports resolve through the link. Returns `dir`.
 */
function copySvApp(svApp, dir) {
  cpSync(svApp, dir, { recursive: true, filter: (path) => path !== join(svApp, "node_modules") });
  symlinkSync(join(svApp, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Our app's page markup and the stylesheet it imports, the same on every side; with `withLoad`, its load too. */
function copyProtectedPage(dir, ourDir, withLoad) {
  const page = "src/routes/protected";
  cpSync(join(ourDir, page), join(dir, page), { recursive: true, filter: (path) => withLoad || !path.endsWith("+page.server.ts") });
  cpSync(join(ourDir, "src/lib/auth.css"), join(dir, "src/lib/auth.css"));
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

/**
 * A copy of sv's app (`svApp`, createSvApp's promise) with @auth/sveltekit in its
 * hooks and our app's protected page (load included: `locals.auth()` is
 * @auth/sveltekit's too) once `ourApp.made` gives our app's folder; built.
 * Resolves to its folder.
 */
export async function makeReferenceApp(work, svApp, ourApp) {
  const { step, done } = stepsOf(REFERENCE);
  const base = await svApp;
  const dir = await step("copy of sv's app", () => copySvApp(base, join(work, "theirs")));
  writeFileSync(join(dir, "src/hooks.server.ts"), REFERENCE_HOOKS);
  writeFileSync(join(dir, ".env"), `AUTH_SECRET="${randomBytes(32).toString("base64url")}"\n`);
  copyProtectedPage(dir, await ourApp.made, true);
  await step("build", () => build(dir));
  done();
  return dir;
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

/** Better Auth's cookie cache lifetime: the bench signs in again well before it ends (see signInBetterAuth). */
const CACHE_SECONDS = 300;

// Better Auth's app, as its SvelteKit docs show it. Its production default limits
// every path to 100 requests per 10 s per client address, which a load test from
// one address exceeds in a fraction of a second: the session read is let through,
// as ours never limits it (sign-up and sign-in keep their limits). No telemetry:
// nothing leaves the machine.
const BETTER_AUTH_CONFIG = `import { betterAuth } from 'better-auth';
import Database from 'better-sqlite3';
import { env } from '$env/dynamic/private';

export const auth = betterAuth({
	secret: env.BETTER_AUTH_SECRET,
	baseURL: env.ORIGIN,
	database: new Database('better-auth.sqlite'),
	emailAndPassword: { enabled: true },
	session: { cookieCache: { enabled: true, maxAge: ${CACHE_SECONDS} } },
	rateLimit: { customRules: { '/get-session': false } },
	telemetry: { enabled: false }
});
`;

// Its migrations run as the server starts (SvelteKit's init hook, before the first
// request), on the options the app uses: the database is new on every bench run.
const BETTER_AUTH_HOOKS = `import type { Handle, ServerInit } from '@sveltejs/kit';
import { building } from '$app/environment';
import { getMigrations } from 'better-auth/db/migration';
import { svelteKitHandler } from 'better-auth/svelte-kit';
import { auth } from '$lib/server/auth';

export const init: ServerInit = async () => {
	if (!building) await (await getMigrations(auth.options)).runMigrations();
};

export const handle: Handle = ({ event, resolve }) => svelteKitHandler({ event, resolve, auth, building });
`;

// The page reads the session in its own load with `auth.api.getSession({ headers })`,
// Better Auth's server-side session read, as ours reads it on demand (`locals.auth()`).
// Its SvelteKit page also shows that call in the handle hook, filling `event.locals`
// for every request: there GET /api/auth/get-session would read the session twice,
// and every other request once for nothing.
const BETTER_AUTH_PAGE_LOAD = `import { redirect } from '@sveltejs/kit';
import { auth } from '$lib/server/auth';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ request, url }) => {
	const session = await auth.api.getSession({ headers: request.headers });
	if (!session) redirect(303, \`/signin?redirectTo=\${encodeURIComponent(url.pathname)}\`);
	return { user: session.user };
};
`;

/**
 * A copy of sv's app (`svApp`, createSvApp's promise) with Better Auth on
 * better-sqlite3, and our app's protected page markup with a load of its own
 * once `ourApp.made` gives our app's folder; built. Resolves to its folder.
 */
export async function makeBetterAuthApp(work, svApp, ourApp) {
  const { step, done } = stepsOf(BETTER_AUTH);
  const base = await svApp;
  const dir = await step("copy of sv's app", () => copySvApp(base, join(work, "better-auth")));
  mkdirSync(join(dir, "src/lib/server"), { recursive: true });
  writeFileSync(join(dir, "src/lib/server/auth.ts"), BETTER_AUTH_CONFIG);
  writeFileSync(join(dir, "src/hooks.server.ts"), BETTER_AUTH_HOOKS);
  writeFileSync(join(dir, ".env"), `BETTER_AUTH_SECRET="${randomBytes(32).toString("base64url")}"\n`);
  copyProtectedPage(dir, await ourApp.made, false);
  writeFileSync(join(dir, "src/routes/protected/+page.server.ts"), BETTER_AUTH_PAGE_LOAD);
  await step("build", () => build(dir));
  done();
  return dir;
}

/** A JSON post to Better Auth's API from the app's own origin (it refuses other origins). */
const postJson = (app, path, json) =>
  fetch(`${app.base}${path}`, { method: "POST", headers: { origin: app.origin, "content-type": "application/json" }, body: JSON.stringify(json) });

/** Signs in through Better Auth's API; sets `app.cookie` to its session cookies (the token and the cache). */
async function signInOnce(app) {
  const response = await postJson(app, "/api/auth/sign-in/email", { email: USER.email, password: USER.password });
  const cookies = cookiePairs(response);
  if (response.status !== 200 || !cookies.some((c) => c.startsWith("better-auth.session_data="))) {
    throw new Error(`better-auth: sign-in answered ${response.status} without its session cookies: ${await response.text()}`);
  }
  app.cookie = cookies.join("; ");
}

/**
 * Better Auth, as its API does it: POST /api/auth/sign-up/email, then
 * /api/auth/sign-in/email, JSON both. Sets `app.cookie` and `app.renew()`, which
 * the timing calls before each run: it signs in again once the cookies are a
 * minute old, so the cookie cache (valid for CACHE_SECONDS) answers every timed
 * read of a run shorter than 4 minutes, whatever the bench's settings add up to
 * (and sign-in's own limit, 3 per 10 s, is never reached).
 */
export async function signInBetterAuth(app) {
  const signUp = await postJson(app, "/api/auth/sign-up/email", { name: USER.name, email: USER.email, password: USER.password });
  if (signUp.status !== 200) throw new Error(`better-auth: sign-up answered ${signUp.status}: ${await signUp.text()}`);
  let signedInAt = Date.now();
  await signInOnce(app);
  app.renew = async () => {
    if (Date.now() - signedInAt < 60_000) return;
    signedInAt = Date.now();
    await signInOnce(app);
  };
}
