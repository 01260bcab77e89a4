/**
 * SvelteKit: `src/auth.ts`, the `handle` hook, sign-in/sign-out/sign-up routes
 * with form actions, a protected page, and `App.Locals` in `src/app.d.ts`.
 */
import { declareLocalsAuth } from "../../ast/sveltekit-app-types.js";
import { composeAuthHandle } from "../../ast/sveltekit-hooks.js";
import { listedDependencies } from "../package-json.js";
import type { FileEdit, FrameworkLayout, InitTemplateData, NewFile } from "./layout.js";

const HOOKS = "src/hooks.server.ts";
const APP_TYPES = "src/app.d.ts";

export const svelteKit: FrameworkLayout = {
  id: "sveltekit",
  name: "SvelteKit",
  authPath: "/auth",
  devOrigin: "http://localhost:5173",
  paths: [HOOKS, APP_TYPES],
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
      ...(data.signUp ? ["src/routes/signup/+page.server.ts", "src/routes/signup/+page.svelte"] : []),
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
    const deps = project.files["package.json"] ? listedDependencies(project.files["package.json"]) : {};
    return "@sveltejs/adapter-node" in deps ? { start: "node --env-file=.env build" } : {};
  },
};
