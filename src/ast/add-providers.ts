/**
 * `auth add-provider`'s edit: adds providers to the user's auth config — the
 * import (merged into an existing import of the providers module) and an entry
 * in the `providers` array — wherever the config keeps that array: an object
 * passed to `SvelteKitAuth`, an object a config function returns, an exported
 * config object, a local `providers` variable, or one imported from a relative
 * module of the app (one hop). Text in, text out, idempotent; anything else is
 * refused with the reason, so the command can say what to add by hand.
 */
import { Node, SyntaxKind, type ArrayLiteralExpression, type Expression, type Project, type SourceFile } from "ts-morph";
import { appendItems, parseOrSyntaxError, unwrap, type SourceText, type SyntaxErrorAt } from "./source.js";

export type { SourceText } from "./source.js";

export const PROVIDERS_MODULE = "@gatehouse/runtime/providers";

/** A module of the app that does not parse, and where: the command stops before writing anything. */
export interface UnparsableModule extends SyntaxErrorAt {
  path: string;
}

export type AddProvidersResult =
  | { ok: true; edits: SourceText[]; added: string[]; present: string[] }
  | { ok: false; reason: string; unparsable?: UnparsableModule };

/**
 * `entry` is the config module; `read` returns another module of the app by its
 * app-relative path (`null` when missing), for arrays kept in another file.
 */
export function addProviders(entry: SourceText, importNames: readonly string[], read: (path: string) => string | null): AddProvidersResult {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return unparsable(entry.path, parsed.syntaxError);
  const { project, file } = parsed;
  const located = findProvidersArray(file, entry.path, read, project);
  if ("unparsable" in located) return { ok: false, reason: located.reason, unparsable: located.unparsable };
  if ("reason" in located) return { ok: false, reason: located.reason };
  const { array, source } = located;

  const added: string[] = [];
  const present: string[] = [];
  for (const importName of importNames) {
    const ours = localName(source, importName);
    // The same name imported from elsewhere (e.g. Auth.js's provider) counts when the array uses it.
    const taken = !ours && declares(source, importName);
    const local = ours ?? (taken ? importName : undefined);
    if (local && array.getElements().some((element) => calls(element, local))) {
      present.push(importName);
      continue;
    }
    if (taken) return { ok: false, reason: `${source.getBaseName()} already declares \`${importName}\` for something else` };
    added.push(importName);
  }
  if (added.length > 0) {
    const names = added.map((importName) => localName(source, importName) ?? importName);
    appendItems(source, array, names.map((text) => ({ text })));
    for (const importName of added) if (!localName(source, importName)) addImport(source, importName);
  }
  if (added.length === 0) return { ok: true, edits: [], added, present };
  const path = source === file ? entry.path : (located.path ?? entry.path);
  return { ok: true, edits: [{ path, text: source.getFullText() }], added, present };
}

type Located = { array: ArrayLiteralExpression; source: SourceFile; path?: string } | { reason: string; unparsable?: UnparsableModule };

function unparsable(path: string, at: SyntaxErrorAt): { ok: false; reason: string; unparsable: UnparsableModule } {
  return { ok: false, reason: `${path} does not parse as TypeScript (line ${at.line}, column ${at.column}: ${at.message})`, unparsable: { path, ...at } };
}

/** The one `providers` array the config uses, followed through a variable or one relative import. */
function findProvidersArray(file: SourceFile, path: string, read: (path: string) => string | null, project: Project): Located {
  const arrays = new Set<ArrayLiteralExpression>();
  let elsewhere: Located | undefined;
  for (const property of file.getDescendants()) {
    let value: Expression | undefined;
    if (Node.isPropertyAssignment(property) && property.getName() === "providers") value = property.getInitializer();
    else if (Node.isShorthandPropertyAssignment(property) && property.getName() === "providers") value = property.getNameNode();
    else continue;
    const target = unwrap(value);
    if (Node.isArrayLiteralExpression(target)) arrays.add(target);
    else if (Node.isIdentifier(target)) {
      const found = resolveIdentifier(file, target.getText(), path, read, project);
      if ("reason" in found) return found;
      if (found.source === file) arrays.add(found.array);
      else elsewhere = found;
    } else {
      return { reason: `its providers are computed (\`${target?.getText().slice(0, 60)}\`), not written as an array` };
    }
  }
  const count = arrays.size + (elsewhere ? 1 : 0);
  if (count === 0) return { reason: `${path} has no \`providers: [...]\`` };
  if (count > 1) return { reason: `${path} has more than one providers array` };
  return elsewhere ?? { array: [...arrays][0]!, source: file };
}

function resolveIdentifier(file: SourceFile, name: string, path: string, read: (path: string) => string | null, project: Project): Located {
  const variable = file.getVariableDeclaration(name);
  if (variable) {
    const init = unwrap(variable.getInitializer());
    return Node.isArrayLiteralExpression(init) ? { array: init, source: file } : { reason: `\`${name}\` in ${path} is not an array literal` };
  }
  const imported = file.getImportDeclarations().find((d) => d.getNamedImports().some((n) => (n.getAliasNode() ?? n.getNameNode()).getText() === name));
  const specifier = imported?.getModuleSpecifierValue();
  if (!imported || !specifier?.startsWith(".")) return { reason: `\`${name}\` is not declared in ${path} or imported from a module of the app` };
  const exported = imported.getNamedImports().find((n) => (n.getAliasNode() ?? n.getNameNode()).getText() === name)!.getName();
  for (const candidate of modulePaths(path, specifier)) {
    const text = read(candidate);
    if (text === null) continue;
    // The array is edited there: a module that does not parse is refused as the config itself would be.
    const parsed = parseOrSyntaxError({ path: candidate, text }, project);
    if ("syntaxError" in parsed) return unparsable(candidate, parsed.syntaxError);
    const other = parsed.file;
    const declaration = other.getVariableDeclaration(exported);
    const init = unwrap(declaration?.getInitializer());
    if (!declaration?.getVariableStatement()?.isExported() || !Node.isArrayLiteralExpression(init)) {
      return { reason: `${candidate} does not export \`${exported}\` as an array literal` };
    }
    return { array: init, source: other, path: candidate };
  }
  return { reason: `cannot find the module ${specifier} imported by ${path}` };
}

/** `./providers` from `src/auth.ts` -> `src/providers.ts`, `.js` written for a `.ts` file, index files. */
function modulePaths(from: string, specifier: string): string[] {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  const base = parts.join("/").replace(/\.(js|mjs|ts|mts)$/, "");
  return [`${base}.ts`, `${base}.mts`, `${base}.js`, `${base}/index.ts`];
}

/** The local name of `importName` imported from the providers module (aliases included). */
function localName(file: SourceFile, importName: string): string | undefined {
  for (const declaration of file.getImportDeclarations()) {
    if (declaration.getModuleSpecifierValue() !== PROVIDERS_MODULE) continue;
    const named = declaration.getNamedImports().find((n) => n.getName() === importName);
    if (named) return (named.getAliasNode() ?? named.getNameNode()).getText();
  }
  return undefined;
}

function declares(file: SourceFile, name: string): boolean {
  return file.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === name && isDeclarationName(id));
}

function isDeclarationName(id: Node): boolean {
  const parent = id.getParent();
  return Boolean(parent && (Node.isImportSpecifier(parent) || Node.isVariableDeclaration(parent) || Node.isFunctionDeclaration(parent) || Node.isImportClause(parent)));
}

/** `GitHub`, `GitHub(...)` or `GitHub({...})` as an element of the array. */
function calls(element: Node, local: string): boolean {
  const target = Node.isCallExpression(element) ? element.getExpression() : element;
  return target.getText() === local;
}

function addImport(file: SourceFile, importName: string): string {
  const existing = file.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === PROVIDERS_MODULE && !d.isTypeOnly() && !d.getNamespaceImport());
  if (existing) existing.addNamedImport(importName);
  else {
    const imports = file.getImportDeclarations();
    const index = imports.length === 0 ? 0 : imports[imports.length - 1]!.getChildIndex() + 1;
    file.insertImportDeclaration(index, { namedImports: [importName], moduleSpecifier: PROVIDERS_MODULE });
  }
  return importName;
}
