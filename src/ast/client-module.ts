/**
 * Finding an app's database client in its source: the module that exports an
 * instance made with `new PrismaClient(...)` or `new Kysely(...)` (directly,
 * or through the `globalThis.prisma ?? new PrismaClient()` pattern that keeps
 * one client across hot reloads), the name it is exported under, and which
 * classes of a package the module constructs (Kysely's dialects).
 */
import { Node, SyntaxKind, type SourceFile } from "ts-morph";
import { parseOrSyntaxError, type SourceText } from "./source.js";

/**
 * The exported names (`default` for a default export) whose value is made
 * with `new <className>(...)`, the class imported under any local name (from
 * `from` when given: a generated Prisma Client is imported from anywhere).
 */
export function exportedInstances(entry: SourceText, className: string, from?: string): string[] {
  if (!entry.text.includes(className)) return [];
  const file = parsed(entry);
  const local = file && localNames(file, [className], from).get(className);
  if (!file || !local) return [];
  const makesClient = (node: Node) =>
    node.getDescendantsOfKind(SyntaxKind.NewExpression).some((created) => created.getExpression().getText() === local) ||
    (Node.isNewExpression(node) && node.getExpression().getText() === local);
  const names: string[] = [];
  for (const [name, declarations] of file.getExportedDeclarations()) {
    if (declarations.some((declaration) => Node.isVariableDeclaration(declaration) && makesClient(declaration))) names.push(name);
  }
  return names;
}

/** Which of `classNames`, imported from `from`, the module constructs somewhere (`new PostgresDialect(...)`). */
export function constructedImports(entry: SourceText, from: string, classNames: readonly string[]): string[] {
  const file = parsed(entry);
  if (!file) return [];
  const locals = localNames(file, classNames, from);
  const constructed = new Set(file.getDescendantsOfKind(SyntaxKind.NewExpression).map((created) => created.getExpression().getText()));
  return classNames.filter((name) => constructed.has(locals.get(name) ?? "\0"));
}

function parsed(entry: SourceText): SourceFile | undefined {
  const result = parseOrSyntaxError(entry);
  return "syntaxError" in result ? undefined : result.file;
}

/** Each of `classNames` the module imports by name (from `from` when given), with its local name. */
function localNames(file: SourceFile, classNames: readonly string[], from?: string): Map<string, string> {
  const locals = new Map<string, string>();
  for (const declaration of file.getImportDeclarations()) {
    if (from !== undefined && declaration.getModuleSpecifierValue() !== from) continue;
    for (const specifier of declaration.getNamedImports()) {
      const name = specifier.getName();
      if (classNames.includes(name)) locals.set(name, specifier.getAliasNode()?.getText() ?? name);
    }
  }
  return locals;
}
