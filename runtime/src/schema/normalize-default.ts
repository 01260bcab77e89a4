/**
 * `normalizeDefault`: a column default's text made comparable across dialects
 * and across the ways one database reports it. SQLite gives `0` for
 * `DEFAULT 0` and `lower('x')` for `DEFAULT (lower('x'))`, but a schema
 * definition may write either spelling, and PostgreSQL wraps casts in
 * parentheses of its own. Only spelling that cannot change the meaning goes:
 * the text stays otherwise as the database reported it (no case folding, no
 * whitespace changes inside, so string literals are untouched).
 */

/**
 * Trims the text and drops outer parentheses that enclose all of it, as often
 * as they do: `" (0) "` -> `"0"`, `"((now()))"` -> `"now()"`. Parentheses that
 * only open and close at the ends, `(a) + (b)`, are kept. Null stays null.
 *
 * @example
 * ```ts
 * normalizeDefault("(lower('x'))"); // "lower('x')"
 * normalizeDefault("(gen_random_uuid())::text"); // unchanged: the parentheses are not outer
 * ```
 */
export function normalizeDefault(text: string | null): string | null {
  if (text === null) return null;
  let result = text.trim();
  while (result.startsWith("(") && closingParen(result, 0) === result.length - 1) {
    result = result.slice(1, -1).trim();
  }
  return result;
}

/**
 * The index of the parenthesis that closes the one at `open`, or -1. Quoted
 * text ('string', "identifier", `identifier`, [identifier]) is skipped, so a
 * parenthesis inside a literal does not count; a doubled quote inside quotes is
 * an escaped quote, which the skipping handles by leaving and re-entering.
 */
export function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i]!;
    const quoteEnd = char === "'" || char === '"' || char === "`" ? char : char === "[" ? "]" : undefined;
    if (quoteEnd !== undefined) {
      const end = text.indexOf(quoteEnd, i + 1);
      if (end === -1) return -1;
      i = end;
    } else if (char === "(") {
      depth++;
    } else if (char === ")") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
