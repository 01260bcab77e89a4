/**
 * What the config edits share: an in-memory ts-morph project that only parses
 * (no lib files, no imports resolved), and appending entries to an array or
 * object literal as text, the way the literal is already written.
 */
// Types only: the values come from tsMorph() when first used (detect parses SvelteKit's configs with this module).
import type { ArrayLiteralExpression, Node, ObjectLiteralExpression, Project, SourceFile } from "ts-morph";
import { tsMorph } from "./ts-morph.js";

export interface SourceText {
  /** Relative to the app, with `/`. */
  path: string;
  text: string;
}

/** A project for syntax only; new imports take the quotes the sample's imports use. */
export function newProject(sample: string): Project {
  const { Project, QuoteKind } = tsMorph();
  return new Project({
    useInMemoryFileSystem: true,
    // Only syntax matters: no lib files, no imports resolved (much faster).
    skipLoadingLibFiles: true,
    compilerOptions: { noLib: true, noResolve: true },
    manipulationSettings: { quoteKind: importQuote(sample) === "'" ? QuoteKind.Single : QuoteKind.Double },
  });
}

/** The quote the file's imports use, for the ones an edit adds; `"` when it has none (SolidStart's templates use double quotes). */
export function importQuote(source: string): string {
  return /^\s*import\b[^;'"]*?(?:from\s+)?(['"])/m.exec(source)?.[1] ?? '"';
}

/** The file parsed, or `undefined` when it has syntax errors (an edit could make it worse). */
export function parse(entry: SourceText): { project: Project; file: SourceFile } | undefined {
  const parsed = parseOrSyntaxError(entry);
  return "syntaxError" in parsed ? undefined : parsed;
}

/** Where a file stops parsing: 1-based line and column, and the parser's message. */
export interface SyntaxErrorAt {
  line: number;
  column: number;
  message: string;
}

/** The file parsed (into `project` when given), or where its first syntax error is, to tell the user what to fix. */
export function parseOrSyntaxError(entry: SourceText, project: Project = newProject(entry.text)): { project: Project; file: SourceFile } | { syntaxError: SyntaxErrorAt } {
  const file = project.createSourceFile(entry.path, entry.text);
  const [first] = project.getProgram().compilerObject.getSyntacticDiagnostics(file.compilerNode);
  if (!first) return { project, file };
  const at = file.compilerNode.getLineAndCharacterOfPosition(first.start ?? 0);
  const text = first.messageText;
  return { syntaxError: { line: at.line + 1, column: at.character + 1, message: typeof text === "string" ? text : text.messageText } };
}

/** Where a file does not parse, and as what: the command stops before writing anything (see `refuseUnparsable` in plan.ts). */
export interface Unparsable extends SyntaxErrorAt {
  language: "TypeScript" | "Svelte";
}

/**
 * An edit of one file: its new text, or why it is left alone. `syntaxError` is set
 * when the file does not parse: then it is not "left alone" but stops the run, since
 * an app set up halfway around a broken file is worse than one not set up at all.
 */
export type EditResult = { ok: true; text: string } | { ok: false; reason: string; syntaxError?: Unparsable };

/** The refusal of a file that does not parse, with where. */
export function doesNotParse(at: SyntaxErrorAt, language: Unparsable["language"] = "TypeScript"): { ok: false; reason: string; syntaxError: Unparsable } {
  return { ok: false, reason: `it does not parse as ${language} (line ${at.line}, column ${at.column}: ${at.message})`, syntaxError: { ...at, language } };
}

/** Looks through `x as T`, `x satisfies T`, `(x)`. */
export function unwrap(node: Node | undefined): Node | undefined {
  const { Node } = tsMorph();
  let current = node;
  while (current && (Node.isAsExpression(current) || Node.isSatisfiesExpression(current) || Node.isParenthesizedExpression(current))) {
    current = current.getExpression();
  }
  return current;
}

export interface NewItem {
  /** `GitHub`, `experimental: { enableWebAuthn: true }`. */
  text: string;
  /** `//` comment lines above it (without the `//`; `\n` between lines), when the literal is written one item per line. */
  comment?: string;
}

/** Where the line holding `pos` starts, and its indentation. */
function lineAt(text: string, pos: number): { lineStart: number; indent: string } {
  const lineStart = text.lastIndexOf("\n", pos) + 1;
  return { lineStart, indent: /^[ \t]*/.exec(text.slice(lineStart))![0] };
}

/** An item's comment as `//` lines, each indented and ending in a newline; "" without one. */
function commentLines(item: NewItem, indent: string): string {
  return item.comment ? item.comment.split("\n").map((line) => `${indent}// ${line}\n`).join("") : "";
}

/**
 * Inserts `item` into `literal` as the entry before `before` (one of its
 * properties), above that entry's own leading comments, in the literal's layout.
 */
export function insertItemBefore(file: SourceFile, literal: ObjectLiteralExpression, before: Node, item: NewItem): void {
  if (!literal.getText().includes("\n")) {
    file.insertText(before.getStart(), `${item.text}, `);
    return;
  }
  const start = before.getLeadingCommentRanges()[0]?.getPos() ?? before.getStart();
  const { lineStart, indent } = lineAt(file.getFullText(), start);
  file.insertText(lineStart, `${commentLines(item, indent)}${indent}${item.text},\n`);
}

/**
 * Appends items as text after the last one, the way the literal is written: one
 * per line with the last item's indentation when it spans lines, a trailing
 * comma kept where there was one; `[a, b]` and `{ a, b }` on one line stay so.
 */
export function appendItems(file: SourceFile, literal: ArrayLiteralExpression | ObjectLiteralExpression, items: readonly NewItem[]): void {
  const array = tsMorph().Node.isArrayLiteralExpression(literal);
  const existing: Node[] = array ? literal.getElements() : literal.getProperties();
  if (existing.length === 0) {
    const texts = items.map((item) => item.text).join(", ");
    literal.replaceWithText(array ? `[${texts}]` : `{ ${texts} }`);
    return;
  }
  const last = existing[existing.length - 1]!;
  const text = file.getFullText();
  const closing = literal.getEnd() - 1;
  const between = text.slice(last.getEnd(), closing);
  const trailingComma = between.trimStart().startsWith(",");
  if (!literal.getText().includes("\n")) {
    file.insertText(last.getEnd(), items.map((item) => `, ${item.text}`).join(""));
    return;
  }
  const { indent } = lineAt(text, last.getStart());
  const lines = items.map((item) => `\n${commentLines(item, indent)}${indent}${item.text}`);
  if (trailingComma) file.insertText(last.getEnd() + between.indexOf(",") + 1, lines.map((line) => `${line},`).join(""));
  else file.insertText(last.getEnd(), lines.map((line) => `,${line}`).join(""));
}
