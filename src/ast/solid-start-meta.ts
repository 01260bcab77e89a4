/**
 * Gives a SolidStart app's `src/app.tsx` the `<MetaProvider>` of `@solidjs/meta`,
 * which the auth pages' `<Title>` needs: the JSX that the root of
 * `<Router root={(props) => ...}>` returns is wrapped in `<MetaProvider>...</MetaProvider>`,
 * and `MetaProvider` imported. Text in, text out, idempotent (a file that already
 * renders a MetaProvider comes back unchanged). A shape it cannot edit safely — a
 * root that is not an inline function returning JSX, no Router, a file that does
 * not parse — is refused with what to add by hand. The edit is a splice of the
 * original text, so the rest of the file keeps its formatting byte for byte.
 */
import { Node, SyntaxKind, type ArrowFunction, type FunctionExpression, type SourceFile } from "ts-morph";
import { doesNotParse, importQuote, parseOrSyntaxError, type EditResult } from "./source.js";

export const META_MODULE = "@solidjs/meta";
const PROVIDER = "MetaProvider";
const ROUTER_MODULE = "@solidjs/router";

/**
 * Wraps what the Router's root returns in `<MetaProvider>`, importing it from `@solidjs/meta`.
 *
 * @example
 * addMetaProvider('import { Router } from "@solidjs/router";\n...<Router root={(props) => <Suspense>{props.children}</Suspense>}>...')
 * // -> { ok: true, text: 'import { Router } from "@solidjs/router";\nimport { MetaProvider } from "@solidjs/meta";\n...<Router root={(props) => <MetaProvider><Suspense>{props.children}</Suspense></MetaProvider>}>...' }
 */
export function addMetaProvider(source: string): EditResult {
  const quote = importQuote(source);
  const byHand = `wrap what your app's root layout returns in <${PROVIDER}>...</${PROVIDER}> (\`import { ${PROVIDER} } from ${quote}${META_MODULE}${quote};\`) by hand: the auth pages set their titles with <Title> from ${META_MODULE}, and do not render without it`;
  const parsed = parseOrSyntaxError({ path: "app.tsx", text: source });
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const { file } = parsed;

  const provider = importedName(file, META_MODULE, PROVIDER);
  if (provider !== undefined && jsxTagNames(file).includes(provider)) return { ok: true, text: source };
  if (provider === undefined && file.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === PROVIDER)) {
    return { ok: false, reason: `it has a ${PROVIDER} that is not ${META_MODULE}'s: ${byHand}` };
  }

  const body = rootJsx(file);
  if (typeof body === "string") return { ok: false, reason: `${body}: ${byHand}` };

  const splices: Splice[] = [{ at: body.getStart(), until: body.getEnd(), text: wrapped(source, body, provider ?? PROVIDER) }];
  if (provider === undefined) splices.push(importSplice(file, quote));
  return { ok: true, text: apply(source, splices) };
}

export type Splice = { at: number; until: number; text: string };

export function apply(source: string, splices: Splice[]): string {
  let text = source;
  for (const { at, until, text: insert } of [...splices].sort((a, b) => b.at - a.at)) text = text.slice(0, at) + insert + text.slice(until);
  return text;
}

/** The local name a named export of `module` is imported under (not type-only), if it is. */
export function importedName(file: SourceFile, module: string, exported: string): string | undefined {
  for (const decl of file.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== module || decl.isTypeOnly()) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === exported && !n.isTypeOnly());
    if (named) return named.getAliasNode()?.getText() ?? exported;
  }
  return undefined;
}

export function jsxTagNames(file: SourceFile): string[] {
  return [...file.getDescendantsOfKind(SyntaxKind.JsxOpeningElement), ...file.getDescendantsOfKind(SyntaxKind.JsxSelfClosingElement)].map((el) => el.getTagNameNode().getText());
}

/** The JSX the Router's root function returns, or why there is none to wrap. */
export function rootJsx(file: SourceFile): Node | string {
  const router = importedName(file, ROUTER_MODULE, "Router");
  if (router === undefined) return `it renders no <Router> from ${ROUTER_MODULE}`;
  const routers = [...file.getDescendantsOfKind(SyntaxKind.JsxOpeningElement), ...file.getDescendantsOfKind(SyntaxKind.JsxSelfClosingElement)].filter(
    (el) => el.getTagNameNode().getText() === router,
  );
  if (routers.length === 0) return `it renders no <${router}>`;
  if (routers.length > 1) return `it renders <${router}> more than once`;
  const attribute = routers[0]!.getAttribute("root");
  if (!attribute || !Node.isJsxAttribute(attribute)) return `its <${router}> has no root={...} layout`;
  const initializer = attribute.getInitializer();
  const value = initializer && Node.isJsxExpression(initializer) ? unparenthesized(initializer.getExpression()) : undefined;
  if (!value || !(Node.isArrowFunction(value) || Node.isFunctionExpression(value))) {
    return `its <${router}>'s root is \`${value?.getText() ?? initializer?.getText() ?? ""}\`, not an inline function`;
  }
  const returned = returnedExpression(value);
  const jsx = unparenthesized(returned);
  if (!jsx || !(Node.isJsxElement(jsx) || Node.isJsxFragment(jsx) || Node.isJsxSelfClosingElement(jsx))) {
    return `its <${router}>'s root function does not return JSX in one place`;
  }
  return jsx;
}

/** What a function returns: its expression body, or the expression of its one return statement. */
function returnedExpression(fn: ArrowFunction | FunctionExpression): Node | undefined {
  const body = fn.getBody();
  if (!Node.isBlock(body)) return body;
  // Its own, not those of functions inside it.
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((ret) => ret.getFirstAncestor(isFunction) === fn);
  return returns.length === 1 ? returns[0]!.getExpression() : undefined;
}

function isFunction(node: Node): boolean {
  return Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node) || Node.isGetAccessorDeclaration(node) || Node.isSetAccessorDeclaration(node);
}

function unparenthesized(node: Node | undefined): Node | undefined {
  let current = node;
  while (current && Node.isParenthesizedExpression(current)) current = current.getExpression();
  return current;
}

/**
 * `<MetaProvider>` around the JSX: on one line when it is one line (or does not start
 * its own line), else on lines of their own with the JSX indented one step more.
 */
function wrapped(source: string, jsx: Node, provider: string): string {
  const text = jsx.getText();
  const lineStart = source.lastIndexOf("\n", jsx.getStart() - 1) + 1;
  const before = source.slice(lineStart, jsx.getStart());
  if (!text.includes("\n") || before.trim() !== "") return `<${provider}>${text}</${provider}>`;
  const unit = indentUnit(source);
  // Lines that start inside a template literal are its content: they keep their text.
  const literals = jsx.getDescendants().filter((node) => Node.isTemplateExpression(node) || Node.isNoSubstitutionTemplateLiteral(node));
  const start = jsx.getStart();
  let offset = 0;
  const lines = text.split("\n").map((line, index) => {
    const at = start + offset;
    offset += line.length + 1;
    if (index === 0 || line.trim() === "" || literals.some((literal) => literal.getStart() < at && at < literal.getEnd())) return line;
    return unit + line;
  });
  return `<${provider}>\n${before}${unit}${lines.join("\n")}\n${before}</${provider}>`;
}

/** One step of the file's indentation: a tab, or its smallest indent in spaces (2 when it has none). */
export function indentUnit(source: string): string {
  if (/^\t/m.test(source)) return "\t";
  const widths = [...source.matchAll(/^( +)\S/gm)].map((m) => m[1]!.length);
  return " ".repeat(widths.length > 0 ? Math.min(...widths) : 2);
}

/** `MetaProvider` added to an import of @solidjs/meta, or a new import after the last one. */
function importSplice(file: SourceFile, quote: string): Splice {
  const existing = file.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === META_MODULE && !d.isTypeOnly() && d.getNamedImports().length > 0);
  if (existing) {
    const first = existing.getNamedImports()[0]!;
    return { at: first.getStart(), until: first.getStart(), text: `${PROVIDER}, ` };
  }
  return newImportSplice(file, `import { ${PROVIDER} } from ${quote}${META_MODULE}${quote};`);
}

/** `statement` as a new import after the file's last one (first in a file without imports). */
export function newImportSplice(file: SourceFile, statement: string): Splice {
  const imports = file.getImportDeclarations();
  if (imports.length === 0) return { at: 0, until: 0, text: `${statement}\n` };
  const end = imports[imports.length - 1]!.getEnd();
  return { at: end, until: end, text: `\n${statement}` };
}
