/**
 * The order `catalog.ts` promises, applied the same way by every inspector, so
 * two catalogs compare with a deep equality. Names compare by UTF-16 code
 * units, not `localeCompare`: the order must not depend on the machine's locale.
 */
import type { Catalog, CatalogForeignKey, CatalogTable } from "../catalog.js";

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Column lists element by element; a list that is a prefix of another comes first. */
export function compareColumns(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareText(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** By columns, then (two keys on the same columns) by what they reference. */
function compareForeignKeys(a: CatalogForeignKey, b: CatalogForeignKey): number {
  return (
    compareColumns(a.columns, b.columns) ||
    compareText(a.table, b.table) ||
    compareColumns(a.referencedColumns, b.referencedColumns) ||
    compareText(a.onDelete, b.onDelete) ||
    compareText(a.onUpdate, b.onUpdate)
  );
}

/** Sorts tables by name and each table's indexes, unique constraints and foreign keys; columns keep their order. */
export function sortCatalog(tables: readonly CatalogTable[]): Catalog {
  return {
    tables: [...tables]
      .map((table) => ({
        ...table,
        indexes: [...table.indexes].sort((a, b) => compareText(a.name, b.name)),
        uniqueConstraints: [...table.uniqueConstraints].sort(compareColumns),
        foreignKeys: [...table.foreignKeys].sort(compareForeignKeys),
      }))
      .sort((a, b) => compareText(a.name, b.name)),
  };
}
