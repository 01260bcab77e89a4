/**
 * Line-level reading of dotenv files, shared by the edits that change them.
 * Edits work line by line so every line they do not own (comments, blank lines,
 * other keys, each line's own terminator) comes back byte for byte.
 */

/** One line of a file and the terminator that ended it ("" for a last line without one). */
export interface Line {
  text: string;
  eol: string;
}

/** A `KEY=value` line, split so the key can be renamed without touching the rest. */
export interface Assignment {
  /** Leading whitespace and an optional `export ` — kept when the line is rewritten. */
  prefix: string;
  key: string;
  /** The value as dotenv reads it: unquoted, inline comment removed. */
  value: string;
}

/** Splits `content` into lines, keeping each terminator (`\n`, `\r\n` or a lone `\r`). */
export function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  let end = 0;
  for (const match of content.matchAll(/([^\r\n]*)(\r\n|\n|\r)/g)) {
    lines.push({ text: match[1]!, eol: match[2]! });
    end = match.index + match[0].length;
  }
  if (end < content.length) lines.push({ text: content.slice(end), eol: "" });
  return lines;
}

export function joinLines(lines: readonly Line[]): string {
  return lines.map((line) => line.text + line.eol).join("");
}

/** The terminator new lines should use: CRLF if the file already uses it, else LF. */
export function dominantEol(lines: readonly Line[]): string {
  const crlf = lines.filter((line) => line.eol === "\r\n").length;
  const lf = lines.filter((line) => line.eol === "\n").length;
  return crlf > lf ? "\r\n" : "\n";
}

const ASSIGNMENT = /^(\s*(?:export\s+)?)([A-Za-z_][\w.-]*)\s*=(.*)$/;

/** Parses `KEY=value`, `KEY="value"`, `KEY='value'`, `export KEY=value`; `undefined` for anything else. */
export function parseAssignment(text: string): Assignment | undefined {
  const match = ASSIGNMENT.exec(text);
  if (!match) return undefined;
  return { prefix: match[1]!, key: match[2]!, value: parseValue(match[3]!) };
}

/** Reads a value the way `dotenv` does, so rotation keeps exactly the secret the app was using. */
function parseValue(raw: string): string {
  const text = raw.trimStart();
  const quote = text[0];
  if (quote === '"' || quote === "'" || quote === "`") {
    const close = findClosingQuote(text, quote);
    if (close > 0) {
      const inner = text.slice(1, close);
      return quote === '"' ? inner.replace(/\\n/g, "\n").replace(/\\r/g, "\r") : inner;
    }
  }
  // Unquoted: dotenv stops at the first `#` (an inline comment).
  const hash = text.indexOf("#");
  return (hash === -1 ? text : text.slice(0, hash)).trim();
}

function findClosingQuote(text: string, quote: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** The value dotenv would load for `key` (the last assignment wins), or `undefined`. */
export function readEnvValue(content: string, key: string): string | undefined {
  let value: string | undefined;
  for (const line of splitLines(content)) {
    const assignment = parseAssignment(line.text);
    if (assignment?.key === key) value = assignment.value;
  }
  return value;
}

/** `text` with its key replaced; everything after the key (value, quotes, comment) stays untouched. */
export function renameKey(text: string, assignment: Assignment, key: string): string {
  const rest = text.slice(assignment.prefix.length + assignment.key.length);
  return assignment.prefix + key + rest;
}
