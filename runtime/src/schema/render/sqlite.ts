/**
 * The auth schema as SQLite migrations. SQLite has no date or boolean type:
 * dates are INTEGER milliseconds since the epoch (exact to the millisecond like
 * a JavaScript Date, compared as numbers), booleans INTEGER 0 or 1, and
 * `expires_at` INTEGER seconds as the adapter contract stores it. Tables are
 * STRICT (SQLite >= 3.37; the adapter's RETURNING needs >= 3.35): a value of
 * the wrong type is refused instead of stored as it came.
 */
import type { Column, Schema, Table } from "../model.js";
import { addedColumnNotes, columnsAddedIn, comment, header, migration, originalColumns, quoted, quotedList, stepsOf, tablesCreatedIn, type NamedStep, type RenderedMigration } from "./sql.js";

const TYPES: Record<Column["type"], string> = {
  id: "TEXT",
  serial: "INTEGER",
  text: "TEXT",
  integer: "INTEGER",
  bigint: "INTEGER",
  boolean: "INTEGER",
  timestamp: "INTEGER",
};

/** A version 4 UUID, lower-case, made by SQLite itself. */
export const SQLITE_UUID = `(lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))
  ))`;

/** The time of the insert in milliseconds (unixepoch('subsec') needs SQLite >= 3.42). */
export const SQLITE_NOW = "(CAST(unixepoch('subsec') * 1000 AS INTEGER))";

export function sqliteMigrations(schema: Schema): RenderedMigration[] {
  return stepsOf(schema, "sqlite").map((step) => renderStep(schema, step));
}

function renderStep(schema: Schema, step: NamedStep): RenderedMigration {
  const created = tablesCreatedIn(schema, step.id);
  const added = columnsAddedIn(schema, step.id);
  const statements = [
    ...created.map(createTable),
    ...created.map(indexes).filter((group) => group.length > 0),
    ...(added.length > 0 ? [added.map(({ table, column }) => addColumn(table, column))] : []),
  ];
  const body = [
    ...addedColumnNotes(added),
    ...(created.some((table) => table.columns.some((column) => column.referencesUser))
      ? ["Foreign keys cascade only on a connection with `PRAGMA foreign_keys = ON`. SQLite turns them off for every new connection; the adapter's wrappers turn them on. Other tools writing to this database must do the same."]
      : []),
    ...(added.some(({ column }) => column.default?.kind === "now") ? ["SQLite cannot add a column whose default is the current time: the adapter writes those dates. Rows stored before keep NULL."] : []),
  ];
  const apply =
    added.length > 0
      ? "SQLite has no ADD COLUMN IF NOT EXISTS: `migrate()` from @gatehouse/runtime/adapters/sqlite applies this file once (it records it); with your own migration tool, apply it once."
      : "Every statement checks before it changes something, so this file is safe to run twice. Apply it with `migrate()` from @gatehouse/runtime/adapters/sqlite, or with your own migration tool.";
  return migration(step, header("gatehouse SQLite schema", step, body, apply), statements);
}

function createTable(table: Table): string {
  const lines = originalColumns(table).map((column) => `  ${columnDefinition(column)}`);
  if (table.primaryKey) lines.push(`  PRIMARY KEY (${quotedList(table.primaryKey)})`);
  return `${comment(table.doc)}\nCREATE TABLE IF NOT EXISTS ${quoted(table.name)} (\n${lines.join(",\n")}\n) STRICT;`;
}

function columnDefinition(column: Column, { added = false } = {}): string {
  const parts = [quoted(column.name), TYPES[column.type]];
  // INTEGER PRIMARY KEY is the rowid: SQLite numbers it, and it is never NULL.
  if (column.required && column.type !== "serial") parts.push("NOT NULL");
  if (column.primaryKey) parts.push("PRIMARY KEY");
  const value = column.default;
  if (value && !(added && value.kind !== "number")) parts.push(`DEFAULT ${value.kind === "uuid" ? SQLITE_UUID : value.kind === "now" ? SQLITE_NOW : String(value.value)}`);
  if (column.referencesUser) parts.push("REFERENCES users (id) ON DELETE CASCADE");
  if (column.type === "boolean") parts.push(`CHECK (${quoted(column.name)} IN (0, 1))`);
  return parts.join(" ");
}

function indexes(table: Table): string[] {
  return table.indexes
    .map((index) => `CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${quoted(index.name)} ON ${quoted(table.name)} (${quotedList(index.columns)});`);
}

/** SQLite adds a column with a constant default only: a time-of-insert default is left to the adapter. */
function addColumn(table: Table, column: Column): string {
  return `ALTER TABLE ${quoted(table.name)} ADD COLUMN ${columnDefinition(column, { added: true })};`;
}
