/**
 * Puts the auth `handle` first in an existing `src/hooks.server.ts`, keeping the
 * app's own hook: `export const handle = sequence(authHandle, appHandle)`.
 * Text in, text out, idempotent (a file that already runs the auth handle comes
 * back unchanged). A shape it cannot edit safely is refused with the reason, so
 * the command can leave the file alone and say what to add by hand.
 */
import { Node, Project, QuoteKind, SyntaxKind, type SourceFile } from "ts-morph";
import { doesNotParse, parseOrSyntaxError, type EditResult } from "./source.js";

export type { EditResult } from "./source.js";

const AUTH_HANDLE = "authHandle";
const APP_HANDLE = "appHandle";
/** SvelteKit's type of a handle, as JSDoc writes it. */
const HANDLE_TYPE = "{import('@sveltejs/kit').Handle}";

/**
 * `javascript`: the hooks file is JavaScript. Its own `handle` had its type from
 * SvelteKit by its name (the language tools type an exported `handle`); renamed,
 * it gets it from a JSDoc `@type` instead, or a type-checked app (checkJs) says
 * its parameters are implicitly `any`.
 */
export function composeAuthHandle(source: string, authModule = "./auth", { javascript = false }: { javascript?: boolean } = {}): EditResult {
  const project = new Project({
    useInMemoryFileSystem: true,
    // Only this file's syntax matters: no lib files, no imports resolved (much faster).
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true },
    // New imports follow the file's own quotes (sv's apps use single quotes).
    manipulationSettings: { quoteKind: usesSingleQuotes(source) ? QuoteKind.Single : QuoteKind.Double },
  });
  // A broken file would get the new `handle` spliced wherever the parser recovered (inside an unclosed function).
  const parsed = parseOrSyntaxError({ path: "hooks.server.ts", text: source }, project);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const { file } = parsed;
  if (runsAuthHandle(file, authModule)) return { ok: true, text: source };

  const declaration = file.getVariableDeclaration("handle");
  const fn = file.getFunction("handle");
  if (!declaration && !fn) {
    // No handle of the app's own: ours is the whole hook.
    addAuthImport(file, authModule, "handle");
    return { ok: true, text: file.getFullText() };
  }
  if (declaration && !declaration.getVariableStatement()?.isExported()) {
    return { ok: false, reason: "its `handle` is not exported in its declaration (export { handle } elsewhere): add the auth handle by hand" };
  }

  const initializer = declaration?.getInitializer();
  if (initializer && Node.isCallExpression(initializer) && initializer.getExpression().getText() === "sequence") {
    // Already a sequence: the auth handle goes first, so later hooks see locals.auth().
    initializer.insertArgument(0, AUTH_HANDLE);
    addAuthImport(file, authModule, `handle as ${AUTH_HANDLE}`);
    return { ok: true, text: file.getFullText() };
  }
  if (file.getVariableDeclaration(APP_HANDLE) || file.getFunction(APP_HANDLE)) {
    return { ok: false, reason: `it already declares \`${APP_HANDLE}\`: add the auth handle by hand` };
  }
  const own = declaration ? declaration.getVariableStatementOrThrow() : fn!;
  if (declaration) declaration.rename(APP_HANDLE);
  else fn!.rename(APP_HANDLE);
  own.setIsExported(false);
  if (javascript && !own.getJsDocs().some((doc) => /@type\b/.test(doc.getText()))) own.addJsDoc({ tags: [{ tagName: "type", text: HANDLE_TYPE }] });
  addSequenceImport(file);
  addAuthImport(file, authModule, `handle as ${AUTH_HANDLE}`);
  file.addStatements(`\nexport const handle = sequence(${AUTH_HANDLE}, ${APP_HANDLE});`);
  return { ok: true, text: file.getFullText() };
}

/** `export { handle } from "./auth"`, or a `sequence(...)` that already has the auth handle. */
function runsAuthHandle(file: SourceFile, authModule: string): boolean {
  for (const decl of file.getExportDeclarations()) {
    if (decl.getModuleSpecifierValue() === authModule && decl.getNamedExports().some((e) => e.getName() === "handle")) return true;
  }
  const imported = authHandleName(file, authModule);
  if (!imported) return false;
  return file
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .some((call) => call.getExpression().getText() === "sequence" && call.getArguments().some((arg) => arg.getText() === imported));
}

/** The local name under which the file imports the auth module's `handle`. */
function authHandleName(file: SourceFile, authModule: string): string | undefined {
  const imp = file.getImportDeclaration((d) => d.getModuleSpecifierValue() === authModule);
  const named = imp?.getNamedImports().find((n) => n.getName() === "handle");
  return named ? (named.getAliasNode()?.getText() ?? "handle") : undefined;
}

function addAuthImport(file: SourceFile, authModule: string, specifier: string): void {
  if (specifier === "handle") {
    file.addExportDeclaration({ namedExports: ["handle"], moduleSpecifier: authModule });
    return;
  }
  const existing = file.getImportDeclaration((d) => d.getModuleSpecifierValue() === authModule);
  if (existing) existing.addNamedImport({ name: "handle", alias: AUTH_HANDLE });
  else file.insertImportDeclaration(lastImportIndex(file), { namedImports: [{ name: "handle", alias: AUTH_HANDLE }], moduleSpecifier: authModule });
}

function addSequenceImport(file: SourceFile): void {
  const hooks = file.getImportDeclaration((d) => d.getModuleSpecifierValue() === "@sveltejs/kit/hooks");
  if (hooks) {
    if (!hooks.getNamedImports().some((n) => n.getName() === "sequence")) hooks.addNamedImport("sequence");
    return;
  }
  file.insertImportDeclaration(lastImportIndex(file), { namedImports: ["sequence"], moduleSpecifier: "@sveltejs/kit/hooks" });
}

/** New imports go after the existing ones, in the order they are added. */
function lastImportIndex(file: SourceFile): number {
  const imports = file.getImportDeclarations();
  return imports.length === 0 ? 0 : imports[imports.length - 1]!.getChildIndex() + 1;
}

/** Whether the file's import specifiers are written with single quotes. */
function usesSingleQuotes(source: string): boolean {
  // The imports' quotes; a file without imports, its first string's; none at all, sv's (single).
  const quote = /^\s*(?:import|export)\b[^;'"]*?(?:from\s+)?(['"])/m.exec(source)?.[1] ?? /['"]/.exec(source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ""))?.[0];
  return quote !== '"';
}
