/**
 * A database's tables as plain data, the same for every dialect: what a live
 * database holds (read by `inspect/postgres.ts` and `inspect/sqlite.ts`) and
 * what the schema definition says it should hold, compared by `catalogDrift`.
 * Names are the database's own (unquoted); types are the dialect's own spelling,
 * lower-cased (`text`, `timestamp with time zone`, `integer`); defaults are the
 * expression text the database reports, normalized (see `normalizeDefault`).
 */

export interface CatalogColumn {
  name: string;
  /** The type as the database names it, lower-cased: `text`, `bigint`, `timestamp with time zone`; SQLite's declared type (`text`, `integer`). */
  type: string;
  notNull: boolean;
  /** The default expression's text, normalized; null without one. */
  default: string | null;
}

export interface CatalogIndex {
  name: string;
  unique: boolean;
  /** The indexed columns, in order. */
  columns: string[];
}

export interface CatalogForeignKey {
  columns: string[];
  /** The referenced table's name (without a schema). */
  table: string;
  referencedColumns: string[];
  /** `cascade`, `restrict`, `set null`, `no action`, lower-cased. */
  onDelete: string;
  onUpdate: string;
}

export interface CatalogTable {
  name: string;
  /** In the table's column order. */
  columns: CatalogColumn[];
  /** The primary key's columns, in order; empty without one. */
  primaryKey: string[];
  /**
   * Indexes by name, sorted by name. Those a database makes for a PRIMARY KEY or
   * UNIQUE constraint are left out (`primaryKey` and `uniqueConstraints` say them);
   * those made with CREATE [UNIQUE] INDEX are here.
   */
  indexes: CatalogIndex[];
  /** UNIQUE constraints of the table's definition (not CREATE UNIQUE INDEX), each as its columns, sorted. */
  uniqueConstraints: string[][];
  /** Sorted by their columns. */
  foreignKeys: CatalogForeignKey[];
}

/** Tables by name, sorted by name. */
export interface Catalog {
  tables: CatalogTable[];
}
