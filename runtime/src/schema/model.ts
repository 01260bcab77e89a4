/**
 * The words the auth schema is written in (`auth-schema.ts`): tables, columns,
 * indexes and the migration step each appeared in. Dialect-free: what a column
 * is, never how a database spells it. The renderers (`render/*.ts`) turn it
 * into each dialect's migrations and expected catalog.
 */

/** The migration steps, in the order they were released. A dialect may skip one (the hosted store makes its rate limit table in a later step of its own). */
export type StepId = "init" | "rate_limits" | "user_passwords" | "account_management" | "hosted_rate_limits";

/**
 * What a column holds, in the contract's terms:
 * - `id`: a text id (a user's, and the links to it).
 * - `serial`: an integer key the database numbers (Auth.js's `accounts.id` and `sessions.id`).
 * - `text`, `integer` (32-bit), `bigint` (64-bit), `boolean`.
 * - `timestamp`: a point in time (PostgreSQL timestamptz, SQLite INTEGER milliseconds).
 */
export type ColumnType = "id" | "serial" | "text" | "integer" | "bigint" | "boolean" | "timestamp";

/** A default: a new UUID (a table's own text id), the time of the insert, or a constant number. */
export type ColumnDefault = { kind: "uuid" } | { kind: "now" } | { kind: "number"; value: number };

export interface Column {
  /** The database's name, as the Auth.js schemas spell it: camelCase for the service's fields, snake_case for OAuth's. */
  name: string;
  type: ColumnType;
  /** NOT NULL. */
  required?: boolean;
  default?: ColumnDefault;
  /** This column alone is the primary key. */
  primaryKey?: boolean;
  /** A link to a user: the row goes with it (ON DELETE CASCADE). */
  referencesUser?: boolean;
  /**
   * The row's own bookkeeping (when it was created, last changed): a store
   * whose records carry it already (the hosted store's created_at and
   * updated_at) has no column for it.
   */
  recordTime?: "created" | "updated";
  /** The step that added it to an existing table (absent: it came with its table). */
  since?: StepId;
  /** Absent from older Auth.js schemas: added on adoption when missing. */
  addedOnAdoption?: boolean;
  /** What it holds and why: the migrations' comments and the ORM schemas' doc comments. */
  doc?: string;
}

export interface Index {
  name: string;
  columns: readonly string[];
  unique?: boolean;
  /** Why it is there. */
  doc?: string;
}

export interface Table {
  /** The name in the PostgreSQL and SQLite schemas. */
  name: string;
  /** What the rows are. */
  doc: string;
  since: StepId;
  /** A table of Auth.js's own schema: an Auth.js database has it already, possibly older (see render/postgres-adoption.ts). */
  fromAuthjs?: boolean;
  columns: readonly Column[];
  /** A primary key of several columns (one column's is `Column.primaryKey`). */
  primaryKey?: readonly string[];
  indexes: readonly Index[];
  /** How the hosted store keeps it; absent: the hosted store does not have it. */
  hostedStore?: HostedStoreTable;
}

/**
 * The hosted store's record for a table (its specification's shape): `svc_`
 * names, the record metadata (id, created_at, updated_at, version) in place of
 * the table's own key and record times, fields nullable unless listed in
 * `required` and in alphabetical order, the link to a user as a `"user"`
 * field, and for accounts and sessions a join record as well.
 */
export interface HostedStoreTable {
  name: string;
  /** Fields NOT NULL there (the specification makes every field nullable; our additions may not). */
  required?: readonly string[];
  /** The fields in the model's order, not alphabetical (our own tables, not the specification's). */
  modelOrder?: boolean;
  /** The `"user"` field is unique: one record per user. */
  onePerUser?: boolean;
  /** The join table linking each record to its user beside the `"user"` field, and the field it names the record by. */
  join?: { table: string; field: string };
  /** Unique indexes standing in for the table's primary key. */
  keyIndexes?: readonly Index[];
  /** Further indexes of its own (the table's other indexes are the dialects'). */
  indexes?: readonly Index[];
  /** The step that makes it in the hosted store, when the table's own is one the hosted store skips. */
  since?: StepId;
}

export interface Step {
  id: StepId;
  /** The headline of its migration: `migration 0004: <summary>`. */
  summary: string;
  /** Dialects that do not have it. */
  skippedBy?: readonly Dialect[];
}

export type Dialect = "postgres" | "sqlite" | "hosted-store";

export interface Schema {
  steps: readonly Step[];
  tables: readonly Table[];
}
