/**
 * SvelteKit: `src/auth.ts`, the `handle` hook, sign-in/sign-out routes with form
 * actions, the account forms (sign-up, forgot and reset password) posting to the
 * handler, a protected page, and `App.Locals` in `src/app.d.ts`.
 */
import { declareLocalsAuth } from "../../ast/sveltekit-app-types.js";
import { composeAuthHandle } from "../../ast/sveltekit-hooks.js";
import { addAuthHeader } from "../../ast/sveltekit-layout.js";
import { listedDependencies } from "../package-json.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import type { FileEdit, FrameworkLayout, InitTemplateData, NewFile } from "./layout.js";

const HOOKS = "src/hooks.server.ts";
const APP_TYPES = "src/app.d.ts";
/** The root layout: the header goes in it. */
const LAYOUT = "src/routes/+layout.svelte";
/** The root layout's server load: the session, for the header. */
const LAYOUT_SERVER = ["src/routes/+layout.server.ts", "src/routes/+layout.server.js"];
/** A universal root load replaces what the server load gives the pages unless it passes it on. */
const LAYOUT_UNIVERSAL = ["src/routes/+layout.ts", "src/routes/+layout.js"];

export const svelteKit: FrameworkLayout = {
  id: "sveltekit",
  name: "SvelteKit",
  authPath: "/auth",
  devOrigin: "http://localhost:5173",
  paths: [HOOKS, APP_TYPES, LAYOUT, ...LAYOUT_SERVER, ...LAYOUT_UNIVERSAL],
  signInPage: "src/routes/signin/+page.svelte",
  // Without {redirectTo}: a page written before it had OAuth providers does not declare it (SignIn reads ?redirectTo= itself).
  // Plain markup with auth.css's classes: the page may not import AuthField.
  signInButton: ({ id, name, type }) =>
    type === "email"
      ? `<SignIn provider="${id}" class="auth-secondary"><div class="auth-field"><label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required /></div>{#snippet submitButton()}Email me a sign-in link{/snippet}</SignIn>`
      : `<SignIn provider="${id}" class="auth-secondary">{#snippet submitButton()}Sign in with ${name}{/snippet}</SignIn>`,
  clientModule: "@gatehouse/runtime/sveltekit/client",
  libDir: "src/lib/server",
  data: { envImport: "import { env } from '$env/dynamic/private';", env: "env", shutdownHook: "src/auth.ts calls it on adapter-node's `sveltekit:shutdown`" },

  newFiles(data: InitTemplateData, project): NewFile[] {
    const files = [
      "src/auth.ts",
      // The labelled input every page's forms use (its error under it, tied to it for screen readers).
      ...(data.signInFields || data.accountPage ? ["src/lib/AuthField.svelte"] : []),
      // The header on every page, and the session it shows; the app's own layout files are edited or kept (below).
      "src/lib/AuthHeader.svelte",
      ...(project.files[LAYOUT] == null ? [LAYOUT] : []),
      ...(LAYOUT_SERVER.every((path) => project.files[path] == null) ? [LAYOUT_SERVER[0]!] : []),
      // An existing hooks file is edited instead (below).
      ...(project.files[HOOKS] == null ? [HOOKS] : []),
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
    return files.map((path) => ({ path, template: `sveltekit/${path}.hbs` }));
  },

  edits(project): FileEdit[] {
    const hooks = project.files[HOOKS];
    const layout = project.files[LAYOUT];
    return [
      // The app's own handle is kept, sequenced after ours.
      ...(hooks == null ? [] : [{ path: HOOKS, ...composeAuthHandle(hooks, "./auth") }]),
      { path: APP_TYPES, ...declareLocalsAuth(project.files[APP_TYPES] ?? "") },
      // The app's own layout keeps everything it has; the header goes above its pages.
      ...(layout == null ? [] : [{ path: LAYOUT, ...addAuthHeader(layout) }]),
      ...ownLoadsWithoutSession(project),
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
function ownLoadsWithoutSession(project: ProjectSnapshot): FileEdit[] {
  const server = LAYOUT_SERVER.find((path) => project.files[path] != null);
  const universal = LAYOUT_UNIVERSAL.find((path) => project.files[path] != null);
  const kept: FileEdit[] = [];
  if (server && !/\bsession\b/.test(project.files[server]!)) {
    kept.push({ path: server, ok: false, reason: "it is the app's own: add `session: await event.locals.auth()` to what its load returns, for the header (src/lib/AuthHeader.svelte reads page.data.session)" });
  }
  if (universal && !/\bsession\b/.test(project.files[universal]!)) {
    kept.push({ path: universal, ok: false, reason: "it is the app's own: return the server load's `session: data.session` from its load too, or the header never sees who is signed in" });
  }
  return kept;
}
