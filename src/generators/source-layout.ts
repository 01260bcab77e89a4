/**
 * Where an app's source lives and in which language, the part of the project's
 * picture that decides where auth-init writes and what add-provider, migrate
 * and doctor read: TypeScript or JavaScript (tsconfig.json or jsconfig.json),
 * and SvelteKit's `files` locations (src, routes, lib, the server hooks) from
 * its config. Pure: it reads a `ProjectSnapshot`.
 */
import { posix } from "node:path";
import { readSvelteConfigFiles, readViteConfigFiles, type KitFilesOptions } from "../ast/sveltekit-files.js";
import type { SyntaxErrorAt } from "../ast/source.js";
import type { ProjectSnapshot } from "../engine/project.js";

export interface SourceLayout {
  /** The language of the app's own modules: new modules are written in it. */
  language: "ts" | "js";
  /**
   * TypeScript checks the code: a TypeScript app, or a JavaScript one with
   * `checkJs` (sv's "JavaScript with JSDoc"). Such an app declares `App.Locals`
   * in app.d.ts; a JavaScript app without checking needs no declaration file.
   */
  typeChecked: boolean;
  /** SvelteKit's `files` (relative, `/`, no trailing slash); SolidStart apps have the defaults. */
  src: string;
  routes: string;
  lib: string;
  /** The server hooks module without its extension (`src/hooks.server`). */
  hooksServer: string;
}

/** A config whose `files` cannot be read: where SvelteKit looks is unknown, so nothing is written. */
export interface SourceLayoutProblem {
  path: string;
  reason: string;
  syntaxError?: SyntaxErrorAt;
}

export const DEFAULT_SOURCE: SourceLayout = { language: "ts", typeChecked: true, src: "src", routes: "src/routes", lib: "src/lib", hooksServer: "src/hooks.server" };

/** SvelteKit's config files in the order it reads them: options given to the Vite plugin win over svelte.config.js. */
export const VITE_CONFIGS = ["vite.config.ts", "vite.config.js", "vite.config.mts", "vite.config.mjs"];
export const SVELTE_CONFIGS = ["svelte.config.js", "svelte.config.ts"];
const LANGUAGE_CONFIGS = ["tsconfig.json", "jsconfig.json"];

/** Every path `readSourceLayout` looks at, for `readProject`. */
export const SOURCE_LAYOUT_PATHS: readonly string[] = [...LANGUAGE_CONFIGS, ...VITE_CONFIGS, ...SVELTE_CONFIGS];

export function readSourceLayout(project: ProjectSnapshot, framework?: string): { layout: SourceLayout } | { problem: SourceLayoutProblem } {
  const language = languageOf(project);
  // SolidStart has no setting for where its source is: src/.
  if (framework !== "sveltekit") return { layout: { ...DEFAULT_SOURCE, ...language } };
  const files = kitFiles(project);
  if ("problem" in files) return files;
  const src = files.src ?? DEFAULT_SOURCE.src;
  return {
    layout: {
      ...language,
      src,
      routes: files.routes ?? `${src}/routes`,
      lib: files.lib ?? `${src}/lib`,
      hooksServer: files.hooksServer ?? `${src}/hooks.server`,
    },
  };
}

/**
 * A path as auth-init's templates name it (`src/routes/signin/+page.server.ts`,
 * `src/lib/server/db.ts`, `src/hooks.server.ts`), where this app keeps it, in
 * the language auth-init writes for it (`writesJavaScript`: `.js` for `.ts`, `.jsx` for `.tsx`).
 */
export function placeIn(source: SourceLayout, path: string): string {
  const moved = relocate(source, path);
  return writesJavaScript(source) && !moved.endsWith(".d.ts") ? moved.replace(/\.ts$/, ".js").replace(/\.tsx$/, ".jsx") : moved;
}

/**
 * auth-init writes plain JavaScript (types erased) into a JavaScript app that
 * nothing type-checks. An app checked by TypeScript (sv's "JavaScript with
 * JSDoc": jsconfig.json with checkJs) gets TypeScript modules instead: the
 * same TypeScript checks them (and Vite compiles them), where JavaScript with
 * its types erased would fail its strict check. The app's own files are
 * edited in their own language either way.
 */
export function writesJavaScript(source: SourceLayout): boolean {
  return source.language === "js" && !source.typeChecked;
}

function relocate(source: SourceLayout, path: string): string {
  if (path === "src/hooks.server.ts") return `${source.hooksServer}.ts`;
  if (path.startsWith("src/routes/")) return `${source.routes}/${path.slice("src/routes/".length)}`;
  if (path.startsWith("src/lib/")) return `${source.lib}/${path.slice("src/lib/".length)}`;
  if (path.startsWith("src/")) return `${source.src}/${path.slice("src/".length)}`;
  return path;
}

/**
 * A module's path in both languages, the TypeScript one first: `x.ts` and `x.js`,
 * `x.tsx` and `x.jsx`. The app's own files may be in either, whatever the app's
 * language (a JavaScript app can keep a TypeScript hooks file, and the reverse).
 */
export function inBothLanguages(path: string): [string, string] {
  const typescript = path.replace(/\.js$/, ".ts").replace(/\.jsx$/, ".tsx");
  return [typescript, typescript.replace(/\.ts$/, ".js").replace(/\.tsx$/, ".jsx")];
}

/** An import specifier from the module at `from` to the module at `to` (app paths, extensions dropped): `../../auth`. */
export function importBetween(from: string, to: string): string {
  const specifier = posix.relative(posix.dirname(from), to.replace(/\.(ts|js)$/, ""));
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

function languageOf(project: ProjectSnapshot): Pick<SourceLayout, "language" | "typeChecked"> {
  if (project.files["tsconfig.json"] != null) return { language: "ts", typeChecked: true };
  const jsconfig = project.files["jsconfig.json"];
  // sv's JavaScript apps have a jsconfig.json; "JavaScript with JSDoc" turns checkJs on.
  if (jsconfig != null) return { language: "js", typeChecked: /"checkJs"\s*:\s*true/.test(jsconfig) };
  return { language: DEFAULT_SOURCE.language, typeChecked: DEFAULT_SOURCE.typeChecked };
}

function kitFiles(project: ProjectSnapshot): KitFilesOptions | { problem: SourceLayoutProblem } {
  for (const path of VITE_CONFIGS) {
    const text = project.files[path];
    if (text == null) continue;
    const read = readViteConfigFiles(path, text);
    if (!read.ok) return { problem: { path, reason: read.reason, ...(read.syntaxError ? { syntaxError: read.syntaxError } : {}) } };
    if (read.configured) return read.files;
    break;
  }
  for (const path of SVELTE_CONFIGS) {
    const text = project.files[path];
    if (text == null) continue;
    const read = readSvelteConfigFiles(path, text);
    if (!read.ok) return { problem: { path, reason: read.reason, ...(read.syntaxError ? { syntaxError: read.syntaxError } : {}) } };
    return read.files;
  }
  return {};
}
