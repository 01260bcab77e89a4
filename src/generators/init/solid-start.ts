/**
 * SolidStart (2 on Vite + Nitro, 1.x on vinxi): `src/auth.ts` (the config
 * object), the catch-all API route, sign-in/sign-out/sign-up pages, a
 * protected page and an account page, a request middleware registered in the
 * app's config (`vite.config.ts` for 2, `app.config.ts` for 1.x), the Nitro
 * plugin that closes the database as the server stops (registered in
 * `nitro.config.ts` for 2, in `app.config.ts`'s `server.plugins` for 1.x), and the
 * `<MetaProvider>` the pages' `<Title>` needs, in the root layout of `src/app.tsx`.
 */
import { OTHER_MIDDLEWARE, registerMiddleware, registerServerPlugin } from "../../ast/solid-start-config.js";
import { addAuthHeader } from "../../ast/solid-start-header.js";
import type { EditResult } from "../../ast/sveltekit-hooks.js";
import { addMetaProvider, META_MODULE } from "../../ast/solid-start-meta.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import { DEFAULT_SOURCE, inBothLanguages, placeIn, type SourceLayout } from "../source-layout.js";
import type { FileEdit, FrameworkLayout, InitTemplateData, LayoutContext, NewFile } from "./layout.js";

const MIDDLEWARE = "src/middleware.ts";
/** The app's root component: its Router's root layout gets the MetaProvider the pages' <Title> needs. */
const APP = "src/app.tsx";
/** The HTML document: a <title> of its own there would hide the pages' titles. */
const ENTRY_SERVER = "src/entry-server.tsx";
/** The pages set their titles with <Title> (the version range of the one the minimal app pins). */
const PAGE_DEPENDENCIES: Record<string, string> = { [META_MODULE]: "^0.29.4" };
/** SolidStart 2's Nitro config file, merged into the options of the nitro() Vite plugin. */
const NITRO_CONFIG = "nitro.config.ts";
/** The Nitro plugin (SolidStart 2) that makes the production checks as the server starts. */
const STARTUP_CHECKS = "src/lib/server/startup-checks.ts";
/** The Nitro plugin that closes the database as the server stops. */
const CLOSE_DATABASE = "src/lib/server/close-database.ts";
/** How app.config.ts (1.x) names it: vinxi passes a path starting with ./ to Nitro as a file, any other as a package. */
/** What a SolidStart 1.x server without the plugin does on SIGTERM or Ctrl-C. */
const UNCLOSED = "or the server exits on SIGTERM or Ctrl-C with the database still open (a PGlite folder is left as after a crash)";
const PGLITE = "@electric-sql/pglite";
const SIMPLEWEBAUTHN = "@simplewebauthn/server";
const NODEMAILER = "nodemailer";
/** What the built server cannot do when the app's own Nitro config does not trace the package. */
const TRACE_REASON: Record<string, string> = {
  [PGLITE]: "cannot find PGlite's WebAssembly files",
  [NODEMAILER]: "cannot send sign-in mails",
  [SIMPLEWEBAUTHN]: "cannot load @simplewebauthn/server (\"tsyringe requires a reflect polyfill\")",
};
/** Where each major keeps SolidStart's options, in the order they are looked for. */
const CONFIG_FILES: Record<1 | 2, readonly string[]> = {
  2: ["vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs"],
  1: ["app.config.ts", "app.config.js", "app.config.mjs"],
};
/**
 * Where this app has (or gets) the files the templates name: its own in whichever
 * language they are, new ones in the app's (`placeIn`: `.jsx`/`.js` in a JavaScript
 * app), and the entries its configs give them.
 */
interface AppFiles {
  middleware: string;
  app: string;
  entryServer: string;
  nitroConfig: string;
  startupChecks: string;
  closeDatabase: string;
  /** How each major's config names the middleware file (as their docs write it: `./` for 2, none for 1.x). */
  middlewareEntry: string;
  /** How a Nitro config names the plugin that closes the database (`./`: vinxi takes a bare path for a package). */
  closeDatabaseEntry: string;
}

function appFiles(source: SourceLayout, project: ProjectSnapshot | undefined, major: 1 | 2): AppFiles {
  const place = (path: string) => placeIn(source, path);
  // The app's own file in either language (a JavaScript app's src/app.jsx), else where a new one goes.
  const own = (path: string) => inBothLanguages(path).find((candidate) => project?.files[candidate] != null) ?? place(path);
  const middleware = own(MIDDLEWARE);
  const closeDatabase = place(CLOSE_DATABASE);
  return {
    middleware,
    app: own(APP),
    entryServer: own(ENTRY_SERVER),
    nitroConfig: own(NITRO_CONFIG),
    startupChecks: place(STARTUP_CHECKS),
    closeDatabase,
    middlewareEntry: major === 2 ? `./${middleware}` : middleware,
    closeDatabaseEntry: `./${closeDatabase}`,
  };
}

const DEV_ORIGIN: Record<1 | 2, string> = { 2: "http://localhost:5173", 1: "http://localhost:3000" };
/** Nitro's node-server output; it does not read .env by itself (Node 20.6+ can). */
const SERVER_ENTRY = ".output/server/index.mjs";
const START = `node --env-file=.env ${SERVER_ENTRY}`;
/** SolidStart 2's dev server and build call `fs.globSync` (Node 22+); its built server runs on Node 20. */
const V2_MIN_NODE = 22;

export function solidStart(context: LayoutContext = {}): FrameworkLayout {
  const major = solidStartMajor(context);
  const source = context.source ?? DEFAULT_SOURCE;
  const place = (path: string) => placeIn(source, path);
  const files = appFiles(source, context.project, major);
  return {
    id: "solid-start",
    name: "SolidStart",
    authPath: "/api/auth",
    devOrigin: DEV_ORIGIN[major],
    paths: [...[MIDDLEWARE, NITRO_CONFIG, APP, ENTRY_SERVER].flatMap(inBothLanguages), ...CONFIG_FILES[2], ...CONFIG_FILES[1]],
    signInPage: place("src/routes/signin.tsx"),
    // csrfToken and callbackUrl are the accessors every sign-in page auth-init writes declares. Plain markup with
    // auth.css's classes (the page may not import AuthField); outlined, a second choice, as on that page.
    signInButton: ({ id, name, type }) =>
      type === "email"
        ? `<form method="post" action="/api/auth/signin/${id}" class="auth-secondary">${HIDDEN_FIELDS}<div class="auth-field"><label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required /></div><button type="submit">Email me a sign-in link</button></form>`
        : `<form method="post" action="/api/auth/signin/${id}" class="auth-secondary">${HIDDEN_FIELDS}<button type="submit">Sign in with ${name}</button></form>`,
    clientModule: "@gatehouse/runtime/solid-start/client",
    place,
    authConfig: place("src/auth.ts"),
    // SolidStart's dev servers (vinxi, and Vite + Nitro) load .env into process.env for server code.
    // SolidStart 2 loads the app's server code at the first request: its checks at startup are a Nitro plugin
    // (1.x's loads src/auth.ts, which makes them, as it starts). `vinxi`: 1.x's Nitro 2, whose plugins differ from Nitro 3's.
    data: { envImport: "", env: "process.env", startupChecks: major === 2, vinxi: major === 1, shutdownHook: `the Nitro plugin ${files.closeDatabase} calls it`,
      // What nitro.config lists (and app.config.ts for 1.x): the plugins in the app's language.
      startupChecksEntry: `./${files.startupChecks}`,
      closeDatabaseEntry: files.closeDatabaseEntry,
    },

    dependencies: () => ({ ...PAGE_DEPENDENCIES }),

    newFiles(data: InitTemplateData, project): NewFile[] {
      const paths = [
        "src/auth.ts",
        // The labelled input every page's forms use (its error under it, tied to it for screen readers).
        ...(data.signInFields || data.accountPage ? ["src/lib/auth-field.tsx"] : []),
        // The header on every page, which src/app.tsx's root layout renders (see edits).
        "src/lib/auth-header.tsx",
        "src/routes/api/auth/[...solidauth].ts",
        "src/lib/session.ts",
        "src/lib/server/auth-handler.ts",
        // The app's own middleware (or another file its config registers) is kept: see edits.
        ...(project.files[files.middleware] == null && !registersOtherMiddleware(project, major, files) ? [MIDDLEWARE] : []),
        "src/routes/signin.tsx",
        "src/routes/signout.tsx",
        "src/routes/protected.tsx",
        ...(data.accountPage ? ["src/routes/account.tsx"] : []),
        // Email + password accounts: plain forms posting to the auth handler.
        ...(data.credentials ? ["src/routes/signup.tsx", "src/routes/forgot-password.tsx", "src/routes/reset-password.tsx"] : []),
        // Email + password accounts: the production mail check, and (2) the Nitro plugin that runs it at startup.
        ...(data.credentials ? ["src/lib/server/mail-settings.ts", ...(major === 2 ? [STARTUP_CHECKS] : [])] : []),
        // The Nitro plugin that closes the database as the server stops (nitro.config.ts or app.config.ts lists it).
        ...(data.hasAdapter ? [CLOSE_DATABASE] : []),
        // The app's own Nitro config is kept: see edits.
        ...((tracedDeps(data, major).length > 0 || (data.hasAdapter && major === 2)) && project.files[files.nitroConfig] == null ? [NITRO_CONFIG] : []),
      ];
      return paths.map((path) => ({ path: place(path), template: `solid-start/${path}.hbs` }));
    },

    edits(project, data): FileEdit[] {
      const edits: FileEdit[] = [];
      const nitroConfig = project.files[files.nitroConfig];
      if (nitroConfig != null) {
        const untraced = tracedDeps(data, major).filter((name) => !nitroConfig.includes(name));
        const missing: string[] = [];
        if (untraced.length > 0) {
          const why = untraced.map((name) => TRACE_REASON[name]).join(" and ");
          missing.push(`\`traceDeps: [${untraced.map((name) => `"${name}"`).join(", ")}]\` to it, or the built server ${why}`);
        }
        if (data.credentials && major === 2 && !nitroConfig.includes(files.startupChecks)) {
          missing.push(`\`plugins: ["./${files.startupChecks}"]\` to it, or a production server without a mail server starts and fails at its first request`);
        }
        if (data.hasAdapter && major === 2 && !nitroConfig.includes(files.closeDatabase)) {
          missing.push(`\`"${files.closeDatabaseEntry}"\` to its \`plugins\`, or the server does not exit on SIGTERM or Ctrl-C once the database is open`);
        }
        if (missing.length > 0) edits.push({ path: files.nitroConfig, ok: false, reason: `it is the app's own: add ${missing.join("; add ")}` });
      }
      const app = project.files[files.app];
      if (app != null) edits.push({ path: files.app, ...rootLayoutEdit(app) });
      else edits.push({ path: files.app, ok: false, reason: `it does not exist: wrap your app's root layout in <MetaProvider> from ${META_MODULE} by hand (the auth pages set their titles with <Title>, and do not render without it), and put <AuthHeader /> from ./lib/auth-header at its top` });
      // Browsers show a document's first <title>: one written in the document itself comes before the pages'.
      if (/<title[\s>]/.test(project.files[files.entryServer] ?? "")) edits.push({ path: files.entryServer, ok: false, reason: ownTitle(files.app) });
      const own = project.files[files.middleware];
      // The app's own middleware is never rewritten; one that already runs ours (a re-run) needs nothing.
      if (own != null && !own.includes("authMiddleware(")) edits.push({ path: files.middleware, ok: false, reason: OWN_MIDDLEWARE });
      const config = configFile(project, major);
      const closePlugin = data.hasAdapter && major === 1;
      if (config) edits.push(...configEdits(config, project.files[config]!, files, closePlugin));
      else {
        const expected = CONFIG_FILES[major][0]!;
        const plugin = closePlugin ? `, and the Nitro plugin with \`server: { plugins: ["${files.closeDatabaseEntry}"] }\` (${UNCLOSED})` : "";
        edits.push({ path: expected, ok: false, reason: `it does not exist, nor does any other SolidStart config: register the middleware by hand with \`middleware: "${files.middlewareEntry}"\` in SolidStart's options${plugin}` });
      }
      return edits;
    },

    scripts(project): Record<string, string> {
      // Only for Nitro's node-server output; another preset (vercel, netlify...) deploys its own way.
      return usesNodeServer(project, major) ? { start: START } : {};
    },

    nextSteps(project, run) {
      const setup: string[] = [];
      const node = Number(/^v?(\d+)/.exec(context.nodeVersion ?? "")?.[1]);
      if (major === 2 && node < V2_MIN_NODE) {
        setup.push(
          `SolidStart 2 needs Node.js ${V2_MIN_NODE} or newer for \`${run("dev")}\` and \`${run("build")}\` (this is Node.js ${context.nodeVersion}); the built server runs on Node.js 20 too.`,
        );
      }
      if (!usesNodeServer(project, major)) {
        return { setup, production: ["In production, give the server AUTH_SECRET and AUTH_URL (the app's public URL, e.g. https://example.com) in its environment: outside development the request's Host header is not trusted."] };
      }
      const start = scriptOf(project, "start");
      const how =
        start === undefined || start === START
          ? `\`${run("build")}\`, then \`${run("start")}\` (it reads .env)`
          : `\`${run("build")}\`, then \`${START}\` (\`node ${SERVER_ENTRY}\` alone does not read .env)`;
      const production = `For production: ${how}, with AUTH_URL set to the app's public URL (e.g. AUTH_URL=https://example.com): outside development the request's Host header is not trusted.`;
      return { setup, production: [production] };
    },
  };
}

/**
 * Packages Nitro 3 (SolidStart 2) must keep as packages of the built server rather than
 * bundle: PGlite, to find its .wasm and .data files; nodemailer, which the runtime imports
 * by a name Nitro cannot follow, when it sends a mail (sign-in links, sign-up
 * confirmations, password resets). Nitro 2 (vinxi) keeps dependencies external already.
 */
function tracedDeps(data: InitTemplateData, major: 1 | 2): string[] {
  if (major !== 2) return [];
  return [...(data.pglite ? [PGLITE] : []), ...(data.sendsMail ? [NODEMAILER] : []), ...(data.passkey ? [SIMPLEWEBAUTHN] : [])];
}

/**
 * SolidStart's config with the middleware registered and, when `closePlugin` (1.x with a
 * database), the Nitro plugin that closes the database in `server.plugins`: one edit of the
 * file with what could be added, and a refusal for each entry that could not.
 */
function configEdits(path: string, text: string, files: AppFiles, closePlugin: boolean): FileEdit[] {
  const middleware = registerMiddleware(text, files.middlewareEntry);
  if (!closePlugin || (!middleware.ok && middleware.syntaxError)) return [{ path, ...middleware }];
  const withMiddleware = middleware.ok ? middleware.text : text;
  const plugin = registerServerPlugin(withMiddleware, files.closeDatabaseEntry);
  const edits: FileEdit[] = [{ path, ok: true, text: plugin.ok ? plugin.text : withMiddleware }];
  if (!middleware.ok) edits.push({ path, ...middleware });
  if (!plugin.ok) edits.push({ path, ok: false, reason: `${plugin.reason}, ${UNCLOSED}` });
  return edits;
}

/**
 * The Router's root layout: a MetaProvider around it (the pages' <Title> needs one), and the
 * header first inside it. Either refused: the file is left alone, with what to add
 * (a file that does not parse stops the run instead).
 */
function rootLayoutEdit(app: string): EditResult {
  const meta = addMetaProvider(app);
  if (!meta.ok) return { ...meta, reason: `${meta.reason}; and put <AuthHeader /> from ./lib/auth-header at its top` };
  return addAuthHeader(meta.text);
}

/** The hidden fields of every form the sign-in page posts to the handler. */
const HIDDEN_FIELDS = `<input type="hidden" name="csrfToken" value={csrfToken() ?? ""} /><input type="hidden" name="callbackUrl" value={callbackUrl()} />`;

const ownTitle = (app: string) => `it has a <title> of its own, which browsers show instead of each page's <Title>: remove it, and give the app its default title with <Title> from ${META_MODULE} in ${app}'s root layout`;

const OWN_MIDDLEWARE =
  "it is the app's own: add `authMiddleware(authConfig, { protectedPaths: [\"/protected\"], signInPage: \"/signin\" })` (from @gatehouse/runtime/solid-start, with authConfig from ./auth) to its createMiddleware({ onRequest: [...] })";

/** 1 or 2: the detected major, else what the config files say (app.config.* is SolidStart 1's). */
function solidStartMajor({ major, project }: LayoutContext): 1 | 2 {
  if (major === 1 || major === 2) return major;
  if (major !== undefined) return major < 1 ? 1 : 2;
  return project && CONFIG_FILES[1].some((path) => project.files[path] != null) ? 1 : 2;
}

function configFile(project: ProjectSnapshot, major: 1 | 2): string | undefined {
  return CONFIG_FILES[major].find((path) => project.files[path] != null);
}

/** The config registers a middleware file other than ours: we neither create src/middleware.ts nor edit the config. */
function registersOtherMiddleware(project: ProjectSnapshot, major: 1 | 2, files: AppFiles): boolean {
  const config = configFile(project, major);
  if (!config) return false;
  const result = registerMiddleware(project.files[config]!, files.middlewareEntry);
  return !result.ok && result.reason.startsWith(OTHER_MIDDLEWARE);
}

/** Nitro builds for node-server unless the config names another preset. */
function usesNodeServer(project: ProjectSnapshot, major: 1 | 2): boolean {
  const config = configFile(project, major);
  const preset = config ? /\bpreset\s*:\s*["'`]([\w-]+)["'`]/.exec(project.files[config]!)?.[1] : undefined;
  return preset === undefined || preset === "node-server" || preset === "node";
}

function scriptOf(project: ProjectSnapshot, name: string): string | undefined {
  const pkg = project.files["package.json"];
  if (pkg == null) return undefined;
  try {
    const scripts = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts;
    const value = scripts?.[name];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
