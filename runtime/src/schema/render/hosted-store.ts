/**
 * The auth schema as the hosted store's svc_ tables (its specification's
 * shape; see `HostedStoreTable`), on PostgreSQL. Each migration runs inside a
 * branch's schema (`migrate()` sets search_path to it), so no name is
 * schema-qualified. Every statement checks before it changes something.
 */
import type { Column, HostedStoreTable, Index, Schema, StepId, Table } from "../model.js";
import type { ExpectedTable } from "../drift.js";
import { addedColumnNotes, columnsAddedIn, comment, header, migration, migrationNames, quoted, quotedList, stepsOf, type NamedStep, type RenderedMigration } from "./sql.js";

const TYPES: Record<Column["type"], string> = {
  id: "text",
  serial: "integer",
  text: "text",
  integer: "integer",
  bigint: "bigint",
  boolean: "boolean",
  timestamp: "timestamptz",
};

const USERS = "svc_users";

/** What the store keeps on every record beside its id: when it was created and updated, and how often. */
export const RECORD_BOOKKEEPING: readonly string[] = ["created_at", "updated_at", "version"];
/** What the store adds to every record: its id, and its bookkeeping. */
const METADATA_FIELDS = ["id", ...RECORD_BOOKKEEPING];
const RECORD_METADATA = [
  "id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY",
  "created_at timestamptz NOT NULL DEFAULT now()",
  "updated_at timestamptz NOT NULL DEFAULT now()",
  "version integer NOT NULL DEFAULT 0",
];

/** Keeps updated_at and version, whoever writes. */
const TOUCH = `CREATE OR REPLACE FUNCTION svc_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;`;

type Hosted = Table & { hostedStore: HostedStoreTable };

/** The step that makes a table in the hosted store. */
function hostedSince(table: Table): StepId {
  return table.hostedStore?.since ?? table.since;
}

export function hostedStoreMigrations(schema: Schema): RenderedMigration[] {
  return stepsOf(schema, "hosted-store").map((step) => renderStep(schema, step));
}

function renderStep(schema: Schema, step: NamedStep): RenderedMigration {
  const created = schema.tables.filter((table): table is Hosted => table.hostedStore !== undefined && hostedSince(table) === step.id);
  const added = columnsAddedIn(schema, step.id).filter(({ table, column }) => table.hostedStore && !column.recordTime);
  const records = created.flatMap((table) => [table.hostedStore.name, ...(table.hostedStore.join ? [table.hostedStore.join.table] : [])]);
  const statements = [
    ...(step.id === "init" ? [TOUCH] : []),
    ...created.map(createTable),
    ...created.flatMap((table) => (table.hostedStore.join ? [createJoinTable(table)] : [])),
    ...(created.length > 0 ? [created.flatMap(indexesOf).map(createIndex)] : []),
    ...(records.length > 0 ? [records.map(touchTrigger)] : []),
    ...(added.length > 0 ? [added.map(({ table, column }) => `ALTER TABLE ${quoted(table.hostedStore!.name)} ADD COLUMN IF NOT EXISTS ${fieldDefinition(table.hostedStore!, column)};`)] : []),
  ];
  const body = [
    ...addedColumnNotes(added, (table) => table.hostedStore!.name),
    ...(step.id === "init"
      ? [
          "The tables and fields of the specification's hosted-store schema: every field nullable, camelCase for the service's own fields, snake_case for OAuth values, links as foreign keys to the linked record's id, and the record metadata (id, created_at, updated_at, version; svc_touch() keeps the last two). What the adapter contract needs and the specification leaves open: unique lookups, links that cascade on delete, and join records whose user is the one their account or session links to (the composite foreign keys). svc_authenticators (WebAuthn) is our extension.",
        ]
      : []),
  ];
  const apply = `Runs inside the branch's schema; every statement checks before it changes something, so running this file twice is harmless.${records.length > 0 ? " Needs PostgreSQL 14 or later (CREATE OR REPLACE TRIGGER)." : ""}`;
  return migration(step, header("gatehouse hosted-store schema (the svc_ tables)", step, body, apply), statements);
}

/**
 * The fields a record stores of its table's columns, under their names there:
 * not the table's own key nor its record times (the record metadata's), and the
 * link to a user as the `"user"` field.
 */
function storedFields(table: Hosted): Column[] {
  return table.columns.filter((column) => !column.recordTime && !isOwnKey(column)).map((column) => ({ ...column, name: recordFieldOf(column) }));
}

/**
 * Where a column of the model is in its record: the link to a user is the
 * `"user"` field, the table's own key the record's `id`, its record times the
 * record's `created_at` and `updated_at`; every other column has its own name.
 */
export function recordFieldOf(column: Column): string {
  if (column.referencesUser) return "user";
  if (isOwnKey(column)) return "id";
  if (column.recordTime === "created") return "created_at";
  if (column.recordTime === "updated") return "updated_at";
  return column.name;
}

/** The fields a new table is created with (those of later steps are added by theirs), alphabetical unless `modelOrder`. */
function fieldsOf(table: Hosted): Column[] {
  const fields = storedFields(table).filter((column) => column.since === undefined);
  if (table.hostedStore.modelOrder) return fields;
  return fields.sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
}

/** A key the record id stands in for: a serial, or a text id the table makes itself. */
function isOwnKey(column: Column): boolean {
  return column.primaryKey === true && !column.referencesUser && (column.type === "serial" || column.default?.kind === "uuid");
}

function fieldDefinition(hosted: HostedStoreTable, column: Column): string {
  const parts = [quoted(column.name), TYPES[column.type]];
  if (hosted.required?.includes(column.name)) parts.push("NOT NULL");
  if (column.default?.kind === "number") parts.push(`DEFAULT ${column.default.value}`);
  if (column.name === "user" && hosted.onePerUser) parts.push("UNIQUE");
  if (column.name === "user") parts.push(`REFERENCES ${USERS} (id) ON DELETE CASCADE`);
  return parts.join(" ");
}

function createTable(table: Hosted): string {
  const hosted = table.hostedStore;
  const lines = [...RECORD_METADATA, ...fieldsOf(table).map((column) => fieldDefinition(hosted, column))];
  // What the join table's composite foreign key points at.
  if (hosted.join) lines.push('UNIQUE (id, "user")');
  return `${comment(table.doc)}\nCREATE TABLE IF NOT EXISTS ${quoted(hosted.name)} (\n${lines.map((line) => `  ${line}`).join(",\n")}\n);`;
}

/** The join record of an account or session and its user: the database refuses one whose user is not the record's. */
function createJoinTable(table: Hosted): string {
  const { name, join } = table.hostedStore;
  const { table: joinName, field } = join!;
  const lines = [
    ...RECORD_METADATA,
    `${quoted(field)} text UNIQUE REFERENCES ${quoted(name)} (id) ON DELETE CASCADE`,
    `"user" text REFERENCES ${USERS} (id) ON DELETE CASCADE`,
    `FOREIGN KEY (${quoted(field)}, "user") REFERENCES ${quoted(name)} (id, "user") ON DELETE CASCADE ON UPDATE CASCADE`,
  ];
  return `CREATE TABLE IF NOT EXISTS ${quoted(joinName)} (\n${lines.map((line) => `  ${line}`).join(",\n")}\n);`;
}

/** The table's unique indexes under svc_ names, its key's stand-ins, and a lookup index on each `"user"` field (the join record's too). */
function indexesOf(table: Hosted): (Index & { on: string })[] {
  const hosted = table.hostedStore;
  const unique: Index[] = [
    ...table.indexes.filter((index) => index.unique).map((index) => ({ ...index, name: `svc_${index.name}` })),
    ...(hosted.keyIndexes ?? []),
  ];
  const own = (hosted.indexes ?? []).map((index) => ({ ...index, on: hosted.name }));
  const links = table.columns.some((column) => column.referencesUser) && !hosted.onePerUser ? [hosted.name, ...(hosted.join ? [hosted.join.table] : [])] : [];
  return [
    ...unique.map((index) => ({ ...index, on: hosted.name })),
    ...own,
    ...links.map((record) => ({ name: `${record}_user_idx`, columns: ["user"], on: record })),
  ];
}

function createIndex(index: Index & { on: string }): string {
  return `CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${quoted(index.name)} ON ${quoted(index.on)} (${quotedList(index.columns)});`;
}

function touchTrigger(record: string): string {
  return `CREATE OR REPLACE TRIGGER ${quoted(`${record}_touch`)} BEFORE UPDATE ON ${quoted(record)}\n  FOR EACH ROW EXECUTE FUNCTION svc_touch();`;
}

/** The svc_ records a fully migrated branch has, each field and index with the migration that makes it. */
export function hostedStoreShape(schema: Schema): ExpectedTable[] {
  const names = migrationNames(schema, "hosted-store");
  return schema.tables
    .filter((table): table is Hosted => table.hostedStore !== undefined && names.has(hostedSince(table)))
    .flatMap((table) => {
      const made = names.get(hostedSince(table))!;
      const metadata = METADATA_FIELDS.map((name) => ({ name, migration: made }));
      const fields = storedFields(table).map((column) => ({ name: column.name, migration: names.get(column.since ?? hostedSince(table))! }));
      const indexes = indexesOf(table);
      const indexesOn = (record: string) => indexes.filter((index) => index.on === record).map((index) => ({ name: index.name, migration: made }));
      const { join } = table.hostedStore;
      const joinRecord = join ? [{ name: join.table, migration: made, columns: [...metadata, { name: join.field, migration: made }, { name: "user", migration: made }], indexes: indexesOn(join.table) }] : [];
      return [{ name: table.hostedStore.name, migration: made, columns: [...metadata, ...fields], indexes: indexesOn(table.hostedStore.name) }, ...joinRecord];
    });
}
