/**
 * `auth-init --yes` with the built CLI in SvelteKit apps of the shapes Svelte's
 * own scaffolder makes besides TypeScript, each with a server hook of its own
 * that sets a response header:
 * - JavaScript (`sv create --no-types`: jsconfig.json without checkJs): the new
 *   modules are plain `.js` and the `.svelte` files plain `<script>`, no app.d.ts,
 *   and the app's `src/hooks.server.js` is edited in place (no hooks.server.ts beside it);
 * - JavaScript with JSDoc (`--types jsdoc`: checkJs) with SvelteKit's `files` moved
 *   in the options of `sveltekit({...})` in vite.config.js: the files go where
 *   SvelteKit looks (src/pages, src/library, src/server/hooks.js) and svelte-check passes.
 * Each app builds and its server (adapter-node) answers the sign-in page, the session
 * and the app's own hook; a second run changes nothing. A `files` location computed at
 * run time is refused, naming the file, with nothing written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SV } from "../../src/engine/create-app.js";
import { authInitBin, cli, snapshotDir } from "../cli/support/cli.js";
import { http } from "./support/http.js";
import { freePort, run, startServer, WITHOUT_TEST_DATABASE } from "./support/processes.js";

/** npm's options for auth-init's install: metadata from the cache, no engine-strict. */
const NPM = { npm_config_prefer_offline: "true", npm_config_engine_strict: "false", npm_config_audit: "false", npm_config_fund: "false" };
/** What the app writes or installs itself, left out of "changed nothing". */
const NOT_THE_APPS = new Set(["node_modules", "build", ".svelte-kit", ".pglite"]);

/** The app's own hook: its header on a response proves it ran. */
const APP_HOOK = `export const handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-app-hook', 'yes');
	return response;
};
`;
/** SvelteKit's files moved, in the options of the Vite plugin (SvelteKit 2.62+). */
const MOVED_FILES = "files: { routes: 'src/pages', lib: 'src/library', hooks: { server: 'src/server/hooks' } }";

type Types = "--no-types" | "--types jsdoc";

const work = mkdtempSync(join(tmpdir(), "gatehouse-project-shapes-"));
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

/** `sv create` in `work`: a minimal app on adapter-node, not installed. */
async function svCreate(name: string, types: Types): Promise<string> {
  await run("npx", ["-y", SV, "create", name, "--template", "minimal", ...types.split(" "), "--add", "sveltekit-adapter=adapter:node", "--no-install", "--no-dir-check"], { cwd: work, timeoutMs: 180_000 });
  return join(work, name);
}

/** Adds to the options of `sveltekit({...})` in sv's vite.config.js (after its `adapter: adapter()`). */
function addPluginOption(dir: string, option: string, imports = ""): void {
  const path = join(dir, "vite.config.js");
  const text = readFileSync(path, "utf8");
  const edited = imports + text.replace("adapter: adapter()", `adapter: adapter(),\n\t\t\t${option}`);
  if (edited === imports + text) throw new Error(`sv's vite.config.js has no \`adapter: adapter()\` to add after:\n${text}`);
  writeFileSync(path, edited);
}

/** Every file of the app (relative path -> text) but what the app's install, build and server write. */
function appFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (at === dir && NOT_THE_APPS.has(name)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, "latin1");
    }
  };
  walk(dir);
  return files;
}

const under = (dir: string, folder: string) => Object.keys(appFiles(join(dir, folder))).map((path) => `${folder}/${path}`);
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

interface Made {
  dir: string;
  initOutput: string;
}

/** The `--no-types` app with `src/hooks.server.js`, set up by auth-init. */
async function makeJavaScriptApp(): Promise<Made> {
  const started = Date.now();
  const dir = await svCreate("js-app", "--no-types");
  writeFileSync(join(dir, "src/hooks.server.js"), APP_HOOK);
  const initOutput = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, env: NPM, timeoutMs: 600_000 });
  console.log(`[e2e] project-shapes js-app: sv create + auth-init in ${seconds(started)} s`);
  return { dir, initOutput };
}

/** The `--types jsdoc` app with its routes, lib and server hooks moved (vite.config.js), set up by auth-init. */
async function makeJsdocApp(): Promise<Made> {
  const started = Date.now();
  const dir = await svCreate("jsdoc-app", "--types jsdoc");
  addPluginOption(dir, MOVED_FILES);
  renameSync(join(dir, "src/routes"), join(dir, "src/pages"));
  renameSync(join(dir, "src/lib"), join(dir, "src/library"));
  mkdirSync(join(dir, "src/server"));
  writeFileSync(join(dir, "src/server/hooks.js"), APP_HOOK);
  const initOutput = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, env: NPM, timeoutMs: 600_000 });
  console.log(`[e2e] project-shapes jsdoc-app: sv create + auth-init in ${seconds(started)} s`);
  return { dir, initOutput };
}

/** The apps, made at once (2 CPUs: one app's install waits on npm while the other's is packed); each describe awaits its own, so one failing leaves the others' tests running. */
let making: { js: Promise<Made>; jsdoc: Promise<Made>; refused: Promise<string> };
let jsApp: Made;
let jsdocApp: Made;
let refusedDir: string;

beforeAll(() => {
  making = { js: makeJavaScriptApp(), jsdoc: makeJsdocApp(), refused: svCreate("refused-app", "--no-types") };
  // Awaited (and reported) by the describe that uses each; no unhandled rejection before then.
  for (const promise of Object.values(making)) promise.catch(() => undefined);
});

afterAll(() => {
  if (process.env.KEEP_E2E_APPS) console.log(`[e2e] project-shapes apps kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}, 120_000);

/** A second `auth-init --yes` (installing again): it says so, and no file of the app changes. */
async function secondRunChangesNothing(dir: string): Promise<void> {
  const before = appFiles(dir);
  const output = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, env: NPM, timeoutMs: 600_000 });
  expect(output).toContain("Nothing to change: the app is already set up.");
  expect(output).not.toMatch(/^(created|updated|kept) /m);
  expect(appFiles(dir)).toEqual(before);
}

/**
 * `npm run build`, then the built server (`node build`, as adapter-node runs it) on
 * 127.0.0.1: the sign-in page with its form and the app's header, the session (none),
 * the CSRF endpoint, and SvelteKit's own origin check on a cross-site form post.
 */
async function buildAndServe(dir: string): Promise<void> {
  // A production build, as in a shell: vitest's NODE_ENV=test would make Vite build a development one.
  await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production" } });
  const port = await freePort();
  const env = {
    ...WITHOUT_TEST_DATABASE,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    ORIGIN: `http://localhost:${port}`,
    AUTH_SECRET: "project-shapes-secret-project-shapes-secret-0123",
    // Production needs the mail settings (sign-up mails a link), though nothing is mailed here.
    AUTH_EMAIL_SERVER: "smtp://127.0.0.1:1",
    AUTH_EMAIL_FROM: "Project shapes <no-reply@example.test>",
  };
  const server = await startServer(process.execPath, ["build"], { cwd: dir, env, port });
  try {
    const home = await http(server, "/");
    expect(home.status, server.output()).toBe(200);
    expect(home.headers.get("x-app-hook"), "the app's own hook on /").toBe("yes");

    const signin = await http(server, "/signin");
    expect(signin.status, server.output()).toBe(200);
    expect(signin.headers.get("x-app-hook"), "the app's own hook on /signin").toBe("yes");
    const page = await signin.text();
    expect(page).toContain("<title>Sign in</title>");
    expect(page).toMatch(/<form method="POST" action="\.\/signin[^"]*">/);
    expect(page).toMatch(/<input [^>]*name="email"/);
    expect(page).toMatch(/<input [^>]*name="password"/);

    const session = await http(server, "/auth/session");
    expect(session.status, server.output()).toBe(200);
    expect(session.headers.get("content-type")).toContain("application/json");
    expect(await session.json()).toBeNull();

    // SvelteKit checks the origin of form posts, so the auth handler's double-submit token is off:
    // /auth/csrf answers (from the auth handle) that the framework handles it, and a cross-site post is refused.
    const csrf = await http(server, "/auth/csrf");
    expect(csrf.status).toBe(404);
    expect(await csrf.json()).toEqual({ error: "NotFound", message: "CSRF protection is handled by the framework." });
    const crossSite = await http(server, "/signin", { form: { email: "a@example.test", password: "pw" }, headers: { origin: "http://evil.example" } });
    expect(crossSite.status).toBe(403);
  } finally {
    await server.stop();
  }
}

describe("sv create --no-types (JavaScript, no checkJs) with its own src/hooks.server.js", () => {
  beforeAll(async () => {
    jsApp = await making.js;
  }, 900_000);

  it("edits src/hooks.server.js in place, sequencing the auth handle before the app's (no hooks.server.ts)", () => {
    const { dir, initOutput } = jsApp;
    expect(initOutput).toContain("updated src/hooks.server.js");
    expect(existsSync(join(dir, "src/hooks.server.ts"))).toBe(false);
    const hooks = read(dir, "src/hooks.server.js");
    expect(hooks).toMatch(/import \{ handle as authHandle \} from ["']\.\/auth["'];/);
    expect(hooks).toMatch(/import \{ sequence \} from ["']@sveltejs\/kit\/hooks["'];/);
    expect(hooks).toContain("const appHandle = async ({ event, resolve }) =>");
    expect(hooks).toContain("export const handle = sequence(authHandle, appHandle);");
  });

  it("writes JavaScript: .js modules with their types erased, plain <script> in .svelte, no .ts file and no app.d.ts", () => {
    const { dir } = jsApp;
    const modules = ["src/auth.js", "src/lib/server/db.js", "src/lib/server/schema.js", "src/routes/+layout.server.js", "src/routes/signin/+page.server.js", "src/routes/signout/+page.server.js", "src/routes/account/+page.server.js"];
    for (const path of modules) expect(existsSync(join(dir, path)), path).toBe(true);
    const src = under(dir, "src");
    expect(src.filter((path) => /\.(ts|mts|cts)$/.test(path))).toEqual([]);
    expect(existsSync(join(dir, "src/app.d.ts"))).toBe(false);
    const svelte = src.filter((path) => path.endsWith(".svelte"));
    expect(svelte).toContain("src/routes/signin/+page.svelte");
    for (const path of svelte) expect(read(dir, path), path).not.toMatch(/<script[^>]*lang=["']ts["']/);
    // Node parses each as JavaScript: a type annotation left behind would be a syntax error.
    for (const path of src.filter((path) => path.endsWith(".js"))) {
      const checked = cli(process.execPath, ["--check", join(dir, path)], dir);
      expect(checked.code, `${path}: ${checked.stderr}`).toBe(0);
    }
  });

  it("a second run changes nothing", async () => {
    await secondRunChangesNothing(jsApp.dir);
  }, 300_000);

  it("builds; the built server serves the sign-in page, the session and the app's own hook", async () => {
    await buildAndServe(jsApp.dir);
  }, 300_000);
});

describe("sv create --types jsdoc (checkJs) with routes, lib and server hooks moved in vite.config.js", () => {
  beforeAll(async () => {
    jsdocApp = await making.jsdoc;
  }, 900_000);

  it("writes where SvelteKit looks: src/pages, src/library, and src/server/hooks.js sequencing the auth handle", () => {
    const { dir, initOutput } = jsdocApp;
    for (const path of ["src/pages/signin/+page.svelte", "src/pages/signin/+page.server.ts", "src/library/server/db.ts", "src/auth.ts"]) expect(existsSync(join(dir, path)), path).toBe(true);
    for (const path of ["src/routes", "src/lib", "src/hooks.server.js", "src/hooks.server.ts"]) expect(existsSync(join(dir, path)), path).toBe(false);
    expect(initOutput).toContain("updated src/server/hooks.js");
    const hooks = read(dir, "src/server/hooks.js");
    expect(hooks).toMatch(/import \{ handle as authHandle \} from ["']\.\.\/auth["'];/);
    expect(hooks).toContain("export const handle = sequence(authHandle, appHandle);");
    // Renamed, the app's handle no longer gets its type by its name: checkJs needs it spelled out.
    expect(hooks).toMatch(/\/\*\* @type \{import\('@sveltejs\/kit'\)\.Handle\} \*\/\s*const appHandle/);
    expect(read(dir, "src/app.d.ts")).toMatch(/interface Locals \{[^}]*auth\(\)/);
  });

  it("type-checks: `npm run check` (svelte-check with checkJs) exits 0", async () => {
    // run() rejects with svelte-check's output when it exits non-zero.
    const output = await run("npm", ["run", "check"], { cwd: jsdocApp.dir, timeoutMs: 180_000 });
    expect(output).toMatch(/svelte-check found 0 errors/);
  }, 200_000);

  it("a second run changes nothing", async () => {
    await secondRunChangesNothing(jsdocApp.dir);
  }, 300_000);

  it("builds; the built server serves the sign-in page, the session and the app's own hook", async () => {
    await buildAndServe(jsdocApp.dir);
  }, 300_000);
});

describe("a `files` location computed at run time", () => {
  beforeAll(async () => {
    refusedDir = await making.refused;
  }, 900_000);

  it("is refused: exit 1, naming vite.config.js, and no file of the app changed", () => {
    addPluginOption(refusedDir, "files: { routes: path.join('src', 'pages') }", "import path from 'node:path';\n");
    const before = snapshotDir(refusedDir);
    const result = cli(authInitBin, ["--yes", "--no-install"], refusedDir, NPM, 60_000);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(result.stderr).toContain("cannot tell where SvelteKit keeps this app's source");
    expect(result.stderr).toContain("`files.routes` in vite.config.js is not a string literal");
    expect(snapshotDir(refusedDir)).toEqual(before);
  }, 90_000);
});
