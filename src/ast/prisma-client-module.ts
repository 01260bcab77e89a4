/**
 * Finding an app's Prisma Client in its source: the module that exports an
 * instance made with `new PrismaClient(...)` (directly, or through the
 * `globalThis.prisma ?? new PrismaClient()` pattern that keeps one client
 * across hot reloads), and the name it is exported under.
 */
import { Node, SyntaxKind } from "ts-morph";
import { parseOrSyntaxError, type SourceText } from "./source.js";

/** The exported names (`default` for a default export) whose value is made with `new PrismaClient(...)`. */
export function prismaClientExports(entry: SourceText): string[] {
  if (!entry.text.includes("PrismaClient")) return [];
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return [];
  const { file } = parsed;
  // The local name of PrismaClient, imported from @prisma/client or from a generator's output.
  const local = file
    .getImportDeclarations()
    .flatMap((declaration) => declaration.getNamedImports())
    .find((specifier) => specifier.getName() === "PrismaClient");
  if (!local) return [];
  const className = local.getAliasNode()?.getText() ?? "PrismaClient";
  const makesClient = (node: Node) =>
    node.getDescendantsOfKind(SyntaxKind.NewExpression).some((created) => created.getExpression().getText() === className) ||
    (Node.isNewExpression(node) && node.getExpression().getText() === className);
  const names: string[] = [];
  for (const [name, declarations] of file.getExportedDeclarations()) {
    if (declarations.some((declaration) => Node.isVariableDeclaration(declaration) && makesClient(declaration))) names.push(name);
  }
  return names;
}
