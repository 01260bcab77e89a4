/**
 * `inspectPostgres`: the tables of one PostgreSQL schema as a `Catalog`, read
 * from pg_catalog. Not information_schema: it shows only what the current role
 * has privileges on, and spells types its own way (`character varying`
 * without its length, `ARRAY`, `USER-DEFINED`); `format_type` gives the type
 * as it would be written in DDL.
 *
 * Four queries (columns, constraints, indexes, and the tables themselves),
 * each ordered in SQL and joined up here by table name. Lists come back as
 * JSON text and numbers never come back at all: drivers parse arrays, bigints
 * and json differently (node-postgres, PGlite, a client of the app's own),
 * text they all return as it is.
 */
import type { SqlClient } from "../../adapters/postgres/client.js";
import type { Catalog, CatalogColumn, CatalogForeignKey, CatalogIndex, CatalogTable } from "../catalog.js";
import { normalizeDefault } from "../normalize-default.js";
import { sortCatalog } from "./order.js";

export interface InspectPostgresOptions {
  /** The schema to read. Default: `current_schema()`, the first schema of the search path that exists. */
  schema?: string;
  /** Only these tables; a name without a table is simply absent from the catalog. Default: every table of the schema. */
  tables?: readonly string[];
}

/**
 * The tables of `$1`'s schema (ordinary and partitioned), limited to the JSON
 * array of names in `$2` when it is not null. The list goes as JSON text
 * because drivers send a JavaScript array differently (node-postgres as an
 * array literal, PGlite as JSON). Names come back as `text`, never as the
 * catalog's `name` and `"char"` types, which Prisma's raw queries cannot decode.
 */
const TABLES = `WITH t AS (
  SELECT c.oid, c.relname::text AS relname
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = coalesce($1::text, current_schema())
    AND c.relkind IN ('r', 'p')
    AND ($2::text IS NULL OR c.relname IN (SELECT json_array_elements_text($2::text::json)))
)`;

interface TableRow {
  table: string;
}

const TABLE_NAMES = `${TABLES} SELECT relname AS "table" FROM t`;

interface ColumnRow {
  table: string;
  name: string;
  type: string;
  not_null: boolean;
  default: string | null;
}

// attnum > 0 leaves out the system columns (ctid, xmin, ...). A generated
// column's expression is in pg_attrdef too, but it is no default: left out.
const COLUMNS = `${TABLES}
SELECT t.relname AS "table", a.attname::text AS name, lower(pg_catalog.format_type(a.atttypid, a.atttypmod)) AS type,
  a.attnotnull AS not_null,
  CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(d.adbin, d.adrelid) END AS "default"
FROM t
JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
ORDER BY t.relname, a.attnum`;

interface ConstraintRow {
  table: string;
  kind: "p" | "u" | "f";
  /** JSON text: the constrained columns, in the constraint's order. */
  columns: string;
  referenced_table: string | null;
  /** JSON text, or null for a primary key or unique constraint. */
  referenced_columns: string | null;
  on_delete: string | null;
  on_update: string | null;
}

/** A JSON array of the names of `$attnums` (an int2[]) of table `$rel`, in the array's order. */
const columnNames = (attnums: string, rel: string) => `(
  SELECT json_agg(a.attname ORDER BY k.ord)::text
  FROM unnest(${attnums}) WITH ORDINALITY AS k(attnum, ord)
  JOIN pg_catalog.pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.attnum
)`;

const CONSTRAINTS = `${TABLES}
SELECT t.relname AS "table", con.contype::text AS kind,
  ${columnNames("con.conkey", "con.conrelid")} AS columns,
  r.relname::text AS referenced_table,
  CASE WHEN con.contype = 'f' THEN ${columnNames("con.confkey", "con.confrelid")} END AS referenced_columns,
  CASE WHEN con.contype = 'f' THEN con.confdeltype::text END AS on_delete,
  CASE WHEN con.contype = 'f' THEN con.confupdtype::text END AS on_update
FROM t
JOIN pg_catalog.pg_constraint con ON con.conrelid = t.oid AND con.contype IN ('p', 'u', 'f')
LEFT JOIN pg_catalog.pg_class r ON r.oid = con.confrelid
ORDER BY t.relname, con.conname`;

interface IndexRow {
  table: string;
  name: string;
  unique: boolean;
  /** JSON text: the key columns' names, an expression's text in its place. */
  columns: string;
}

// Indexes a PRIMARY KEY or UNIQUE constraint made are the constraint's
// (catalog.ts says them as `primaryKey` and `uniqueConstraints`). Only key
// columns: an index's INCLUDE columns (after indnkeyatts) are not indexed by.
// An expression's position holds attnum 0 and pg_get_indexdef gives its text.
const INDEXES = `${TABLES}
SELECT t.relname AS "table", ic.relname::text AS name, i.indisunique AS "unique",
  (SELECT json_agg(CASE WHEN k.attnum = 0 THEN pg_catalog.pg_get_indexdef(i.indexrelid, k.ord::int, true) ELSE a.attname END ORDER BY k.ord)::text
   FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
   LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
   WHERE k.ord <= i.indnkeyatts) AS columns
FROM t
JOIN pg_catalog.pg_index i ON i.indrelid = t.oid
JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
WHERE NOT EXISTS (
  SELECT 1 FROM pg_catalog.pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u')
)
ORDER BY t.relname, ic.relname`;

/** pg_constraint's confdeltype / confupdtype letters. */
const REFERENTIAL_ACTIONS: Readonly<Record<string, string>> = {
  a: "no action",
  r: "restrict",
  c: "cascade",
  n: "set null",
  d: "set default",
};

/**
 * Reads the tables of a schema (default: the current one) into a `Catalog`.
 *
 * @example
 * ```ts
 * const catalog = await inspectPostgres(fromPGlite(new PGlite()), { tables: ["users", "sessions"] });
 * catalog.tables.map((table) => table.name); // ["sessions", "users"], those that exist
 * ```
 */
export async function inspectPostgres(client: SqlClient, options: InspectPostgresOptions = {}): Promise<Catalog> {
  const params = [options.schema ?? null, options.tables ? JSON.stringify(options.tables) : null];
  // One after another: a client may be a single connection (PGlite, a transaction's).
  const tables = (await client.query<TableRow>(TABLE_NAMES, params)).rows;
  const columns = (await client.query<ColumnRow>(COLUMNS, params)).rows;
  const constraints = (await client.query<ConstraintRow>(CONSTRAINTS, params)).rows;
  const indexes = (await client.query<IndexRow>(INDEXES, params)).rows;

  const byName = new Map<string, CatalogTable>();
  // Made on first sight: a table created between two of the queries is then still whole enough.
  const tableOf = (name: string): CatalogTable => {
    let table = byName.get(name);
    if (!table) byName.set(name, (table = { name, columns: [], primaryKey: [], indexes: [], uniqueConstraints: [], foreignKeys: [] }));
    return table;
  };
  // Tables first: one without columns (PostgreSQL allows it) appears in no other query.
  for (const { table } of tables) tableOf(table);
  for (const row of columns) tableOf(row.table).columns.push(toColumn(row));
  for (const row of constraints) {
    const table = tableOf(row.table);
    const keyColumns = parseNames(row.columns);
    if (row.kind === "p") table.primaryKey = keyColumns;
    else if (row.kind === "u") table.uniqueConstraints.push(keyColumns);
    else table.foreignKeys.push(toForeignKey(row, keyColumns));
  }
  for (const row of indexes) tableOf(row.table).indexes.push(toIndex(row));
  return sortCatalog([...byName.values()]);
}

function toColumn(row: ColumnRow): CatalogColumn {
  return { name: row.name, type: row.type, notNull: row.not_null, default: normalizeDefault(row.default) };
}

function toForeignKey(row: ConstraintRow, columns: string[]): CatalogForeignKey {
  return {
    columns,
    table: row.referenced_table!,
    referencedColumns: parseNames(row.referenced_columns),
    onDelete: referentialAction(row.on_delete),
    onUpdate: referentialAction(row.on_update),
  };
}

function toIndex(row: IndexRow): CatalogIndex {
  return { name: row.name, unique: row.unique, columns: parseNames(row.columns) };
}

function referentialAction(letter: string | null): string {
  const action = letter === null ? undefined : REFERENTIAL_ACTIONS[letter];
  if (action === undefined) throw new Error(`inspectPostgres: unknown referential action ${JSON.stringify(letter)}`);
  return action;
}

/** A JSON array of names from the queries above; null (an empty json_agg) is none. */
function parseNames(json: string | null): string[] {
  return json === null ? [] : (JSON.parse(json) as string[]);
}
