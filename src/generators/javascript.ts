/**
 * The JavaScript version of a module auth-init writes in TypeScript, for apps
 * written in JavaScript: the types erased by ts-blank-space (Bloomberg's type
 * eraser: it removes only type syntax and keeps every other character where it
 * was), then the blanks it leaves closed up, so the result reads as if written
 * by hand: `(error: unknown) =>` becomes `(error) =>`, a type-only import line
 * disappears with its line. Comments, blank lines and indentation are the
 * template's own.
 */
import { createRequire } from "node:module";
import type * as TsBlankSpace from "ts-blank-space";
import type * as TypeScript from "typescript";

interface Eraser {
  blank: typeof TsBlankSpace.default;
  blankSourceFile: typeof TsBlankSpace.blankSourceFile;
  /**
   * The TypeScript that ts-blank-space itself uses (its dependency), for parsing
   * TSX: a syntax tree from another copy (the app's own TypeScript, another
   * version) would have other node kinds.
   */
  ts: typeof TypeScript;
}

let eraser: Eraser | undefined;

/**
 * ts-blank-space and its TypeScript, loaded on first use: loading them is half a
 * second of every CLI run, and only an app written in JavaScript needs them.
 */
function loadEraser(): Eraser {
  if (eraser) return eraser;
  const require = createRequire(import.meta.url);
  const module = require("ts-blank-space") as typeof TsBlankSpace;
  const ts = createRequire(require.resolve("ts-blank-space"))("typescript") as typeof TypeScript;
  eraser = { blank: module.default, blankSourceFile: module.blankSourceFile, ts };
  return eraser;
}

/** Thrown for TypeScript that has no JavaScript form without a compiler (an enum, a namespace): a template bug, caught by the tests. */
export class UnerasableTypeScriptError extends Error {
  constructor(what: string) {
    super(`cannot write this module as JavaScript: ${what} is TypeScript with a run-time meaning`);
    this.name = "UnerasableTypeScriptError";
  }
}

/** A TypeScript module as JavaScript; `jsx`: a TSX module (SolidStart's pages) as JSX. */
export function moduleToJavaScript(typescript: string, { jsx = false }: { jsx?: boolean } = {}): string {
  const refuse = (node: TypeScript.Node) => {
    throw new UnerasableTypeScriptError(typescript.slice(node.pos, node.end).trim().split("\n")[0]!);
  };
  const { blank, blankSourceFile, ts } = loadEraser();
  const blanked = jsx
    ? blankSourceFile(ts.createSourceFile("module.tsx", typescript, { languageVersion: ts.ScriptTarget.ESNext }, false, ts.ScriptKind.TSX), refuse)
    : blank(typescript, refuse);
  return closeBlanks(typescript, blanked);
}

/** A Svelte component with `<script lang="ts">` blocks as one with plain `<script>` blocks. */
export function svelteToJavaScript(component: string): string {
  return component.replace(/<script\b([^>]*?)\s+lang=(["'])ts\2([^>]*)>([\s\S]*?)<\/script>/g, (_all, before: string, _quote, after: string, body: string) => `<script${before}${after}>${moduleToJavaScript(body)}</script>`);
}

/** What follows an erased type that takes the space before it away too: `x as T)` -> `x)`, `} satisfies T;` -> `};`. */
const CLOSERS = new Set([";", ",", ")", "]", "}", ">"]);

/**
 * Removes what ts-blank-space blanked. Each run of blanked characters (with the
 * whitespace inside it) goes; the whitespace before it goes too when a closer
 * follows, and when both sides of the run end lines, the line it stood on goes.
 */
function closeBlanks(original: string, blanked: string): string {
  const erased = (i: number) => /\S/.test(original[i]!) && /\s/.test(blanked[i]!);
  let out = "";
  let i = 0;
  while (i < blanked.length) {
    if (!erased(i)) {
      out += blanked[i];
      i += 1;
      continue;
    }
    // The run: from this erased character to the last erased one before the next kept character.
    let end = i;
    let j = i;
    while (j < blanked.length && (erased(j) || /\s/.test(blanked[j]!))) {
      if (erased(j)) end = j + 1;
      j += 1;
    }
    const trailing = blanked.slice(end, j);
    const next = blanked[j];
    const leading = /[ \t]*\n?[ \t]*$/.exec(out)![0];
    if (next === "," && /[{(\[]\s*$/.test(out)) {
      // The first of a list (`{ type A, b }`): its comma and the space after it go too.
      j += 1;
      while (j < blanked.length && /[ \t]/.test(blanked[j]!)) j += 1;
    } else if (next === undefined || CLOSERS.has(next)) {
      out = out.slice(0, out.length - /\s*$/.exec(out)![0].length);
      // The last of a list (`{ a, type B }`): the comma before it goes, the space before the brace stays.
      if (next !== undefined && "})]".includes(next) && out.endsWith(",")) out = out.slice(0, -1) + (next === "}" ? " " : "");
      out += next === undefined ? "\n" : "";
    } else if (leading.includes("\n") && trailing.includes("\n")) {
      // The run was whole lines: they go, and one blank line stays if there was one on either side.
      const blankLine = /\n[ \t]*\n[ \t]*$/.test(out) || /\n[ \t]*\n/.test(trailing);
      out = `${out.trimEnd()}\n${blankLine ? "\n" : ""}${/[ \t]*$/.exec(trailing)![0]}`;
    } else {
      // Within a line: one space where the type stood between two words, none twice.
      out += /[ \t]$/.test(out) ? trailing.replace(/^[ \t]+/, "") : trailing;
    }
    i = j;
  }
  return out;
}
