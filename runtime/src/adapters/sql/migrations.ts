/**
 * What every adapter's `migrate()` does the same way: the list it applies, the
 * next migration the ledger does not record yet, the error when one fails, and
 * the loop of one transaction per migration. The lock, the ledger's table and
 * the SQL that reads and writes it are each dialect's, in its `migrate.ts`.
 */

/** One migration: a name (the SQL file's name without `.sql`) and its SQL. */
export interface Migration {
  readonly name: string;
  readonly sql: string;
}

/** `given`, or the adapter's own migrations; the names must be unique, as the ledger records each by name. */
export function migrationsToApply(given: readonly Migration[] | undefined, bundled: readonly Migration[]): readonly Migration[] {
  const list = given ?? bundled;
  const names = new Set(list.map((migration) => migration.name));
  if (names.size !== list.length) throw new Error("migrate: two migrations have the same name.");
  return list;
}

/** The first migration of `list` that the ledger's rows do not name, or undefined when all are applied. */
export function nextPending(list: readonly Migration[], ledger: readonly { name: string }[]): Migration | undefined {
  const done = new Set(ledger.map((row) => row.name));
  return list.find((migration) => !done.has(migration.name));
}

/** Runs `migration` with `run`, naming it (and `where`, e.g. a branch) in the error if it fails. */
export async function runMigration(migration: Migration, run: (sql: string) => Promise<unknown>, where = ""): Promise<void> {
  try {
    await run(migration.sql);
  } catch (error) {
    throw new Error(`migrate: migration ${migration.name} failed${where}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Calls `applyNext` until it applies nothing (returns null); the names it applied.
 * Each call is one transaction applying one migration: each one is applied
 * entirely or not at all, and a failing one leaves those before it applied and recorded.
 */
export async function applyInTurn(applyNext: () => Promise<string | null>): Promise<{ applied: string[] }> {
  const applied: string[] = [];
  for (;;) {
    const name = await applyNext();
    if (name === null) return { applied };
    applied.push(name);
  }
}
