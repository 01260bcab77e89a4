/**
 * Finding the migrations folder of an app that runs Kysely's `Migrator` from a
 * script of its own (Kysely's documented setup, without kysely-ctl): the
 * `migrationFolder` given to `new FileMigrationProvider({ ... })`, as the
 * script's literals say it. Only what can be read without running the script:
 * a string (relative to the folder the script runs in, the app's), or
 * `path.join(<the script's folder>, 'literal', ...)` with the script's folder
 * as `__dirname`, `import.meta.dirname` or `dirname(fileURLToPath(import.meta.url))`,
 * or `fileURLToPath(new URL('./literal', import.meta.url))`.
 */
import { posix } from "node:path";
import { Node, SyntaxKind } from "ts-morph";
import { stringValue } from "./default-config.js";
import { parseOrSyntaxError, unwrap, type SourceText } from "./source.js";

export type MigratorFolder =
  /** The module makes no FileMigrationProvider. */
  | { found: false }
  | { found: true; folder: string }
  | { found: true; problem: string };

/** The folder the module's FileMigrationProvider reads, relative to the app (the module's `path` is too). */
export function migratorFolder(entry: SourceText): MigratorFolder {
  if (!entry.text.includes("FileMigrationProvider")) return { found: false };
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return { found: false };
  const created = parsed.file.getDescendantsOfKind(SyntaxKind.NewExpression).find((node) => node.getExpression().getText() === "FileMigrationProvider");
  if (!created) return { found: false };
  const options = unwrap(created.getArguments()[0]);
  const property = options && Node.isObjectLiteralExpression(options) ? options.getProperty("migrationFolder") : undefined;
  const value = property && Node.isPropertyAssignment(property) ? unwrap(property.getInitializer()) : undefined;
  const folder = value && folderOf(value, posix.dirname(entry.path));
  if (folder === undefined) {
    return { found: true, problem: `${entry.path}: the \`migrationFolder\` of its FileMigrationProvider is not a path gatehouse can read (a string, or path.join(__dirname, 'migrations'))` };
  }
  return { found: true, folder: posix.normalize(folder).replace(/\/$/, "") };
}

function folderOf(node: Node, moduleDir: string): string | undefined {
  const literal = stringValue(node);
  // Relative to where the script runs: the app's folder, as its package.json script runs it.
  if (literal !== undefined) return literal;
  if (!Node.isCallExpression(node)) return undefined;
  const callee = node.getExpression().getText();
  const args = node.getArguments().map((arg) => unwrap(arg)!);
  if (/^(?:path\.)?(?:join|resolve)$/.test(callee) && args.length > 0) {
    const [base, ...rest] = args;
    const segments = rest.map((arg) => stringValue(arg));
    if (!isModuleDir(base!) || segments.some((segment) => segment === undefined)) return undefined;
    return posix.join(moduleDir, ...(segments as string[]));
  }
  // fileURLToPath(new URL('./migrations', import.meta.url))
  if (/^(?:url\.)?fileURLToPath$/.test(callee) && args.length === 1 && Node.isNewExpression(args[0]!) && args[0].getExpression().getText() === "URL") {
    const [relative, base] = args[0].getArguments().map((arg) => unwrap(arg)!);
    const segment = relative && stringValue(relative);
    if (segment === undefined || base?.getText() !== "import.meta.url") return undefined;
    return posix.join(moduleDir, segment);
  }
  return undefined;
}

/** `__dirname`, `import.meta.dirname`, or `dirname(fileURLToPath(import.meta.url))`, or a const holding one of them. */
function isModuleDir(node: Node): boolean {
  const text = node.getText().replace(/\s+/g, "");
  if (text === "__dirname" || text === "import.meta.dirname" || /^(?:path\.)?dirname\((?:url\.)?fileURLToPath\(import\.meta\.url\)\)$/.test(text)) return true;
  if (!Node.isIdentifier(node)) return false;
  const declaration = node.getSymbol()?.getDeclarations()[0];
  const initializer = declaration && Node.isVariableDeclaration(declaration) ? unwrap(declaration.getInitializer()) : undefined;
  return initializer !== undefined && initializer !== node && isModuleDir(initializer);
}
