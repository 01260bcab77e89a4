/**
 * `AUTH_SECRET`: make a new one and put it into the text of a dotenv file.
 * Pure (no disk): the command reads and writes the file through `engine/`.
 */
import { randomBytes } from "node:crypto";
import { dominantEol, joinLines, parseAssignment, renameKey, splitLines, type Line } from "./dotenv.js";

export const SECRET_KEY = "AUTH_SECRET";
/** The rotation secrets the runtime reads besides AUTH_SECRET (exactly these three). */
export const ROTATION_KEYS = ["AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"] as const;
/**
 * Oldest to newest, in Auth.js's order (what `setEnvDefaults` in both runtimes
 * reads): the highest-numbered secret set encrypts, every one set decrypts.
 */
export const SECRET_SLOTS = [SECRET_KEY, ...ROTATION_KEYS] as const;
type Slot = (typeof SECRET_SLOTS)[number];

/**
 * The comment `--rotate` writes above the secret it adds. `auth doctor` takes a
 * file with rotation secrets and without it for one rotated before gatehouse
 * followed Auth.js's order (then AUTH_SECRET was the newest).
 */
export const ROTATION_MARKER = "# auth secret --rotate:";

/** 32 random bytes as base64url: 43 characters, 256 bits, safe unquoted in any env file. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export interface SecretEdit {
  content: string;
  /**
   * `added`: there was no (non-empty) secret before; `replaced`: the new AUTH_SECRET
   * is the only one, the old ones are gone; `rotated`: the new secret is in `key`,
   * the old ones still decrypt.
   */
  change: "added" | "replaced" | "rotated";
  /** The variable that holds the new secret (and encrypts from now on). */
  key: Slot;
  /** Rotation secrets a replace removed, or the oldest secret a full rotation dropped (by the name it had). */
  removed: Slot[];
  /** Rotation renamed secrets to make room at the top: old name -> new name. */
  renamed: [Slot, Slot][];
  /** After a rotation: the secrets that still decrypt, oldest first. */
  older: Slot[];
}

/**
 * Sets a new secret in dotenv `content`. Without `rotate` it becomes AUTH_SECRET
 * and the only secret (rotation secrets are removed: replacing signs everyone
 * out). With `rotate` it goes where Auth.js's order makes it the one that
 * encrypts: the slot above the newest secret set (AUTH_SECRET, then _1, _2, _3).
 * When _3 is taken the secrets move down to close the gaps; with all four set,
 * the oldest (AUTH_SECRET) drops out.
 *
 * @example
 * setAuthSecret("A=1\nAUTH_SECRET=old\n", "new", { rotate: true }).content
 * // 'A=1\nAUTH_SECRET=old\n# auth secret --rotate: ...\nAUTH_SECRET_1="new"\n'
 */
export function setAuthSecret(content: string, secret: string, options: { rotate: boolean }): SecretEdit {
  // A BOM would hide the first key from the parser; keep it but edit behind it.
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = splitLines(content.slice(bom.length));
  const eol = dominantEol(lines);
  const assignments = lines.map((line) => parseAssignment(line.text));
  // dotenv loads the last assignment of a key, so that is the secret in use; earlier copies are stale.
  const live = new Map<Slot, number>();
  assignments.forEach((a, i) => {
    if (a && isSlot(a.key)) live.set(a.key, i);
  });
  const set = SECRET_SLOTS.filter((slot) => live.has(slot) && assignments[live.get(slot)!]!.value !== "");

  if (!options.rotate || set.length === 0) return replaceAll(lines, assignments, live, set, secret, eol, bom);

  // Rotation: the new secret goes above the newest; when _3 is taken, the set ones move down (the oldest drops when all four are).
  const dropped: Slot[] = set.length === SECRET_SLOTS.length ? [set[0]!] : [];
  const kept = set.filter((slot) => !dropped.includes(slot));
  const highest = SECRET_SLOTS.indexOf(set.at(-1)!);
  const target = new Map<Slot, Slot>(kept.map((slot, i) => [slot, highest < SECRET_SLOTS.length - 1 ? slot : SECRET_SLOTS[i]!]));
  const key = highest < SECRET_SLOTS.length - 1 ? SECRET_SLOTS[highest + 1]! : SECRET_SLOTS[kept.length]!;
  const anchor = live.get(set.at(-1)!)!;

  const out: Line[] = [];
  lines.forEach((line, i) => {
    const a = assignments[i];
    if (line.text.startsWith(ROTATION_MARKER)) return;
    if (a && isSlot(a.key)) {
      // Stale copies, empty placeholders and the dropped oldest go; the rest keep their value byte for byte.
      if (live.get(a.key) !== i || !target.has(a.key)) return;
      const name = target.get(a.key)!;
      out.push(name === a.key ? line : { text: renameKey(line.text, a, name), eol: line.eol });
      if (i === anchor) pushNew();
      return;
    }
    out.push(line);
  });

  function pushNew(): void {
    endLastLine(out, eol);
    const endsFile = anchor === lines.length - 1 && lines[anchor]!.eol === "";
    out.push({ text: `${ROTATION_MARKER} ${key} is the newest secret and encrypts; the others still decrypt (Auth.js order).`, eol });
    // Written like the newest line (`export `, indentation), for a file that is also sourced by a shell.
    out.push({ text: `${assignments[anchor]!.prefix}${key}="${secret}"`, eol: endsFile ? "" : eol });
  }

  const renamed = [...target].filter(([from, to]) => from !== to);
  return { content: bom + joinLines(out), change: "rotated", key, removed: dropped, renamed, older: kept.map((slot) => target.get(slot)!) };
}

/** AUTH_SECRET gets the new secret (in place, or appended); every rotation secret goes. */
function replaceAll(
  lines: Line[],
  assignments: ReturnType<typeof parseAssignment>[],
  live: Map<Slot, number>,
  set: Slot[],
  secret: string,
  eol: string,
  bom: string,
): SecretEdit {
  const current = live.get(SECRET_KEY);
  const out: Line[] = [];
  lines.forEach((line, i) => {
    const a = assignments[i];
    if (line.text.startsWith(ROTATION_MARKER)) return;
    if (!a || !isSlot(a.key)) return void out.push(line);
    if (a.key === SECRET_KEY && i === current) out.push({ text: `${a.prefix}${SECRET_KEY}="${secret}"`, eol: line.eol });
  });
  if (current === undefined) {
    endLastLine(out, eol);
    out.push({ text: `${SECRET_KEY}="${secret}"`, eol });
  }
  const removed = set.filter((slot) => slot !== SECRET_KEY);
  return { content: bom + joinLines(out), change: set.length > 0 ? "replaced" : "added", key: SECRET_KEY, removed, renamed: [], older: [] };
}

/** A line is about to follow: the last one, if the file ended without a line break, gets one. */
function endLastLine(out: Line[], eol: string): void {
  const last = out.at(-1);
  if (last && last.eol === "") out[out.length - 1] = { ...last, eol };
}

function isSlot(key: string): key is Slot {
  return (SECRET_SLOTS as readonly string[]).includes(key);
}
