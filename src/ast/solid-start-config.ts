/**
 * Registers a request middleware file in a SolidStart app's config: the options
 * of the `solidStart(...)` Vite plugin in `vite.config.ts` (SolidStart 2), or of
 * `defineConfig(...)` from `@solidjs/start/config` in `app.config.ts` (SolidStart
 * 1.x); and, in SolidStart 1.x, a Nitro plugin in `server.plugins` of those options
 * (vinxi hands `server` to Nitro). Text in, text out, idempotent (a config that
 * already names the file comes back unchanged). A shape it cannot edit safely —
 * options that are not an object literal, another middleware file already
 * registered — is refused with what to do by hand; a file that does not parse,
 * with where it breaks. The edit is a splice of the original text, so the rest of
 * the file keeps its formatting byte for byte.
 */
import { Node, Project, SyntaxKind, type ArrayLiteralExpression, type CallExpression, type ObjectLiteralExpression, type SourceFile } from "ts-morph";
import { doesNotParse, importQuote, parseOrSyntaxError, type EditResult } from "./source.js";

const CONFIG_MODULE = "@solidjs/start/config";
/** How a refusal because the config names another middleware file begins. */
export const OTHER_MIDDLEWARE = "it registers another middleware file";

/**
 * Adds `middleware: "<path>"` to SolidStart's options in `source` (a vite.config.ts
 * or app.config.ts). `path` is written as given; an existing entry naming the same
 * file with or without `./` counts as done.
 *
 * @example
 * registerMiddleware('export default defineConfig({ plugins: [solidStart(), nitro()] });', "./src/middleware.ts")
 * // -> { ok: true, text: 'export default defineConfig({ plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()] });' }
 */
export function registerMiddleware(source: string, path: string): EditResult {
  const parsed = parseConfig(source);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const { file } = parsed;
  const byHand = `add \`middleware: ${quoted(path, source)}\` to SolidStart's options by hand`;

  const found = optionsCall(file);
  if (typeof found === "string") return { ok: false, reason: `${found}: ${byHand}` };
  const { call, name } = found;
  const options = call.getArguments()[0];
  const entry = `middleware: ${quoted(path, source)}`;
  if (!options) {
    const close = call.getLastChildByKindOrThrow(SyntaxKind.CloseParenToken).getStart();
    return { ok: true, text: splice(source, close, `{ ${entry} }`) };
  }
  if (!Node.isObjectLiteralExpression(options)) {
    return { ok: false, reason: `the options of ${name}(...) are not an object literal: ${byHand}` };
  }

  const existing = options.getProperty("middleware");
  if (existing) {
    const value = Node.isPropertyAssignment(existing) ? existing.getInitializer() : undefined;
    if (!value || (!Node.isStringLiteral(value) && !Node.isNoSubstitutionTemplateLiteral(value))) {
      return { ok: false, reason: `its middleware option is not a plain path: make sure it runs the auth middleware (src/middleware.ts) by hand` };
    }
    if (samePath(value.getLiteralText(), path)) return { ok: true, text: source };
    return {
      ok: false,
      reason: `${OTHER_MIDDLEWARE} (${value.getLiteralText()}): add \`authMiddleware(authConfig, { protectedPaths: [...] })\` from @gatehouse/runtime/solid-start to that file's onRequest by hand`,
    };
  }
  if (hasSpread(options)) {
    return { ok: false, reason: `the options of ${name}(...) spread another object, which may set middleware already: ${byHand}` };
  }
  return { ok: true, text: addEntry(source, options, entry) };
}

/**
 * Adds the Nitro plugin file `path` to `server: { plugins: [...] }` in the options
 * of SolidStart 1.x's `defineConfig(...)` (app.config.ts), creating `server` or
 * `plugins` when absent and keeping the entries already there. `path` is written as
 * given (vinxi passes a path starting with `./` to Nitro as a file of the app; one
 * without is looked up as a package); an entry naming the same file with or without
 * `./` counts as done.
 *
 * @example
 * registerServerPlugin('export default defineConfig({ middleware: "src/middleware.ts" });', "./src/lib/server/close-database.ts")
 * // -> { ok: true, text: 'export default defineConfig({ middleware: "src/middleware.ts", server: { plugins: ["./src/lib/server/close-database.ts"] } });' }
 */
export function registerServerPlugin(source: string, path: string): EditResult {
  const parsed = parseConfig(source);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const entry = quoted(path, source);
  const byHand = `add ${entry} to \`server: { plugins: [...] }\` in SolidStart's options by hand`;
  const refuse = (why: string): EditResult => ({ ok: false, reason: `${why}: ${byHand}` });

  const found = optionsCall(parsed.file);
  if (typeof found === "string") return refuse(found);
  const { call, name } = found;
  // SolidStart 2's Nitro plugins go in nitro.config.ts; its solidStart(...) options have no `server`.
  if (name !== "defineConfig") return refuse(`it has no defineConfig(...) from ${CONFIG_MODULE} (SolidStart 1.x)`);
  const options = call.getArguments()[0];
  if (!options) {
    const close = call.getLastChildByKindOrThrow(SyntaxKind.CloseParenToken).getStart();
    return { ok: true, text: splice(source, close, `{ server: { plugins: [${entry}] } }`) };
  }
  if (!Node.isObjectLiteralExpression(options)) return refuse(`the options of ${name}(...) are not an object literal`);

  const server = options.getProperty("server");
  if (!server) {
    if (hasSpread(options)) return refuse(`the options of ${name}(...) spread another object, which may set server already`);
    return { ok: true, text: addEntry(source, options, `server: { plugins: [${entry}] }`) };
  }
  const serverOptions = Node.isPropertyAssignment(server) ? server.getInitializer() : undefined;
  if (!Node.isObjectLiteralExpression(serverOptions)) return refuse("its server option is not an object literal");

  const plugins = serverOptions.getProperty("plugins");
  if (!plugins) {
    if (hasSpread(serverOptions)) return refuse("its server option spreads another object, which may set plugins already");
    return { ok: true, text: addEntry(source, serverOptions, `plugins: [${entry}]`) };
  }
  const list = Node.isPropertyAssignment(plugins) ? plugins.getInitializer() : undefined;
  if (!Node.isArrayLiteralExpression(list)) return refuse("its server.plugins option is not an array literal");
  const named = list.getElements().some((element) => (Node.isStringLiteral(element) || Node.isNoSubstitutionTemplateLiteral(element)) && samePath(element.getLiteralText(), path));
  if (named) return { ok: true, text: source };
  return { ok: true, text: addEntry(source, list, entry) };
}

function parseConfig(source: string): ReturnType<typeof parseOrSyntaxError> {
  const project = new Project({
    useInMemoryFileSystem: true,
    // Only this file's syntax matters: no lib files, no imports resolved (much faster).
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true },
  });
  return parseOrSyntaxError({ path: "config.ts", text: source }, project);
}

function hasSpread(options: ObjectLiteralExpression): boolean {
  return options.getProperties().some((p) => Node.isSpreadAssignment(p));
}

/** The call whose first argument holds SolidStart's options, or why there is none. */
function optionsCall(file: SourceFile): { call: CallExpression; name: string } | string {
  const imported = (exported: string) => {
    const names: string[] = [];
    for (const decl of file.getImportDeclarations()) {
      if (decl.getModuleSpecifierValue() !== CONFIG_MODULE) continue;
      for (const named of decl.getNamedImports()) if (named.getName() === exported) names.push(named.getAliasNode()?.getText() ?? exported);
    }
    // `const { solidStart } = await import("@solidjs/start/config")`: the app we create imports it after its Node version check.
    for (const variable of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
      const pattern = variable.getNameNode();
      const init = variable.getInitializer();
      const call = Node.isAwaitExpression(init) ? init.getExpression() : undefined;
      if (!Node.isObjectBindingPattern(pattern) || !Node.isCallExpression(call) || call.getExpression().getKind() !== SyntaxKind.ImportKeyword) continue;
      const [specifier] = call.getArguments();
      if (!Node.isStringLiteral(specifier) || specifier.getLiteralValue() !== CONFIG_MODULE) continue;
      for (const element of pattern.getElements()) {
        if ((element.getPropertyNameNode()?.getText() ?? element.getName()) === exported) names.push(element.getName());
      }
    }
    return names;
  };
  const calls = (names: string[]) =>
    file.getDescendantsOfKind(SyntaxKind.CallExpression).filter((call) => names.includes(call.getExpression().getText()));

  // SolidStart 2: the Vite plugin. SolidStart 1.x: its own defineConfig.
  for (const [exported, label] of [["solidStart", "solidStart"], ["defineConfig", "defineConfig"]] as const) {
    const found = calls(imported(exported));
    if (found.length > 1) return `it calls ${label}(...) more than once`;
    if (found.length === 1) return { call: found[0]!, name: label };
  }
  return `it has no solidStart(...) plugin (SolidStart 2) or defineConfig(...) from ${CONFIG_MODULE} (SolidStart 1.x)`;
}

/** Adds `entry` as the last property or element, in the literal's own layout (one line or one entry per line, trailing comma or not). */
function addEntry(source: string, options: ObjectLiteralExpression | ArrayLiteralExpression, entry: string): string {
  const array = Node.isArrayLiteralExpression(options);
  const properties: Node[] = array ? options.getElements() : options.getProperties();
  const close = options.getEnd() - 1;
  if (properties.length === 0) return splice(source, options.getStart(), array ? `[${entry}]` : `{ ${entry} }`, options.getEnd());
  const last = properties[properties.length - 1]!;
  const comma = last.getNextSiblingIfKind(SyntaxKind.CommaToken);
  const lastEnd = comma ? comma.getEnd() : last.getEnd();
  if (!source.slice(options.getStart(), close).includes("\n")) {
    // { a: 1 } -> { a: 1, middleware: "..." }
    return splice(source, lastEnd, `${comma ? "" : ","} ${entry}${comma ? "," : ""}`);
  }
  const indent = /[ \t]*$/.exec(source.slice(0, last.getStart()))![0];
  return splice(source, lastEnd, `${comma ? "" : ","}\n${indent}${entry}${comma ? "," : ""}`);
}

function splice(source: string, at: number, insert: string, until = at): string {
  return source.slice(0, at) + insert + source.slice(until);
}

/** `path` in the file's own quotes (SolidStart's templates use double quotes). */
function quoted(path: string, source: string): string {
  const quote = importQuote(source);
  return `${quote}${path}${quote}`;
}

function samePath(a: string, b: string): boolean {
  const normal = (p: string) => p.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  return normal(a) === normal(b);
}
