/**
 * auth-init in apps of other shapes than sv's TypeScript default, from a real
 * folder through the project's picture (`detect`) to the plan: a JavaScript app
 * (new modules in JavaScript, its own hooks.server.js edited, never a second
 * hooks file), a JavaScript app TypeScript checks (checkJs: TypeScript modules),
 * and SvelteKit's `files` locations from vite.config or svelte.config.js.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readProject } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { detect, DETECT_PATHS } from "../../src/generators/detect.js";
import type { InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths, planInit } from "../../src/generators/init/plan.js";
import { moduleToJavaScript } from "../../src/generators/javascript.js";
import type { Plan } from "../../src/plan/plan.js";
import { root } from "./support/cli.js";

const ANSWERS: InitAnswers = { framework: "sveltekit", providers: ["password", "github"], strategy: "database", adapter: "pglite", databaseUrl: "", accountPage: true };
const work = mkdtempSync(join(tmpdir(), "gatehouse-shapes-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** sv's minimal app with files replaced (`null` removes one). */
function app(name: string, files: Record<string, string | null>): string {
  const dir = join(work, name);
  cpSync(join(root, "test/cli/fixtures/sveltekit-minimal"), dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    if (text === null) rmSync(join(dir, path), { force: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
  return dir;
}

/** The plan as auth-init makes it: the picture first, then the paths it names, then the plan. */
function plan(dir: string): Plan {
  const detection = detect(readProject(dir, DETECT_PATHS));
  const project = readProject(dir, [...DETECT_PATHS, ...initPaths("sveltekit", detection.source)]);
  return planInit({ answers: ANSWERS, project, packageManager: "npm", templates: packageTemplates, runtimeSpec: "^0.1.0", cliSpec: "^0.1.0", secret: "s".repeat(43), source: detection.source });
}

const created = (p: Plan) => p.changes.filter((c) => c.before === null).map((c) => c.path);
const textOf = (p: Plan, path: string) => p.changes.find((c) => c.path === path)?.after;

const APP_HOOK = "export async function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n";
const JSCONFIG = (checkJs: boolean) => `{\n\t"extends": "./.svelte-kit/tsconfig.json",\n\t"compilerOptions": { "allowJs": true, "checkJs": ${checkJs}, "strict": true }\n}\n`;

describe("a JavaScript app (jsconfig.json, nothing type-checks it)", () => {
  const dir = app("javascript", { "tsconfig.json": null, "jsconfig.json": JSCONFIG(false), "src/app.d.ts": null, "vite.config.ts": null, "vite.config.js": "export default {};\n", "src/hooks.server.js": APP_HOOK });
  const p = plan(dir);

  it("its own hooks.server.js is edited, and no hooks.server.ts is written beside it (SvelteKit would use only one)", () => {
    expect(created(p)).not.toContain("src/hooks.server.ts");
    const hooks = textOf(p, "src/hooks.server.js")!;
    expect(hooks).toContain("export const handle = sequence(authHandle, appHandle);");
    expect(hooks).toContain("from './auth';");
    expect(hooks).toContain("/** @type {import('@sveltejs/kit').Handle} */");
  });

  it("every new module is JavaScript, every component's script plain; no declaration file", () => {
    const paths = created(p);
    expect(paths).toEqual(expect.arrayContaining(["src/auth.js", "src/lib/server/db.js", "src/lib/server/schema.js", "src/routes/signin/+page.server.js", "src/routes/+layout.server.js", "src/lib/auth-messages.js"]));
    expect(paths.filter((path) => /\.tsx?$/.test(path))).toEqual([]);
    for (const path of paths.filter((path) => path.endsWith(".js"))) {
      // Erasing again changes nothing: no TypeScript is left in it.
      expect(moduleToJavaScript(textOf(p, path)!), path).toBe(textOf(p, path));
    }
    for (const path of paths.filter((path) => path.endsWith(".svelte"))) expect(textOf(p, path), path).not.toMatch(/lang="ts"/);
    expect(p.changes.map((c) => c.path)).not.toContain("src/app.d.ts");
  });

  it("the route files import the config module", () => {
    expect(textOf(p, "src/routes/signin/+page.server.js")).toContain("from '../../auth';");
  });

  it("running again changes nothing", () => {
    for (const change of p.changes) {
      mkdirSync(dirname(join(dir, change.path)), { recursive: true });
      writeFileSync(join(dir, change.path), change.after);
    }
    expect(plan(dir).changes).toEqual([]);
  });
});

describe("a JavaScript app checked by TypeScript (sv's JSDoc: checkJs)", () => {
  const dir = app("jsdoc", { "tsconfig.json": null, "jsconfig.json": JSCONFIG(true), "vite.config.ts": null, "vite.config.js": "export default {};\n", "src/hooks.server.js": APP_HOOK });
  const p = plan(dir);

  it("new modules are TypeScript (its checker reads them; erased JavaScript would fail its strict check), App.Locals declared; its hooks.server.js edited", () => {
    expect(created(p)).toEqual(expect.arrayContaining(["src/auth.ts", "src/lib/server/db.ts", "src/routes/signin/+page.server.ts"]));
    expect(created(p)).not.toContain("src/hooks.server.ts");
    expect(textOf(p, "src/hooks.server.js")).toContain("sequence(authHandle, appHandle)");
    expect(textOf(p, "src/app.d.ts")).toContain("interface Locals");
    expect(textOf(p, "src/routes/signin/+page.svelte")).toContain('<script lang="ts">');
  });
});

describe("SvelteKit's files locations", () => {
  it("from sveltekit()'s options in vite.config: routes, lib and hooks where they say, imports between them computed", () => {
    const vite = `import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
\tplugins: [sveltekit({ adapter: adapter(), files: { routes: 'src/pages', lib: 'src/library', hooks: { server: 'src/server/hooks' } } })]
});
`;
    const p = plan(app("vite-files", { "vite.config.ts": vite, "src/routes/+page.svelte": null }));
    const paths = created(p);
    expect(paths).toEqual(expect.arrayContaining(["src/auth.ts", "src/pages/signin/+page.server.ts", "src/pages/+layout.svelte", "src/library/server/db.ts", "src/library/AuthHeader.svelte", "src/library/auth.css", "src/server/hooks.ts"]));
    expect(paths.filter((path) => path.startsWith("src/routes/") || path.startsWith("src/lib/") || path === "src/hooks.server.ts")).toEqual([]);
    expect(textOf(p, "src/server/hooks.ts")).toContain("export { handle } from '../auth';");
    expect(textOf(p, "src/pages/signout/+page.server.ts")).toContain("from '../../auth';");
  });

  it("from svelte.config.js (src moved): everything under it, the hooks file the app has there edited", () => {
    const svelteConfig = "export default { kit: { files: { src: 'app' } } };\n";
    const dir = app("svelte-config-files", { "vite.config.ts": "import { sveltekit } from '@sveltejs/kit/vite';\nexport default { plugins: [sveltekit()] };\n", "svelte.config.js": svelteConfig, "app/hooks.server.ts": "export const handle = ({ event, resolve }) => resolve(event);\n", "app/app.d.ts": "declare global { namespace App {} }\nexport {};\n" });
    const p = plan(dir);
    expect(created(p)).toEqual(expect.arrayContaining(["app/auth.ts", "app/routes/signin/+page.server.ts", "app/lib/server/db.ts"]));
    expect(textOf(p, "app/hooks.server.ts")).toContain("sequence(authHandle, appHandle)");
    expect(textOf(p, "app/app.d.ts")).toContain("interface Locals");
    expect(textOf(p, "app/lib/server/db.ts")).toContain("app/auth.ts calls it");
  });

  it("a location computed at run time is in the picture as a problem (auth-init refuses it: test/e2e/project-shapes.test.ts)", () => {
    const dir = app("computed", { "vite.config.ts": "import { sveltekit } from '@sveltejs/kit/vite';\nimport path from 'node:path';\nexport default { plugins: [sveltekit({ files: { routes: path.join('src', 'pages') } })] };\n" });
    expect(detect(readProject(dir, DETECT_PATHS)).sourceProblem).toMatchObject({ path: "vite.config.ts", reason: expect.stringMatching(/files\.routes/) });
  });
});

describe("a JavaScript SolidStart app (jsconfig.json, .jsx files)", () => {
  const answers: InitAnswers = { framework: "solid-start", providers: ["password", "github"], strategy: "database", adapter: "pglite", databaseUrl: "", accountPage: true };
  const solidPlan = (dir: string): Plan => {
    const detection = detect(readProject(dir, DETECT_PATHS));
    const project = readProject(dir, [...DETECT_PATHS, ...initPaths("solid-start", detection.source)]);
    return planInit({ answers, project, packageManager: "npm", templates: packageTemplates, runtimeSpec: "^0.1.0", cliSpec: "^0.1.0", secret: "s".repeat(43), source: detection.source, frameworkMajor: 2 });
  };
  const dir = join(work, "solid-js");
  cpSync(join(root, "test/cli/fixtures/solid-start-v2-js"), dir, { recursive: true });
  const p = solidPlan(dir);

  it("every new module is JavaScript (.js, pages .jsx), with nothing left to erase", () => {
    const paths = created(p);
    expect(paths).toEqual(expect.arrayContaining(["src/auth.js", "src/middleware.js", "src/routes/signin.jsx", "src/routes/api/auth/[...solidauth].js", "src/lib/server/db.js", "src/lib/server/close-database.js", "src/lib/auth-header.jsx", "nitro.config.js"]));
    expect(paths.filter((path) => /\.tsx?$/.test(path))).toEqual([]);
    for (const path of paths.filter((path) => /\.jsx?$/.test(path))) {
      expect(moduleToJavaScript(textOf(p, path)!, { jsx: path.endsWith(".jsx") }), path).toBe(textOf(p, path));
    }
  });

  it("the app's own files are edited in their language; the configs name the JavaScript files", () => {
    expect(textOf(p, "src/app.jsx")).toContain("<MetaProvider>");
    expect(textOf(p, "vite.config.js")).toContain('middleware: "./src/middleware.js"');
    expect(textOf(p, "nitro.config.js")).toContain('"./src/lib/server/close-database.js"');
    expect(textOf(p, "nitro.config.js")).toContain('"./src/lib/server/startup-checks.js"');
    expect(p.changes.map((c) => c.path)).not.toContain("src/app.tsx");
  });

  it("running again changes nothing", () => {
    for (const change of p.changes) {
      mkdirSync(dirname(join(dir, change.path)), { recursive: true });
      writeFileSync(join(dir, change.path), change.after);
    }
    expect(solidPlan(dir).changes).toEqual([]);
  });
});
