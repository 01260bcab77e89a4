/**
 * `inspectSqlite`: the tables of a SQLite database's `main` schema as a
 * `Catalog`, read through the pragma table functions (SQLite >= 3.37, for
 * `pragma_table_list`; the migrations' STRICT tables need it anyway). Numbers
 * from the pragmas go through `Number()`: a driver with safe integers on
 * returns them as bigints.
 */
import type { SqliteClient } from "../../adapters/sqlite/client.js";
import type { Catalog, CatalogColumn, CatalogForeignKey, CatalogIndex, CatalogTable } from "../catalog.js";
import { closingParen, normalizeDefault } from "../normalize-default.js";
import { sortCatalog } from "./order.js";

export interface InspectSqliteOptions {
  /** Only these tables; a name without a table is simply absent from the catalog. Default: every table. */
  tables?: readonly string[];
}

// type 'table' leaves out views, virtual tables and their shadow tables;
// the LIKE, SQLite's own tables (sqlite_schema, sqlite_sequence, sqlite_stat1).
const TABLES = `SELECT name, wr FROM pragma_table_list
WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
ORDER BY name`;

interface ColumnRow {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  /** The column's position in the primary key, from 1; 0 outside it. */
  pk: number;
}

// table_xinfo, unlike table_info, lists generated columns (hidden 2 and 3);
// hidden 1 is a virtual table's hidden column, never one of an ordinary table.
const COLUMNS = `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid`;

interface IndexListRow {
  name: string;
  unique: number;
  /** 'c': CREATE INDEX; 'u': a UNIQUE constraint; 'pk': the PRIMARY KEY. */
  origin: string;
}

const INDEX_LIST = `SELECT name, "unique", origin FROM pragma_index_list(?)`;

interface IndexColumnRow {
  /** -1: the rowid; -2: an expression. */
  cid: number;
  name: string | null;
}

const INDEX_COLUMNS = `SELECT cid, name FROM pragma_index_info(?) ORDER BY seqno`;

const INDEX_SQL = `SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?`;

interface ForeignKeyRow {
  /** The key's number: a key on several columns has one row per column, with one id. */
  id: number;
  table: string;
  from: string;
  /** Null when the key names only the table (`REFERENCES users`): it references that table's primary key. */
  to: string | null;
  on_update: string;
  on_delete: string;
}

const FOREIGN_KEYS = `SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`;

/**
 * Reads the database's tables into a `Catalog`.
 *
 * @example
 * ```ts
 * const catalog = await inspectSqlite(fromBetterSqlite3(new Database("auth.db")));
 * catalog.tables.find((table) => table.name === "users")?.primaryKey; // ["id"]
 * ```
 */
export async function inspectSqlite(client: SqliteClient, options: InspectSqliteOptions = {}): Promise<Catalog> {
  const wanted = options.tables ? new Set(options.tables) : undefined;
  const { rows } = await client.query<{ name: string; wr: number }>(TABLES);
  const tables: CatalogTable[] = [];
  for (const row of rows) {
    if (wanted && !wanted.has(row.name)) continue;
    tables.push(await inspectTable(client, row.name, Number(row.wr) === 1));
  }
  return sortCatalog(tables);
}

async function inspectTable(client: SqliteClient, name: string, withoutRowid: boolean): Promise<CatalogTable> {
  const { rows: columnRows } = await client.query<ColumnRow>(COLUMNS, [name]);
  const primaryKey = primaryKeyOf(columnRows);
  // The one column of a rowid table's primary key, declared INTEGER, is the rowid itself.
  const rowidAlias =
    !withoutRowid && primaryKey.length === 1
      ? columnRows.find((column) => column.name === primaryKey[0] && column.type.toLowerCase() === "integer")
      : undefined;
  const columns = columnRows.map(
    (row): CatalogColumn => ({
      name: row.name,
      type: row.type.toLowerCase(),
      // An INTEGER PRIMARY KEY is the rowid: NULL there is never stored (an insert of NULL
      // assigns a new rowid), though SQLite reports no NOT NULL unless it was written.
      notNull: Number(row.notnull) === 1 || row === rowidAlias,
      default: normalizeDefault(row.dflt_value),
    }),
  );

  const indexes: CatalogIndex[] = [];
  const uniqueConstraints: string[][] = [];
  const { rows: indexRows } = await client.query<IndexListRow>(INDEX_LIST, [name]);
  for (const index of indexRows) {
    if (index.origin === "pk") continue;
    const indexColumns = await indexColumnsOf(client, index.name);
    if (index.origin === "u") uniqueConstraints.push(indexColumns);
    else indexes.push({ name: index.name, unique: Number(index.unique) === 1, columns: indexColumns });
  }

  return { name, columns, primaryKey, indexes, uniqueConstraints, foreignKeys: await foreignKeysOf(client, name) };
}

function primaryKeyOf(columns: readonly ColumnRow[]): string[] {
  return columns
    .filter((column) => Number(column.pk) > 0)
    .sort((a, b) => Number(a.pk) - Number(b.pk))
    .map((column) => column.name);
}

/** The indexed columns in order; an expression's text (from the CREATE INDEX) in its place. */
async function indexColumnsOf(client: SqliteClient, index: string): Promise<string[]> {
  const { rows } = await client.query<IndexColumnRow>(INDEX_COLUMNS, [index]);
  let terms: string[] | undefined;
  const columns: string[] = [];
  for (const [position, row] of rows.entries()) {
    if (row.name !== null) columns.push(row.name);
    else if (Number(row.cid) === -1) columns.push("rowid");
    else {
      terms ??= indexTerms((await client.query<{ sql: string | null }>(INDEX_SQL, [index])).rows[0]?.sql ?? "");
      columns.push(terms[position] ?? "(expression)");
    }
  }
  return columns;
}

/**
 * The terms of a CREATE INDEX statement's column list, each without its
 * COLLATE and ASC/DESC (PostgreSQL's pg_get_indexdef reports a column's
 * expression without them too). `CREATE INDEX i ON t (lower(a), b DESC)`
 * gives `["lower(a)", "b"]`.
 */
function indexTerms(sql: string): string[] {
  const open = firstParen(sql);
  const close = open === -1 ? -1 : closingParen(sql, open);
  if (close === -1) return [];
  const terms: string[] = [];
  let start = open + 1;
  for (let i = start; i <= close; i++) {
    const char = sql[i]!;
    if (char === "(") i = closingParen(sql, i);
    else if (char === "'" || char === '"' || char === "`") i = sql.indexOf(char, i + 1);
    else if (char === "[") i = sql.indexOf("]", i + 1);
    else if (char === "," || i === close) {
      terms.push(withoutOrdering(sql.slice(start, i)));
      start = i + 1;
    }
    if (i === -1) return terms;
  }
  return terms;
}

/** The first `(` outside quotes: a quoted index or table name may hold one. */
function firstParen(sql: string): number {
  for (let i = 0; i < sql.length && i !== -1; i++) {
    const char = sql[i]!;
    if (char === "(") return i;
    if (char === "'" || char === '"' || char === "`") i = sql.indexOf(char, i + 1);
    else if (char === "[") i = sql.indexOf("]", i + 1);
  }
  return -1;
}

function withoutOrdering(term: string): string {
  return term
    .trim()
    .replace(/\s+(asc|desc)$/i, "")
    .replace(/\s+collate\s+("[^"]*"|'[^']*'|\S+)$/i, "")
    .trim();
}

async function foreignKeysOf(client: SqliteClient, table: string): Promise<CatalogForeignKey[]> {
  const { rows } = await client.query<ForeignKeyRow>(FOREIGN_KEYS, [table]);
  const byId = new Map<number, ForeignKeyRow[]>();
  for (const row of rows) byId.set(Number(row.id), [...(byId.get(Number(row.id)) ?? []), row]);
  const keys: CatalogForeignKey[] = [];
  for (const parts of byId.values()) {
    const first = parts[0]!;
    const referencedColumns = parts.some((part) => part.to === null)
      ? primaryKeyOf((await client.query<ColumnRow>(COLUMNS, [first.table])).rows)
      : parts.map((part) => part.to!);
    keys.push({
      columns: parts.map((part) => part.from),
      table: first.table,
      referencedColumns,
      onDelete: first.on_delete.toLowerCase(),
      onUpdate: first.on_update.toLowerCase(),
    });
  }
  return keys;
}
