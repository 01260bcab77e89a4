/**
 * Where a SvelteKit app keeps its source, read from its config without running
 * it: `kit.files` in `svelte.config.js` (`export default { kit: { files } }`),
 * or `files` among the options of the `sveltekit(...)` Vite plugin (SvelteKit
 * 2.62+, where options passed to the plugin replace svelte.config.js). Only
 * string literals are read: a location computed at run time cannot be known
 * here, and guessing would write the auth files where SvelteKit never looks.
 */
// Types only: `detect` reads these configs for every command, so ts-morph loads when a config is read (./ts-morph.ts).
import type { ObjectLiteralExpression, SourceFile } from "ts-morph";
import { parseOrSyntaxError, type SyntaxErrorAt } from "./source.js";
import { tsMorph } from "./ts-morph.js";

/** The `files` options gatehouse writes into, as written (relative to the app); absent ones take SvelteKit's defaults. */
export interface KitFilesOptions {
  src?: string;
  routes?: string;
  lib?: string;
  /** `hooks.server`: the server hooks module, without its extension. */
  hooksServer?: string;
}

export type KitFilesRead =
  /** The config says (or says nothing, `{}`); `configured` is false when the file passes no options at all. */
  | { ok: true; files: KitFilesOptions; configured: boolean }
  | { ok: false; reason: string; syntaxError?: SyntaxErrorAt };

const READ: ReadonlyArray<[keyof KitFilesOptions, string[]]> = [
  ["src", ["src"]],
  ["routes", ["routes"]],
  ["lib", ["lib"]],
  ["hooksServer", ["hooks", "server"]],
];

/** `files` of a svelte.config.js / .ts. */
export function readSvelteConfigFiles(path: string, text: string): KitFilesRead {
  const { Node } = tsMorph();
  const parsed = parseOrSyntaxError({ path: asTs(path), text });
  if ("syntaxError" in parsed) return { ok: false, reason: `${path} does not parse`, syntaxError: parsed.syntaxError };
  const kit = findObject(parsed.file, (object) => {
    const parent = object.getParent();
    return Node.isPropertyAssignment(parent) && parent.getName() === "kit";
  });
  if (!kit) return { ok: true, files: {}, configured: true };
  return readFiles(path, kit);
}

/** `files` among the options of `sveltekit(...)` in a vite.config.*; `configured: false` when the plugin gets no options (svelte.config.js then applies). */
export function readViteConfigFiles(path: string, text: string): KitFilesRead {
  const { Node, SyntaxKind } = tsMorph();
  const parsed = parseOrSyntaxError({ path: asTs(path), text });
  if ("syntaxError" in parsed) return { ok: false, reason: `${path} does not parse`, syntaxError: parsed.syntaxError };
  const call = parsed.file.getDescendantsOfKind(SyntaxKind.CallExpression).find((node) => node.getExpression().getText() === "sveltekit");
  const options = call?.getArguments()[0];
  if (!options) return { ok: true, files: {}, configured: false };
  if (!Node.isObjectLiteralExpression(options)) return { ok: false, reason: `the options of sveltekit(...) in ${path} are not an object literal` };
  return readFiles(path, options);
}

function readFiles(path: string, options: ObjectLiteralExpression): KitFilesRead {
  const { Node } = tsMorph();
  const property = options.getProperty("files");
  if (!property) return { ok: true, files: {}, configured: true };
  const files = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
  if (!Node.isObjectLiteralExpression(files)) return { ok: false, reason: `\`files\` in ${path} is not an object literal` };
  const found: KitFilesOptions = {};
  for (const [key, names] of READ) {
    const value = lookup(files, names);
    if (value === undefined) continue;
    if (typeof value !== "string") return { ok: false, reason: `\`files.${names.join(".")}\` in ${path} is not a string literal (${value.text})` };
    found[key] = value.replace(/^\.\//, "").replace(/\/+$/, "");
  }
  return { ok: true, files: found, configured: true };
}

/** The literal at `names` in nested object literals; `{ text }` for anything else there; undefined when absent. */
function lookup(object: ObjectLiteralExpression, names: string[]): string | { text: string } | undefined {
  const { Node } = tsMorph();
  const [name, ...rest] = names;
  const property = object.getProperty(name!);
  if (!property) return undefined;
  const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
  if (rest.length > 0) return Node.isObjectLiteralExpression(value) ? lookup(value, rest) : { text: property.getText() };
  if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) return value.getLiteralValue();
  return { text: property.getText() };
}

function findObject(file: SourceFile, test: (object: ObjectLiteralExpression) => boolean): ObjectLiteralExpression | undefined {
  return file.getDescendantsOfKind(tsMorph().SyntaxKind.ObjectLiteralExpression).find(test);
}

/** Config files may be JavaScript: parsed as TypeScript, a superset for this purpose. */
function asTs(path: string): string {
  return path.replace(/\.(c|m)?js$/, ".$1ts");
}
