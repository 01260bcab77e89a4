/**
 * Moves one source file's imports from Auth.js (`@auth/sveltekit`,
 * `@auth/solid-start`, `@auth/core`) to gatehouse: the module specifier changes,
 * the code that uses the names does not (the APIs are the same). A provider's
 * default import becomes the named export of `@gatehouse/runtime/providers` under
 * the same local name. An import whose names gatehouse does not all have stays
 * as it is, with the reason, so nothing ends up pointing at a missing export.
 * Text in, text out; idempotent (a moved file has nothing left to move).
 */
import { Node, SyntaxKind, type ExportDeclaration, type ImportDeclaration, type SourceFile } from "ts-morph";
import {
  AUTHJS_CORE,
  AUTHJS_FRAMEWORK_PACKAGES,
  MODULE_MAP,
  PROVIDER_EXPORTS,
  PROVIDER_MODULE_NAMES,
  PROVIDERS_MODULE,
  providerModule,
} from "../generators/from-authjs/module-map.js";
import { importQuote, parseOrSyntaxError, type SourceText, type SyntaxErrorAt } from "./source.js";
import { replaceScripts, svelteScripts } from "./svelte-scripts.js";

/** An Auth.js import left in place, and why. */
export interface KeptImport {
  /** 1-based line in the file. */
  line: number;
  specifier: string;
  reason: string;
}

export interface MovedImports {
  text: string;
  /** How many import, export or augmentation sites now point at gatehouse. */
  moved: number;
  kept: KeptImport[];
  /** Auth.js packages the file still imports after the move. */
  stillImports: string[];
}

const HANDLED = new Set<string>([...AUTHJS_FRAMEWORK_PACKAGES, AUTHJS_CORE]);

/** The Auth.js package a specifier belongs to, when it is one this move handles (adapters such as `@auth/pg-adapter` stay by design). */
export function handledPackage(specifier: string): string | undefined {
  const name = /^(@auth\/[^/]+)/.exec(specifier)?.[1];
  return name !== undefined && HANDLED.has(name) ? name : undefined;
}

export function moveAuthjsImports(entry: SourceText): MovedImports | { syntaxError: SyntaxErrorAt } {
  return entry.path.endsWith(".svelte") ? moveInSvelte(entry) : moveInModule(entry);
}

/** Each `<script>` block moved as a module of its own; lines are the `.svelte` file's. */
function moveInSvelte(entry: SourceText): MovedImports | { syntaxError: SyntaxErrorAt } {
  const scripts = svelteScripts(entry.text);
  const results: MovedImports[] = [];
  for (const script of scripts) {
    const result = moveInModule({ path: `${entry.path}.ts`, text: script.code });
    if ("syntaxError" in result) return { syntaxError: { ...result.syntaxError, line: result.syntaxError.line + script.lineOffset } };
    results.push({ ...result, kept: result.kept.map((k) => ({ ...k, line: k.line + script.lineOffset })) });
  }
  return {
    text: replaceScripts(entry.text, scripts, results.map((r) => r.text)),
    moved: results.reduce((sum, r) => sum + r.moved, 0),
    kept: results.flatMap((r) => r.kept),
    stillImports: [...new Set(results.flatMap((r) => r.stillImports))].sort(),
  };
}

function moveInModule(entry: SourceText): MovedImports | { syntaxError: SyntaxErrorAt } {
  if (!/@auth\/(?:sveltekit|solid-start|core)\b/.test(entry.text)) return { text: entry.text, moved: 0, kept: [], stillImports: [] };
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return parsed;
  const { file } = parsed;
  const edits: TextEdit[] = [];
  const providerImports: ProviderImport[] = [];
  const keptAt: { pos: number; specifier: string; reason: string }[] = [];
  const keep = (node: Node, specifier: string, reason: string) => keptAt.push({ pos: node.getStart(), specifier, reason });

  for (const declaration of [...file.getImportDeclarations(), ...file.getExportDeclarations()]) {
    const specifier = declaration.getModuleSpecifierValue();
    if (specifier === undefined || !handledPackage(specifier)) continue;
    const outcome = Node.isImportDeclaration(declaration) ? moveImport(declaration, specifier) : moveExport(declaration, specifier);
    if ("reason" in outcome) keep(declaration, specifier, outcome.reason);
    if ("edit" in outcome) edits.push(outcome.edit);
    if ("provider" in outcome) providerImports.push(outcome.provider);
  }
  edits.push(...mergedProviderImports(providerImports, importQuote(entry.text), entry.text));
  edits.push(...moveAugmentations(file, keep), ...moveTypeReferences(file));
  keepOtherReferences(file, keep);

  const text = applyEdits(entry.text, edits);
  const moved = edits.filter((edit) => edit.moves).length + providerImports.length;
  // Lines as the moved file has them: what the user opens after the run.
  const kept = keptAt
    .map(({ pos, specifier, reason }) => ({ line: lineOf(text, movedPosition(pos, edits)), specifier, reason }))
    .sort((a, b) => a.line - b.line);
  return { text, moved, kept, stillImports: stillImported(text, entry.path) };
}

/** A replacement of `[start, end)` in the file's text; `moves` counts it as one import moved. */
interface TextEdit {
  start: number;
  end: number;
  text: string;
  moves?: boolean;
}

/** A provider's import, to become one name of the (single) import from `@gatehouse/runtime/providers`. */
interface ProviderImport {
  declaration: ImportDeclaration;
  typeOnly: boolean;
  /** `GitHub`, `GitHub as GitHubProvider`, `type GitHubProfile`. */
  items: string[];
}

type Outcome = { edit: TextEdit } | { provider: ProviderImport } | { reason: string } | { reason: string; edit: TextEdit };

function replaceSpecifier(declaration: ImportDeclaration | ExportDeclaration, module: string, moves = true): TextEdit {
  const literal = declaration.getModuleSpecifier()!;
  return { start: literal.getStart() + 1, end: literal.getEnd() - 1, text: module, moves };
}

function moveImport(declaration: ImportDeclaration, specifier: string): Outcome {
  const defaultImport = declaration.getDefaultImport()?.getText();
  const named = declaration.getNamedImports();
  if (declaration.getNamespaceImport()) return { reason: "a namespace import (`* as`): import the names you use one by one, then run the move again" };
  if (!declaration.getImportClause()) return { reason: "an import for its side effects only: gatehouse has no such module" };

  const provider = providerModule(specifier);
  if (provider) {
    const ours = PROVIDER_EXPORTS[provider.name];
    if (!ours) {
      if (provider.via === AUTHJS_CORE) return { reason: `gatehouse has no ${provider.name} provider: Auth.js's runs in gatehouse's handler unchanged, from @auth/core` };
      return {
        reason: `gatehouse has no ${provider.name} provider: it now comes from @auth/core (what ${provider.via} re-exported), and runs in gatehouse's handler unchanged`,
        edit: replaceSpecifier(declaration, `${AUTHJS_CORE}/providers/${provider.name}`, false),
      };
    }
    const missing = named.map((n) => n.getName()).filter((name) => !PROVIDER_MODULE_NAMES.includes(name));
    if (missing.length > 0) return { reason: `${missing.join(", ")}: not exported by ${PROVIDERS_MODULE}` };
    const items = [...(defaultImport ? [defaultImport === ours ? ours : `${ours} as ${defaultImport}`] : []), ...named.map((n) => n.getText())];
    return { provider: { declaration, typeOnly: declaration.isTypeOnly(), items } };
  }

  const target = MODULE_MAP[specifier];
  if (!target) return { reason: noModuleReason(specifier) };
  if (defaultImport) return { reason: `a default import: ${specifier} has none in gatehouse` };
  const missing = named.map((n) => n.getName()).filter((name) => !target.names.includes(name));
  if (missing.length > 0) return { reason: `${missing.join(", ")}: not exported by ${target.module}` };
  return { edit: replaceSpecifier(declaration, target.module) };
}

function moveExport(declaration: ExportDeclaration, specifier: string): Outcome {
  const target = MODULE_MAP[specifier];
  if (!target) return { reason: providerModule(specifier) ? "a re-export of a provider module: import the provider and export it" : noModuleReason(specifier) };
  if (!declaration.hasNamedExports()) return { reason: "`export *`: re-export the names you use one by one, then run the move again" };
  const missing = declaration.getNamedExports().map((n) => n.getName()).filter((name) => !target.names.includes(name));
  if (missing.length > 0) return { reason: `${missing.join(", ")}: not exported by ${target.module}` };
  return { edit: replaceSpecifier(declaration, target.module) };
}

/**
 * The providers' imports become one declaration where the first of them was
 * (one for values, one for `import type`), in the file's quotes and semicolons;
 * the others go, with their line.
 */
function mergedProviderImports(imports: readonly ProviderImport[], quote: string, text: string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const typeOnly of [false, true]) {
    const group = imports.filter((i) => i.typeOnly === typeOnly);
    if (group.length === 0) continue;
    const [first, ...rest] = group;
    const items = [...new Set(group.flatMap((i) => i.items))];
    const semicolon = first!.declaration.getText().trimEnd().endsWith(";") ? ";" : "";
    const merged = `import ${typeOnly ? "type " : ""}{ ${items.join(", ")} } from ${quote}${PROVIDERS_MODULE}${quote}${semicolon}`;
    edits.push({ start: first!.declaration.getStart(), end: first!.declaration.getEnd(), text: merged });
    for (const other of rest) edits.push(wholeLine(other.declaration, text));
  }
  return edits;
}

/** Removes a statement, and its line when nothing else is on it. */
function wholeLine(node: Node, text: string): TextEdit {
  const lineStart = text.lastIndexOf("\n", node.getStart() - 1) + 1;
  const newline = text.indexOf("\n", node.getEnd());
  const lineEnd = newline === -1 ? text.length : newline + 1;
  const alone = text.slice(lineStart, node.getStart()).trim() === "" && text.slice(node.getEnd(), lineEnd).trim() === "";
  return alone ? { start: lineStart, end: lineEnd, text: "" } : { start: node.getStart(), end: node.getEnd(), text: "" };
}

/** Where `pos` of the original text is after the edits (none of which spans it). */
function movedPosition(pos: number, edits: readonly TextEdit[]): number {
  return edits.filter((edit) => edit.end <= pos).reduce((at, edit) => at + edit.text.length - (edit.end - edit.start), pos);
}

function lineOf(text: string, pos: number): number {
  return text.slice(0, pos).split("\n").length;
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

const NO_MODULE: Readonly<Record<string, string>> = {
  "@auth/sveltekit/components":
    "gatehouse's SignIn and SignOut components (@gatehouse/runtime/sveltekit/components) take other props; Auth.js's keep working: they post to your /signin and /signout actions",
  "@auth/sveltekit/webauthn": "passkeys sign in with signIn(\"passkey\") from @gatehouse/runtime/sveltekit/client: move this by hand",
};

function noModuleReason(specifier: string): string {
  return NO_MODULE[specifier] ?? `gatehouse has no module that stands for ${specifier}`;
}

/** `declare module "@auth/sveltekit" { interface Session {...} }` augments the same interfaces in gatehouse's module. */
function moveAugmentations(file: SourceFile, keep: (node: Node, specifier: string, reason: string) => void): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const module of file.getDescendantsOfKind(SyntaxKind.ModuleDeclaration)) {
    const name = module.getNameNode();
    if (!Node.isStringLiteral(name) || !handledPackage(name.getLiteralValue())) continue;
    const target = MODULE_MAP[name.getLiteralValue()];
    if (target) edits.push({ start: name.getStart() + 1, end: name.getEnd() - 1, text: target.module, moves: true });
    else keep(module, name.getLiteralValue(), noModuleReason(name.getLiteralValue()));
  }
  return edits;
}

/** `/// <reference types="@auth/sveltekit" />` in `app.d.ts`. */
function moveTypeReferences(file: SourceFile): TextEdit[] {
  return file.getTypeReferenceDirectives().flatMap((reference) => {
    const target = MODULE_MAP[reference.getFileName()];
    return target ? [{ start: reference.getPos(), end: reference.getEnd(), text: target.module, moves: true }] : [];
  });
}

/** The handled Auth.js packages the moved text refers to in code (comments do not count). */
function stillImported(text: string, path: string): string[] {
  const parsed = parseOrSyntaxError({ path, text });
  return "syntaxError" in parsed ? [] : importedPackages(parsed.file);
}

function importedPackages(file: SourceFile): string[] {
  const names = new Set<string>();
  for (const literal of file.getDescendantsOfKind(SyntaxKind.StringLiteral)) {
    const name = handledPackage(literal.getLiteralValue());
    const parent = literal.getParent();
    const isReference =
      Node.isImportDeclaration(parent) || Node.isExportDeclaration(parent) || Node.isModuleDeclaration(parent) || Node.isCallExpression(parent) || Node.isLiteralTypeNode(parent);
    if (name && isReference) names.add(name);
  }
  for (const reference of file.getTypeReferenceDirectives()) {
    const name = handledPackage(reference.getFileName());
    if (name) names.add(name);
  }
  return [...names].sort();
}

/** `import("@auth/core/jwt")`, `require(...)`, `import("...").Type`: said, not guessed at. */
function keepOtherReferences(file: SourceFile, keep: (node: Node, specifier: string, reason: string) => void): void {
  for (const literal of file.getDescendantsOfKind(SyntaxKind.StringLiteral)) {
    const value = literal.getLiteralValue();
    if (!handledPackage(value)) continue;
    const parent = literal.getParent();
    const inHandledSite =
      Node.isImportDeclaration(parent) || Node.isExportDeclaration(parent) || Node.isModuleDeclaration(parent);
    if (inHandledSite) continue;
    const inCode = Node.isCallExpression(parent) || Node.isLiteralTypeNode(parent);
    if (inCode) keep(literal, value, "a dynamic import, require() or import type: change it by hand to the module the table in the docs names");
  }
}
