/**
 * SvelteKit: `src/auth.ts`, the `handle` hook, sign-in/sign-out routes with form
 * actions, the account forms (sign-up, forgot and reset password) posting to the
 * handler, a protected page, and `App.Locals` in `src/app.d.ts`.
 */
import { declareLocalsAuth } from "../../ast/sveltekit-app-types.js";
import { composeAuthHandle } from "../../ast/sveltekit-hooks.js";
import { listedDependencies } from "../package-json.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import type { FileEdit, FrameworkLayout, InitTemplateData, NewFile } from "./layout.js";

const HOOKS = "src/hooks.server.ts";
const APP_TYPES = "src/app.d.ts";

export const svelteKit: FrameworkLayout = {
  id: "sveltekit",
  name: "SvelteKit",
  authPath: "/auth",
  devOrigin: "http://localhost:5173",
  paths: [HOOKS, APP_TYPES],
  signInPage: "src/routes/signin/+page.svelte",
  // Without {redirectTo}: a page written before it had OAuth providers does not declare it (SignIn reads ?redirectTo= itself).
  signInButton: ({ id, name, type }) =>
    type === "email"
      ? `<SignIn provider="${id}"><label>Email <input name="email" type="email" autocomplete="email" required /></label>{#snippet submitButton()}Email me a sign-in link{/snippet}</SignIn>`
      : `<SignIn provider="${id}">{#snippet submitButton()}Sign in with ${name}{/snippet}</SignIn>`,
  clientModule: "@gatehouse/runtime/sveltekit/client",
  libDir: "src/lib/server",
  data: { envImport: "import { env } from '$env/dynamic/private';", env: "env" },

  newFiles(data: InitTemplateData, project): NewFile[] {
    const files = [
      "src/auth.ts",
      // An existing hooks file is edited instead (below).
      ...(project.files[HOOKS] == null ? [HOOKS] : []),
      "src/routes/signin/+page.server.ts",
      "src/routes/signin/+page.svelte",
      "src/routes/signout/+page.server.ts",
      "src/routes/signout/+page.svelte",
      "src/routes/protected/+page.server.ts",
      "src/routes/protected/+page.svelte",
      // Email + password accounts: plain forms posting to the auth handler.
      ...(data.credentials ? ["src/routes/signup/+page.svelte", "src/routes/forgot-password/+page.svelte", "src/routes/reset-password/+page.svelte"] : []),
    ];
    return files.map((path) => ({ path, template: `sveltekit/${path}.hbs` }));
  },

  edits(project): FileEdit[] {
    const hooks = project.files[HOOKS];
    return [
      // The app's own handle is kept, sequenced after ours.
      ...(hooks == null ? [] : [{ path: HOOKS, ...composeAuthHandle(hooks, "./auth") }]),
      { path: APP_TYPES, ...declareLocalsAuth(project.files[APP_TYPES] ?? "") },
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
