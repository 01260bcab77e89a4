/**
 * A Plan is everything a command would change, computed without touching the
 * disk: the full text of each file before and after, and what to install and
 * tell the user. `engine/apply.ts` alone turns it into writes; `--dry-run`
 * prints it instead.
 */

export interface FileChange {
  /** Relative to the app's directory, with `/` separators. */
  path: string;
  /** The text on disk when the plan was made; `null` for a new file. */
  before: string | null;
  after: string;
  /** Holds secrets: created owner-only (0600). */
  secret?: boolean;
}

/** A file the plan leaves alone, and why (the user's own version differs from ours). */
export interface KeptFile {
  path: string;
  reason: string;
}

/**
 * A file the plan would edit but that does not parse: where, and the parser's
 * message. Not kept: the whole plan is refused (`refuseUnparsable`), since an
 * app set up around a file we could not edit is half set up.
 */
export interface UnparsableFile {
  path: string;
  language: "TypeScript" | "Svelte";
  /** 1-based, as editors count. */
  line: number;
  column: number;
  message: string;
}

export interface Plan {
  changes: FileChange[];
  kept: KeptFile[];
  /** Files that stop the plan: it must not be applied while there is one. */
  unparsable: UnparsableFile[];
  /** Packages to add to `dependencies` (name -> version or spec). */
  dependencies: Record<string, string>;
  /** Packages to add to `devDependencies`. */
  devDependencies: Record<string, string>;
  /** Env keys the app needs, and whether the plan fills them in. */
  env: { key: string; filled: boolean }[];
  /** What the user does next, in order. */
  nextSteps: string[];
}

export function emptyPlan(): Plan {
  return { changes: [], kept: [], unparsable: [], dependencies: {}, devDependencies: {}, env: [], nextSteps: [] };
}

/** One line for a file that does not parse: `path:line:column`, what the parser said, and that nothing changed. */
export function unparsableLine({ path, language, line, column, message }: UnparsableFile): string {
  return `${path}:${line}:${column}: does not parse as ${language} (${message.replace(/\.$/, "")}): fix it, then run the command again; nothing was changed`;
}

/** Thrown before anything is written (and before a dry run prints its plan) when a file the plan edits does not parse. */
export class UnparsableFileError extends Error {
  constructor(readonly files: readonly UnparsableFile[]) {
    // One line per file; the CLI prefixes the first with "error: ".
    super(files.map(unparsableLine).join("\nerror: "));
    this.name = "UnparsableFileError";
  }
}

/** Stops here when a file the plan edits does not parse. */
export function refuseUnparsable(plan: Plan): void {
  if (plan.unparsable.length > 0) throw new UnparsableFileError(plan.unparsable);
}

/**
 * Adds a new file unless the project already has one: the same text is nothing
 * to do; a different text is the user's and is kept, with the reason.
 */
export function addNewFile(plan: Plan, path: string, current: string | null | undefined, after: string, whenDifferent: string): void {
  if (current === null || current === undefined) plan.changes.push({ path, before: null, after });
  else if (current !== after) plan.kept.push({ path, reason: whenDifferent });
}

/** Adds an edit of a file that may exist; no change when the edit changes nothing. */
export function addEdit(plan: Plan, path: string, current: string | null | undefined, after: string, secret = false): void {
  const before = current ?? null;
  if (before === after) return;
  plan.changes.push({ path, before, after, ...(secret ? { secret } : {}) });
}
