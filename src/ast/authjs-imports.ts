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
  const quote = importQuote(entry.text);
  const kept: KeptImport[] = [];
  let moved = 0;
  const keep = (node: Node, specifier: string, reason: string) => kept.push({ line: node.getStartLineNumber(), specifier, reason });

  // Last to first, so replacing one declaration's text never shifts one not yet visited.
  const declarations = [...file.getImportDeclarations(), ...file.getExportDeclarations()].sort((a, b) => b.getStart() - a.getStart());
  for (const declaration of declarations) {
    const specifier = declaration.getModuleSpecifierValue();
    if (specifier === undefined || !handledPackage(specifier)) continue;
    const outcome = Node.isImportDeclaration(declaration) ? moveImport(declaration, specifier, quote) : moveExport(declaration, specifier);
    if (outcome === true) moved++;
    else keep(declaration, specifier, outcome);
  }
  moved += moveAugmentations(file, keep);
  moved += moveTypeReferences(file);
  keepOtherReferences(file, keep);

  return { text: file.getFullText(), moved, kept: kept.sort((a, b) => a.line - b.line), stillImports: importedPackages(file) };
}

/** `true` when moved, else the reason it stays. */
function moveImport(declaration: ImportDeclaration, specifier: string, quote: string): true | string {
  const defaultImport = declaration.getDefaultImport()?.getText();
  const named = declaration.getNamedImports();
  if (declaration.getNamespaceImport()) return "a namespace import (`* as`): import the names you use one by one, then run the move again";
  if (!defaultImport && named.length === 0 && !declaration.getImportClause()) return "an import for its side effects only: gatehouse has no such module";

  const provider = providerModule(specifier);
  if (provider) {
    const ours = PROVIDER_EXPORTS[provider.name];
    if (!ours) {
      if (provider.via === AUTHJS_CORE) return `gatehouse has no ${provider.name} provider: Auth.js's runs in gatehouse's handler unchanged, from @auth/core`;
      declaration.setModuleSpecifier(`${AUTHJS_CORE}/providers/${provider.name}`);
      return `gatehouse has no ${provider.name} provider: it now comes from @auth/core (what ${provider.via} re-exported), and runs in gatehouse's handler unchanged`;
    }
    const missing = named.map((n) => n.getName()).filter((name) => !PROVIDER_MODULE_NAMES.includes(name));
    if (missing.length > 0) return `${missing.join(", ")}: not exported by ${PROVIDERS_MODULE}`;
    const items = [...(defaultImport ? [defaultImport === ours ? ours : `${ours} as ${defaultImport}`] : []), ...named.map((n) => n.getText())];
    const semicolon = declaration.getText().trimEnd().endsWith(";") ? ";" : "";
    declaration.replaceWithText(`import ${declaration.isTypeOnly() ? "type " : ""}{ ${items.join(", ")} } from ${quote}${PROVIDERS_MODULE}${quote}${semicolon}`);
    return true;
  }

  const target = MODULE_MAP[specifier];
  if (!target) return noModuleReason(specifier);
  if (defaultImport) return `a default import: ${specifier} has none in gatehouse`;
  const missing = named.map((n) => n.getName()).filter((name) => !target.names.includes(name));
  if (missing.length > 0) return `${missing.join(", ")}: not exported by ${target.module}`;
  declaration.setModuleSpecifier(target.module);
  return true;
}

function moveExport(declaration: ExportDeclaration, specifier: string): true | string {
  const target = MODULE_MAP[specifier];
  if (!target) return providerModule(specifier) ? "a re-export of a provider module: import the provider and export it" : noModuleReason(specifier);
  if (!declaration.hasNamedExports()) return "`export *`: re-export the names you use one by one, then run the move again";
  const missing = declaration.getNamedExports().map((n) => n.getName()).filter((name) => !target.names.includes(name));
  if (missing.length > 0) return `${missing.join(", ")}: not exported by ${target.module}`;
  declaration.setModuleSpecifier(target.module);
  return true;
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
function moveAugmentations(file: SourceFile, keep: (node: Node, specifier: string, reason: string) => void): number {
  let moved = 0;
  for (const module of file.getDescendantsOfKind(SyntaxKind.ModuleDeclaration)) {
    const name = module.getNameNode();
    if (!Node.isStringLiteral(name) || !handledPackage(name.getLiteralValue())) continue;
    const target = MODULE_MAP[name.getLiteralValue()];
    if (!target) {
      keep(module, name.getLiteralValue(), noModuleReason(name.getLiteralValue()));
      continue;
    }
    name.setLiteralValue(target.module);
    moved++;
  }
  return moved;
}

/** `/// <reference types="@auth/sveltekit" />` in `app.d.ts`. */
function moveTypeReferences(file: SourceFile): number {
  let moved = 0;
  for (const reference of [...file.getTypeReferenceDirectives()].reverse()) {
    const target = MODULE_MAP[reference.getFileName()];
    if (!target) continue;
    file.replaceText([reference.getPos(), reference.getEnd()], target.module);
    moved++;
  }
  return moved;
}

/** The handled Auth.js packages the file refers to in code (comments do not count). */
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
