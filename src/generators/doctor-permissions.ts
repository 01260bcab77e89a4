/**
 * `auth doctor`'s check of secrets at rest: env files, the PGlite folder and the
 * SQLite file that others on the machine can read. Pure: the flow stats the files
 * (and skips the check on Windows, where modes do not say who can read a file).
 */
import type { Finding } from "./doctor.js";
import { chmodCommand, isLoose, octal, OWNER_DIR, OWNER_FILE, replaceSecretCommand } from "./file-modes.js";

/** One file or folder and its mode; `shown` is its path from where the user runs doctor. */
export type FileModeFact =
  | { kind: "env"; shown: string; mode: number; holdsSecret: boolean }
  | { kind: "pglite"; shown: string; mode: number }
  | { kind: "sqlite"; shown: string; mode: number };

export function permissionFindings(facts: readonly FileModeFact[]): Finding[] {
  const findings: Finding[] = [];
  for (const fact of facts.filter((f) => isLoose(f.mode))) {
    if (fact.kind === "env") {
      const replace = fact.holdsSecret ? `; its AUTH_SECRET may have been read: replace it with \`${replaceSecretCommand(fact.shown)}\`` : "";
      findings.push({
        level: "warning",
        message: `${fact.shown} can be read by other users of this machine (mode ${octal(fact.mode)})${fact.holdsSecret ? " and holds AUTH_SECRET" : ""}`,
        fix: `run \`${chmodCommand(OWNER_FILE, [fact.shown])}\`${replace}`,
      });
    } else if (fact.kind === "pglite") {
      // PGlite creates its files 0666: whoever can enter the folder can read and change sessions and password hashes.
      findings.push({
        level: "warning",
        message: `the PGlite folder ${fact.shown} is open to other users of this machine (mode ${octal(fact.mode)}): PGlite's files in it are readable and writable by anyone who reaches them`,
        fix: `run \`${chmodCommand(OWNER_DIR, [fact.shown])}\``,
      });
    }
  }
  // The SQLite file and its -wal and -shm: one warning, one command.
  const sqlite = facts.filter((f) => f.kind === "sqlite" && isLoose(f.mode));
  if (sqlite.length > 0) {
    findings.push({
      level: "warning",
      message: `the SQLite database ${sqlite.map((f) => `${f.shown} (mode ${octal(f.mode)})`).join(", ")} can be read by other users of this machine`,
      fix: `run \`${chmodCommand(OWNER_FILE, sqlite.map((f) => f.shown))}\``,
    });
  }
  if (findings.length === 0 && facts.length > 0) findings.push({ level: "ok", message: `only their owner can read ${facts.map((f) => f.shown).join(", ")}` });
  return findings;
}
