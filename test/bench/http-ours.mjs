/**
 * Our apps for the HTTP benchmark, each made by our own CLI in an empty folder
 * with the same flags (`auth-init --yes --providers credentials --strategy jwt
 * --adapter pglite`, plus `--framework solid-start` for the SolidStart 2 one),
 * with this checkout's runtime packed into the app, as a user gets it. Before
 * the build, the bench adds a bare endpoint to each (GET /bench-bare, see
 * BARE_ROUTE): the whole app without the auth call, the limit its session read
 * is measured against; and to the SvelteKit one a bare page (BARE_PAGE_LOAD),
 * the limit of the page that reads the session. The CLI's templates know
 * nothing of them.
 *
 * Signing in is what a new user does: the generated sign-up form's post, the
 * mailed link to confirm the address, the sign-in form's post with the
 * password and the link's `confirm` token.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildNodeBin } from "../e2e/support/build-node.mjs";
import { cookiePairs } from "./measure.mjs";
import { SVELTEKIT_SERVER, USER, build, postForm, run, sessionCookie, stepsOf } from "./http-apps.mjs";

const AUTH_INIT = fileURLToPath(new URL("../../bin/auth-init.js", import.meta.url));
const FLAGS = ["--yes", "--providers", "credentials", "--strategy", "jwt", "--adapter", "pglite"];

/**
 * The bare endpoint, the same source in both frameworks (a SvelteKit `+server.ts`
 * and a SolidStart API route both export `GET`): the signed-in session read's
 * answer, its body and the headers that go with it (the content type and the
 * no-store headers: the same response, not a cheaper one), and no auth call.
 * They are one real session read's, which the bench writes to bench-bare.json in
 * the app's folder once it has signed in (the user's id is made at sign-up,
 * after the build); read on the first request, then kept.
 */
const BARE_ROUTE = `import { readFileSync } from "node:fs";

let answer: { body: string; headers: Record<string, string> } | undefined;

export function GET(): Response {
  answer ??= JSON.parse(readFileSync("bench-bare.json", "utf8"));
  return new Response(answer!.body, { headers: answer!.headers });
}
`;
export const BARE_PATH = "/bench-bare";

/**
 * The bare page (SvelteKit only): a copy of the generated `/protected` page's
 * markup whose load hands it the user of the recorded session read
 * (bench-bare.json) with no auth call. Against it, the page that reads the
 * session measures what auth adds to a rendered page.
 */
const BARE_PAGE_LOAD = `import { readFileSync } from "node:fs";

let user: unknown;

export function load() {
  user ??= JSON.parse(JSON.parse(readFileSync("bench-bare.json", "utf8")).body).user;
  return { user };
}
`;
export const BARE_PAGE_PATH = "/bench-bare-page";

/**
 * What differs between our two apps: where the CLI's pages post and the
 * handler answers, where the bare route goes, how the app is built and started.
 * SolidStart's posts carry the handler's CSRF token (SvelteKit's Origin check
 * stands in for it there).
 */
export const SVELTEKIT = {
  label: "SvelteKit",
  folder: "ours",
  initArgs: [],
  bareRoute: "src/routes/bench-bare/+server.ts",
  barePage: { dir: "src/routes/bench-bare-page", markup: "src/routes/protected/+page.svelte" },
  session: "/auth/session",
  signUp: "/auth/signup",
  // The /signin page's form action, which signs in through the handler.
  signIn: { path: "/signin", fields: { providerId: "password" } },
  server: SVELTEKIT_SERVER,
  build: { name: "build", run: (dir) => build(dir) },
};

export const SOLID_START = {
  label: "SolidStart",
  folder: "ours-solid",
  initArgs: ["--framework", "solid-start"],
  // No engine-strict: @solidjs/start 2 asks for Node >= 24 in its engines; it installs here, and builds on Node 24.
  initEnv: { npm_config_engine_strict: "false" },
  bareRoute: "src/routes/bench-bare.ts",
  session: "/api/auth/session",
  csrf: "/api/auth/csrf",
  signUp: "/api/auth/signup",
  signIn: { path: "/api/auth/callback/password", fields: {} },
  server: { entry: ".output/server/index.mjs", env: (origin) => ({ AUTH_URL: origin }) },
  // SolidStart 2 builds on Node >= 22 only; the built server runs on this Node (20).
  build: {
    name: "build (Node 24)",
    run: async (dir, nodeBin) => build(dir, { PATH: `${await nodeBin}${delimiter}${process.env.PATH ?? ""}` }),
  },
  buildNode: true,
};

/**
 * Makes our app of `framework` in `work`: `made` resolves to its folder once the
 * CLI has set it up and the bare route is in (the references copy its protected
 * page from there), `built` once it is built.
 */
export function makeOurApp(work, framework) {
  const dir = join(work, framework.folder);
  const { step, done } = stepsOf(`gatehouse, ${framework.label}`);
  // SolidStart's build Node installs (first run only) while the CLI installs the app.
  const nodeBin = framework.buildNode ? buildNodeBin() : undefined;
  nodeBin?.catch(() => undefined); // awaited by the build; must not count as unhandled if auth-init fails first
  const args = [AUTH_INIT, framework.folder, ...FLAGS, ...framework.initArgs];
  const made = step("auth-init (with its npm install)", () => run(process.execPath, args, work, framework.initEnv)).then(() => {
    mkdirSync(dirname(join(dir, framework.bareRoute)), { recursive: true });
    writeFileSync(join(dir, framework.bareRoute), BARE_ROUTE);
    if (framework.barePage) {
      mkdirSync(join(dir, framework.barePage.dir), { recursive: true });
      copyFileSync(join(dir, framework.barePage.markup), join(dir, framework.barePage.dir, "+page.svelte"));
      writeFileSync(join(dir, framework.barePage.dir, "+page.server.ts"), BARE_PAGE_LOAD);
    }
    return dir;
  });
  const built = made.then(async () => {
    await step(framework.build.name, () => framework.build.run(dir, nodeBin));
    done();
    return dir;
  });
  return { made, built };
}

/** The handler's CSRF token as a form field, and the cookie it goes with. */
async function csrfOf(app, path) {
  const response = await fetch(`${app.base}${path}`);
  const { csrfToken } = await response.json();
  const cookie = cookiePairs(response).find((c) => c.includes("csrf-token"));
  if (!csrfToken || !cookie) throw new Error(`${app.name}: GET ${path} answered no CSRF token (status ${response.status})`);
  return { fields: { csrfToken }, cookie };
}

/** A sign-up or sign-in post that went wrong: an error status, or a redirect to a page naming an error. */
async function refused(response) {
  const location = response.headers.get("location") ?? "";
  return response.status >= 400 || /[?&]error=/.test(location) ? `${response.status} ${location || (await response.text())}` : undefined;
}

/**
 * Ours, as a new user does it: the generated /signup page's post (to the
 * handler's /signup), which mails a link to confirm the address; the link opens
 * /signin, whose form signs in with the password and the link's `confirm` (the
 * link alone proves only the mailbox). Returns that sign-in's session cookie.
 */
export async function signInOurs(app, mail, framework) {
  const csrf = framework.csrf ? await csrfOf(app, framework.csrf) : { fields: {} };
  const signUp = await postForm(app, framework.signUp, { ...csrf.fields, name: USER.name, email: USER.email, password: USER.password }, csrf.cookie);
  const wrong = await refused(signUp);
  if (wrong) throw new Error(`${app.name}: sign-up answered ${wrong}`);
  const text = await mail.next();
  const link = text.match(/https?:\/\/\S+\/signin\?\S+/)?.[0];
  const confirm = link && new URL(link).searchParams.get("confirm");
  if (!confirm) throw new Error(`${app.name}: the sign-up mail has no link to /signin with a confirm token:\n${text}`);
  const fields = { ...csrf.fields, ...framework.signIn.fields, email: USER.email, password: USER.password, confirm };
  return sessionCookie(await postForm(app, framework.signIn.path, fields, csrf.cookie), `${app.name}: sign-in`);
}

/** The headers of a session read that describe its body and keep it out of caches: what the bare route answers too. */
const ANSWER_HEADERS = ["content-type", "cache-control", "pragma", "expires"];

/**
 * One real signed-in session read, its body and headers written where the bare
 * route reads them (see BARE_ROUTE). Resolves to that body: the bare endpoint's,
 * byte for byte.
 */
export async function recordBareBody(app, framework) {
  const response = await fetch(`${app.base}${framework.session}`, { headers: { cookie: app.cookie } });
  const body = await response.text();
  if (response.status !== 200 || !body.includes(`"email":"${USER.email}"`)) throw new Error(`${app.name}: the session read answers ${response.status} ${body}`);
  const headers = Object.fromEntries(ANSWER_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])));
  writeFileSync(join(app.dir, "bench-bare.json"), JSON.stringify({ body, headers }));
  return body;
}
