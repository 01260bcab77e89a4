/** Names of prepared statements, derived from their text (node-postgres and PGlite share them). */

const statementNames = new Map<string, string>();

/**
 * A name that only this text gets: PostgreSQL refuses one name for two texts on
 * a connection, and connections are shared by everything using the pool (or,
 * with PGlite, the one connection of the app). Two
 * 32-bit FNV-1a hashes (different seeds) make a collision among the few dozen
 * statements of the adapters practically impossible.
 */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `gatehouse_${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x01000193)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** How many times each text was renamed (`renameStatement`). */
const renames = new Map<string, number>();

/**
 * Gives `text` a new name, so every connection parses it afresh. For a plan
 * PostgreSQL refuses to reuse ("cached plan must not change result type",
 * SQLSTATE 0A000): a migration added a column to a table the statement reads
 * whole (`SELECT *`, as the user and session reads do), and the statement
 * prepared under the old name fails on that connection until it is parsed again.
 */
export function renameStatement(text: string): void {
  const count = (renames.get(text) ?? 0) + 1;
  renames.set(text, count);
  statementNames.set(text, `gatehouse_${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x01000193)}_${count}`);
}

/** The error PostgreSQL answers a prepared statement whose result columns a migration changed. */
export function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "0A000" && /cached plan must not change result type/i.test(String((error as Error).message));
}

function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
