/**
 * `AUTH_SECRET`: make a new one and put it into the text of a dotenv file.
 * Pure (no disk): the command reads and writes the file through `engine/`.
 */
import { randomBytes } from "node:crypto";
import { dominantEol, joinLines, parseAssignment, renameKey, splitLines, type Line } from "./dotenv.js";

export const SECRET_KEY = "AUTH_SECRET";
/** Older secrets the runtime still accepts, newest first (it reads exactly these three). */
export const ROTATION_KEYS = ["AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"] as const;

/** 32 random bytes as base64url: 43 characters, 256 bits, safe unquoted in any env file. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export interface SecretEdit {
  content: string;
  /** `added`: there was no (non-empty) AUTH_SECRET before; `replaced`: the old one is gone; `rotated`: it is now AUTH_SECRET_1. */
  change: "added" | "replaced" | "rotated";
  /** Rotation removed an AUTH_SECRET_3 to make room. */
  droppedOldest: boolean;
}

/**
 * Sets `AUTH_SECRET="<secret>"` in dotenv `content`; with `rotate`, the previous
 * secret moves to AUTH_SECRET_1 and older ones shift down (AUTH_SECRET_3 drops out).
 *
 * @example
 * setAuthSecret("A=1\nAUTH_SECRET=old\n", "new", { rotate: true }).content
 * // 'A=1\nAUTH_SECRET="new"\nAUTH_SECRET_1=old\n'
 */
export function setAuthSecret(content: string, secret: string, options: { rotate: boolean }): SecretEdit {
  // A BOM would hide the first key from the parser; keep it but edit behind it.
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = splitLines(content.slice(bom.length));
  const eol = dominantEol(lines);
  const assignments = lines.map((line) => parseAssignment(line.text));
  // dotenv loads the last assignment of a key, so that is the secret in use.
  const current = assignments.findLastIndex((a) => a?.key === SECRET_KEY);
  const previous = assignments[current]?.value;
  const rotate = options.rotate && Boolean(previous);

  const out: Line[] = [];
  let droppedOldest = false;
  lines.forEach((line, i) => {
    const assignment = assignments[i];
    if (assignment?.key === SECRET_KEY) {
      // Earlier copies were shadowed by the last one and only hold stale secrets: drop them.
      if (i !== current) return;
      const fresh = `${assignment.prefix}${SECRET_KEY}="${secret}"`;
      if (!rotate) return void out.push({ text: fresh, eol: line.eol });
      // Rename rather than re-quote the old line, so its value stays byte-identical.
      out.push({ text: fresh, eol }, { text: renameKey(line.text, assignment, ROTATION_KEYS[0]), eol: line.eol });
      return;
    }
    const slot = rotate && assignment ? ROTATION_KEYS.indexOf(assignment.key as (typeof ROTATION_KEYS)[number]) : -1;
    const next = ROTATION_KEYS[slot + 1];
    if (slot === -1 || !assignment) out.push(line);
    else if (next) out.push({ text: renameKey(line.text, assignment, next), eol: line.eol });
    else droppedOldest = true;
  });

  if (current === -1) {
    const last = out.at(-1);
    if (last && last.eol === "") out[out.length - 1] = { ...last, eol };
    out.push({ text: `${SECRET_KEY}="${secret}"`, eol });
  }
  const change = rotate ? "rotated" : previous ? "replaced" : "added";
  return { content: bom + joinLines(out), change, droppedOldest };
}
