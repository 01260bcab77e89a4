/**
 * Declares `locals.auth()` in the app's `src/app.d.ts` (`App.Locals`), where
 * SvelteKit apps keep their request types, so it is visible where people look.
 * The runtime declares the same member (identical, so the two merge). Text in,
 * text out, idempotent; a file that does not parse is refused, with where.
 */
import { IndentationText, ModuleDeclarationKind, Node, Project, QuoteKind, type ModuleDeclaration, type SourceFile } from "ts-morph";
import { doesNotParse, parseOrSyntaxError, type EditResult } from "./source.js";

const AUTH_MEMBER = {
  name: "auth",
  returnType: "Promise<import('@gatehouse/runtime/sveltekit').Session | null>",
  docs: ["The session of this request, or `null` (read once per request): set by the auth handle."],
};

export function declareLocalsAuth(source: string): EditResult {
  // Where it breaks, in the lines the user wrote (the Locals rewrite below adds one).
  const original = parseOrSyntaxError({ path: "app.d.ts", text: source });
  if ("syntaxError" in original) return doesNotParse(original.syntaxError);
  // sv's app.d.ts lists the interfaces as comments; the Locals one becomes the real interface.
  const text = source.replace(/^([ \t]*)\/\/[ \t]*interface Locals \{\}[ \t]*$/m, "$1interface Locals {\n$1}");
  const project = new Project({
    useInMemoryFileSystem: true,
    // Only this file's syntax matters: no lib files, no imports resolved (much faster).
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true },
    manipulationSettings: { indentationText: /^\t/m.test(source) ? IndentationText.Tab : IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
  });
  const file = project.createSourceFile("app.d.ts", text);
  const locals = appNamespace(file).getInterface("Locals") ?? appNamespace(file).addInterface({ name: "Locals" });
  if (locals.getProperty("auth") || locals.getMethod("auth")) return { ok: true, text: source };
  locals.addMethod(AUTH_MEMBER);
  return { ok: true, text: file.getFullText() };
}

/** `declare global { namespace App {} }`, created where missing. */
function appNamespace(file: SourceFile): ModuleDeclaration {
  let global = file.getModules().find((m) => m.getName() === "global");
  if (!global) {
    global = file.insertModule(firstNonImportIndex(file), { name: "global", declarationKind: ModuleDeclarationKind.Global, hasDeclareKeyword: true });
    // `declare global` needs the file to be a module.
    if (!file.getStatements().some((s) => Node.isExportDeclaration(s) || Node.isImportDeclaration(s))) file.addStatements("export {};");
  }
  return global.getModule("App") ?? global.addModule({ name: "App" });
}

function firstNonImportIndex(file: SourceFile): number {
  const imports = file.getImportDeclarations();
  return imports.length === 0 ? 0 : imports[imports.length - 1]!.getChildIndex() + 1;
}
