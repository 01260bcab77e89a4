/**
 * SvelteKit: `src/auth.ts`, the `handle` hook, sign-in/sign-out routes with form
 * actions, the account forms (sign-up, forgot and reset password) posting to the
 * handler, a protected page, and `App.Locals` in `src/app.d.ts`; where the app's
 * config (`kit.files`) keeps its source, and in JavaScript in a JavaScript app.
 */
import { declareLocalsAuth } from "../../ast/sveltekit-app-types.js";
import { composeAuthHandle } from "../../ast/sveltekit-hooks.js";
import { addAuthHeader } from "../../ast/sveltekit-layout.js";
import { listedDependencies } from "../package-json.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import { DEFAULT_SOURCE, importBetween, inBothLanguages, placeIn } from "../source-layout.js";
import type { FileEdit, FrameworkLayout, InitTemplateData, LayoutContext, NewFile } from "./layout.js";

/** Where the templates put things; `placeIn` moves them where the app keeps its source, in its language. */
const HOOKS = "src/hooks.server.ts";
const AUTH_CONFIG = "src/auth.ts";
const APP_TYPES = "src/app.d.ts";
/** The root layout: the header goes in it. */
const LAYOUT = "src/routes/+layout.svelte";

export function svelteKit(context: LayoutContext = {}): FrameworkLayout {
  const source = context.source ?? DEFAULT_SOURCE;
  const place = (path: string) => placeIn(source, path);
  const authConfig = place(AUTH_CONFIG);
  const layout = place(LAYOUT);
  const hooks = inBothLanguages(`${source.hooksServer}.ts`);
  /** The root layout's server load: the session, for the header. */
  const layoutServer = inBothLanguages(`${source.routes}/+layout.server.ts`);
  /** A universal root load replaces what the server load gives the pages unless it passes it on. */
  const layoutUniversal = inBothLanguages(`${source.routes}/+layout.ts`);
  const signInPage = place("src/routes/signin/+page.svelte");
  return {
    id: "sveltekit",
    name: "SvelteKit",
    authPath: "/auth",
    devOrigin: "http://localhost:5173",
    paths: [...hooks, place(APP_TYPES), layout, ...layoutServer, ...layoutUniversal],
    signInPage,
    // Without {redirectTo}: a page written before it had OAuth providers does not declare it (SignIn reads ?redirectTo= itself).
    // Plain markup with auth.css's classes: the page may not import AuthField.
    signInButton: ({ id, name, type }) =>
      type === "email"
        ? `<SignIn provider="${id}" class="auth-secondary"><div class="auth-field"><label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required /></div>{#snippet submitButton()}Email me a sign-in link{/snippet}</SignIn>`
        : `<SignIn provider="${id}" class="auth-secondary">{#snippet submitButton()}Sign in with ${name}{/snippet}</SignIn>`,
    clientModule: "@gatehouse/runtime/sveltekit/client",
    place,
    authConfig,
    data: {
      envImport: "import { env } from '$env/dynamic/private';",
      env: "env",
      shutdownHook: `${authConfig} calls it on adapter-node's \`sveltekit:shutdown\``,
      // The routes that call signIn/signOut (one folder below the routes) and the hooks import the config module.
      authFromPage: importBetween(place("src/routes/signin/+page.server.ts"), authConfig),
      authFromHooks: importBetween(`${source.hooksServer}.ts`, authConfig),
    },

    newFiles(data: InitTemplateData, project): NewFile[] {
      const files = [
        AUTH_CONFIG,
        // The labelled input every page's forms use (its error under it, tied to it for screen readers).
        ...(data.signInFields || data.accountPage ? ["src/lib/AuthField.svelte"] : []),
        // The header on every page, and the session it shows; the app's own layout files are edited or kept (below).
        "src/lib/AuthHeader.svelte",
        ...(project.files[layout] == null ? [LAYOUT] : []),
        ...(layoutServer.every((path) => project.files[path] == null) ? ["src/routes/+layout.server.ts"] : []),
        // An existing hooks file (either language) is edited instead (below).
        ...(hooks.every((path) => project.files[path] == null) ? [HOOKS] : []),
        "src/routes/signin/+page.server.ts",
        "src/routes/signin/+page.svelte",
        "src/routes/signout/+page.server.ts",
        "src/routes/signout/+page.svelte",
        "src/routes/protected/+page.server.ts",
        "src/routes/protected/+page.svelte",
        ...(data.accountPage ? ["src/routes/account/+page.server.ts", "src/routes/account/+page.svelte"] : []),
        // Email + password accounts: plain forms posting to the auth handler.
        ...(data.credentials ? ["src/routes/signup/+page.svelte", "src/routes/forgot-password/+page.svelte", "src/routes/reset-password/+page.svelte"] : []),
      ];
      return files.map((path) => ({ path: place(path), template: `sveltekit/${path}.hbs` }));
    },

    edits(project): FileEdit[] {
      const hooksPath = hooks.find((path) => project.files[path] != null);
      const appTypes = place(APP_TYPES);
      const layoutText = project.files[layout];
      return [
        // The app's own handle is kept, sequenced after ours.
        ...(hooksPath ? [{ path: hooksPath, ...composeAuthHandle(project.files[hooksPath]!, importBetween(hooksPath, authConfig), { javascript: hooksPath.endsWith(".js") }) }] : []),
        // A JavaScript app that TypeScript does not check has no use for the declaration.
        ...(source.typeChecked || project.files[appTypes] != null ? [{ path: appTypes, ...declareLocalsAuth(project.files[appTypes] ?? "") }] : []),
        // The app's own layout keeps everything it has; the header goes above its pages.
        ...(layoutText == null ? [] : [{ path: layout, ...addAuthHeader(layoutText) }]),
        ...ownLoadsWithoutSession(project, layoutServer, layoutUniversal, place("src/lib/AuthHeader.svelte")),
      ];
    },

    scripts(project): Record<string, string> {
      // adapter-node's output does not read .env by itself; Node 20.6+ can.
      return usesAdapterNode(project) ? { start: "node --env-file=.env build" } : {};
    },

    nextSteps(project, run) {
      if (!usesAdapterNode(project)) {
        return { setup: [], production: ["In production, set AUTH_SECRET and AUTH_URL (the app's public URL, e.g. https://example.com) in the server's environment: outside development the request's Host header is not trusted."] };
      }
      const start = scriptOf(project, "start");
      const how = start === undefined || start === "node --env-file=.env build" ? `\`ORIGIN=https://example.com ${run("start")}\`` : "`ORIGIN=https://example.com node --env-file=.env build`";
      return { setup: [], production: [`For production: \`${run("build")}\`, then ${how}, with ORIGIN (or AUTH_URL) the app's public URL: outside development the request's Host header is not trusted.`] };
    },
  };
}

function usesAdapterNode(project: ProjectSnapshot): boolean {
  const pkg = project.files["package.json"];
  return pkg != null && "@sveltejs/adapter-node" in listedDependencies(pkg);
}

function scriptOf(project: ProjectSnapshot, name: string): string | undefined {
  const pkg = project.files["package.json"];
  if (pkg == null) return undefined;
  const scripts = (JSON.parse(pkg) as { scripts?: Record<string, string> }).scripts;
  return scripts?.[name];
}

/** The app's own root loads are kept; each that does not pass the session on is named, with what to add. */
function ownLoadsWithoutSession(project: ProjectSnapshot, layoutServer: string[], layoutUniversal: string[], header: string): FileEdit[] {
  const server = layoutServer.find((path) => project.files[path] != null);
  const universal = layoutUniversal.find((path) => project.files[path] != null);
  const kept: FileEdit[] = [];
  if (server && !/\bsession\b/.test(project.files[server]!)) {
    kept.push({ path: server, ok: false, reason: `it is the app's own: add \`session: await event.locals.auth()\` to what its load returns, for the header (${header} reads page.data.session)` });
  }
  if (universal && !/\bsession\b/.test(project.files[universal]!)) {
    kept.push({ path: universal, ok: false, reason: "it is the app's own: return the server load's `session: data.session` from its load too, or the header never sees who is signed in" });
  }
  return kept;
}
