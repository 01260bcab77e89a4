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

function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
