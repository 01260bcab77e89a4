/**
 * How a live database stands against the schema this runtime expects: the
 * migrations its ledger lacks (pending), those it records that this runtime's
 * list does not have (unknown: applied by a newer runtime, or an app migration
 * since taken out of the list), and the tables, columns and indexes missing
 * although the ledger records the migration that makes them (changed by hand or
 * by another tool). Pure: the dialects read the ledger and the catalog
 * (`adapters/<dialect>/check-schema.ts`) and call `schemaDrift`.
 */
import type { Catalog } from "./catalog.js";

/** A table the schema expects, with the migration that makes it and each of its columns and indexes. */
export interface ExpectedTable {
  name: string;
  migration: string;
  columns: readonly { name: string; migration: string }[];
  indexes: readonly { name: string; migration: string }[];
}

/** What a database lacks: a whole table, or one column or index of it. */
export type Missing = { table: string; migration: string } & ({ column: string } | { index: string } | object);

export interface SchemaReport {
  /** Migrations of the list the ledger does not record, in the list's order: `migrate()` applies them. */
  pending: string[];
  /** Migrations the ledger records that the list does not have. */
  unknown: string[];
  /** What the applied migrations made and the database no longer has. */
  missing: Missing[];
}

export function schemaDrift(expected: readonly ExpectedTable[], catalog: Catalog, ledger: readonly string[], list: readonly string[]): SchemaReport {
  const applied = new Set(ledger);
  const known = new Set(list);
  const tables = new Map(catalog.tables.map((table) => [table.name, table]));
  const missing: Missing[] = [];
  for (const table of expected) {
    if (!applied.has(table.migration)) continue;
    const live = tables.get(table.name);
    if (!live) {
      missing.push({ table: table.name, migration: table.migration });
      continue;
    }
    const columns = new Set(live.columns.map((column) => column.name));
    // A PRIMARY KEY or UNIQUE constraint's index is not in `indexes`; the expected ones are all made by CREATE INDEX.
    const indexes = new Set(live.indexes.map((index) => index.name));
    for (const column of table.columns) if (applied.has(column.migration) && !columns.has(column.name)) missing.push({ table: table.name, column: column.name, migration: column.migration });
    for (const index of table.indexes) if (applied.has(index.migration) && !indexes.has(index.name)) missing.push({ table: table.name, index: index.name, migration: index.migration });
  }
  return {
    pending: list.filter((name) => !applied.has(name)),
    unknown: ledger.filter((name) => !known.has(name)),
    missing,
  };
}

/** `users."sessionVersion"`-style names of what is missing, for messages. */
export function describeMissing(missing: readonly Missing[]): string[] {
  return missing.map((item) => ("column" in item ? `column ${item.table}.${item.column}` : "index" in item ? `index ${item.index} on ${item.table}` : `table ${item.table}`) + ` (${item.migration})`);
}
