/**
 * Adding keys to a dotenv file without disturbing it: existing lines (values the
 * user set, comments, order, line endings) come back byte for byte; a missing key
 * is appended, and a key that is present but empty gets the value we have for it.
 */
import { dominantEol, joinLines, parseAssignment, splitLines, type Line } from "./dotenv.js";

export interface EnvEntry {
  key: string;
  /** The value to write; `""` writes an empty placeholder (`KEY=`) for the user to fill. */
  value: string;
  /** A `# comment` line written above the key when it is appended (what goes there); never when the key exists. */
  comment?: string;
}

export function ensureEnvKeys(content: string, entries: readonly EnvEntry[]): string {
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = splitLines(content.slice(bom.length));
  const eol = dominantEol(lines);
  const out: Line[] = [...lines];
  for (const { key, value, comment } of entries) {
    // dotenv loads the last assignment of a key: that is the one that counts.
    const index = out.findLastIndex((line) => parseAssignment(line.text)?.key === key);
    const assignment = index === -1 ? undefined : parseAssignment(out[index]!.text);
    if (assignment && (assignment.value !== "" || value === "")) continue;
    const text = `${assignment?.prefix ?? ""}${key}=${quote(value)}`;
    if (index !== -1) {
      out[index] = { text, eol: out[index]!.eol };
      continue;
    }
    const last = out.at(-1);
    if (last && last.eol === "") out[out.length - 1] = { ...last, eol };
    // A comment left behind by a key the user removed is not written twice.
    if (comment && !out.some((line) => line.text === `# ${comment}`)) out.push({ text: `# ${comment}`, eol });
    out.push({ text, eol });
  }
  return bom + joinLines(out);
}

/** Whether the dotenv text gives `key` a non-empty value. */
export function hasEnvValue(env: string, key: string): boolean {
  // Spaces and tabs only: `\s` would run on into the next line and read its key as this one's value.
  return new RegExp(`^[ \\t]*(?:export[ \\t]+)?${key}[ \\t]*=[ \\t]*["']?[^"'\\s#]`, "m").test(env);
}

/**
 * Double-quoted unless empty, so `#` and spaces survive every dotenv reader. Quotes
 * and line breaks have no escape all readers agree on, so values never hold them.
 */
function quote(value: string): string {
  if (/["\r\n]/.test(value)) throw new Error(`an env value cannot contain quotes or line breaks: ${JSON.stringify(value)}`);
  return value === "" ? "" : `"${value}"`;
}
