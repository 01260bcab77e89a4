/**
 * Puts the auth header (`<AuthHeader />`: who is signed in, Account, Sign out;
 * or Sign in, Sign up) in the app's root layout, `src/routes/+layout.svelte`,
 * keeping everything the user wrote. Svelte's own parser finds the instance
 * script and where the layout renders its children; the import and the
 * element are spliced into the text there, so the rest stays byte for byte.
 * Text in, text out, idempotent. A layout that does not parse is refused with
 * where it breaks; one that never renders `children` is left alone with what
 * to add by hand.
 */
import { createRequire } from "node:module";
import type * as SvelteCompiler from "svelte/compiler";
import type { AST } from "svelte/compiler";
import { doesNotParse, type EditResult } from "./source.js";

/** Svelte's parser, loaded when a layout is edited: not every CLI run needs it. */
function parse(source: string, options: { modern: true }): AST.Root {
  const compiler = createRequire(import.meta.url)("svelte/compiler") as typeof SvelteCompiler;
  return compiler.parse(source, options);
}

export const AUTH_HEADER = "AuthHeader";
const BY_HAND = `add \`import ${AUTH_HEADER} from '$lib/${AUTH_HEADER}.svelte';\` to its <script> and \`<${AUTH_HEADER} />\` above \`{@render children()}\` by hand`;

export function addAuthHeader(source: string): EditResult {
  let root: AST.Root;
  try {
    root = parse(source, { modern: true });
  } catch (error) {
    // Svelte's CompileError: `start` is 1-based line, 0-based column; its message's first line is the problem (a docs URL follows).
    const where = (error as { start?: { line: number; column: number } }).start;
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
    return doesNotParse({ line: where?.line ?? 1, column: (where?.column ?? 0) + 1, message }, "Svelte");
  }
  if (rendersHeader(root.fragment)) return { ok: true, text: source };
  const anchor = root.fragment.nodes.find((node) => rendersChildren(node));
  if (!anchor) return { ok: false, reason: `it does not render \`children\` (\`{@render children()}\`): ${BY_HAND}` };

  // The element goes first in the text, the import after: the element's offset is later, so it is spliced in first.
  const indent = /[ \t]*$/.exec(source.slice(0, anchor.start))![0];
  let text = `${source.slice(0, anchor.start)}<${AUTH_HEADER} />\n${indent}${source.slice(anchor.start)}`;
  const quote = /\bfrom\s+"/.test(root.instance ? source.slice(root.instance.start, root.instance.end) : "") ? '"' : "'";
  const importLine = `import ${AUTH_HEADER} from ${quote}$lib/${AUTH_HEADER}.svelte${quote};`;
  if (root.instance) {
    const body = root.instance.content.body;
    const lastImport = body.filter((node) => node.type === "ImportDeclaration").at(-1) as { end: number } | undefined;
    const scriptIndent = /\n([ \t]*)\S/.exec(source.slice(root.instance.start, root.instance.end))?.[1] ?? "\t";
    const at = lastImport ? lastImport.end : (root.instance.content as unknown as { start: number }).start;
    const insertion = lastImport ? `\n${scriptIndent}${importLine}` : `\n${scriptIndent}${importLine}\n`;
    text = `${text.slice(0, at)}${insertion}${text.slice(at)}`;
  } else {
    text = `<script>\n\t${importLine}\n</script>\n\n${text}`;
  }
  return { ok: true, text };
}

type Node = AST.Fragment["nodes"][number];

/** The node's own fragments: an element's children, a block's branches. */
function fragmentsOf(node: Node): AST.Fragment[] {
  const fragments: AST.Fragment[] = [];
  for (const key of ["fragment", "consequent", "alternate", "body", "pending", "then", "catch", "fallback"] as const) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (value && typeof value === "object" && Array.isArray((value as AST.Fragment).nodes)) fragments.push(value as AST.Fragment);
  }
  return fragments;
}

/** `{@render children()}` (or `children?.()`) here or anywhere inside. */
function rendersChildren(node: Node): boolean {
  if (node.type === "RenderTag") {
    const call = node.expression.type === "ChainExpression" ? node.expression.expression : node.expression;
    return call.type === "CallExpression" && call.callee.type === "Identifier" && call.callee.name === "children";
  }
  return fragmentsOf(node).some((fragment) => fragment.nodes.some(rendersChildren));
}

/** The layout has the header already (a re-run, or the user placed it). */
function rendersHeader(fragment: AST.Fragment): boolean {
  return fragment.nodes.some((node) => (node.type === "Component" && node.name === AUTH_HEADER) || fragmentsOf(node).some(rendersHeader));
}
