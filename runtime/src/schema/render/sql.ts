/**
 * What every dialect's renderer does the same way: which steps a dialect has
 * and their migration names, which tables and columns a step brings, quoting,
 * and the comment blocks.
 */
import type { Migration } from "../../adapters/sql/migrations.js";
import type { ExpectedTable } from "../drift.js";
import type { Column, Dialect, Schema, Step, StepId, Table } from "../model.js";

/** A step of a dialect, with its migration's name (`0004_account_management`: numbered within the dialect). */
export interface NamedStep extends Step {
  migration: string;
}

export function stepsOf(schema: Schema, dialect: Dialect): NamedStep[] {
  return schema.steps
    .filter((step) => !step.skippedBy?.includes(dialect))
    .map((step, index) => ({ ...step, migration: `${String(index + 1).padStart(4, "0")}_${step.id}` }));
}

/** The tables `step` creates. */
export function tablesCreatedIn(schema: Schema, step: StepId): Table[] {
  return schema.tables.filter((table) => table.since === step);
}

/** The columns of the table as its CREATE TABLE has them (those later steps added are left out). */
export function originalColumns(table: Table): Column[] {
  return table.columns.filter((column) => column.since === undefined);
}

/** The columns `step` adds to tables an earlier step created, with their table. */
export function columnsAddedIn(schema: Schema, step: StepId): { table: Table; column: Column }[] {
  return schema.tables.flatMap((table) => table.columns.filter((column) => column.since === step).map((column) => ({ table, column })));
}

/** Words PostgreSQL reserves that the schema uses as names: they are always quoted. */
const RESERVED = new Set(["user"]);

/** A name as SQL spells it: bare when lower-case and not reserved, else in double quotes. */
export function quoted(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function quotedList(names: readonly string[]): string {
  return names.map(quoted).join(", ");
}

/** `text` as `-- ` comment lines wrapped at about 78 characters; blank lines stay (as `--`). */
export function comment(text: string, indent = ""): string {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    if (paragraph.trim() === "") {
      lines.push(`${indent}--`);
      continue;
    }
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line && line.length + word.length + 1 > 76 - indent.length) {
        lines.push(`${indent}-- ${line}`);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(`${indent}-- ${line}`);
  }
  return lines.join("\n");
}

/** The comment a migration starts with: what it is, what it holds, where it comes from and how to apply it. */
export function header(title: string, step: NamedStep, body: readonly string[], apply: string): string {
  const number = step.migration.slice(0, 4);
  return comment(
    [
      `${title}, migration ${number}: ${step.summary}.`,
      "",
      ...body.flatMap((paragraph) => [paragraph, ""]),
      apply,
      "",
      "Generated from runtime/src/schema/auth-schema.ts (the schema, written once) by the runtime's build: edit that file, never this one.",
    ].join("\n"),
  );
}

/** What the step adds to existing tables, one paragraph per column, for the header. */
export function addedColumnNotes(added: readonly { table: Table; column: Column }[], tableName: (table: Table) => string = (table) => table.name): string[] {
  return added.filter(({ column }) => column.doc).map(({ table, column }) => `${tableName(table)}.${quoted(column.name)}: ${asClause(column.doc!)}`);
}

/** A sentence as the clause after a name and a colon: `How often ...` -> `how often ...` (an acronym stays). */
export function asClause(sentence: string): string {
  return /^[A-Z][a-z]/.test(sentence) ? sentence[0]!.toLowerCase() + sentence.slice(1) : sentence;
}

/** A migration as rendered: its SQL text, and each statement on its own (for tools that run one at a time, as Kysely's migrations do). */
export interface RenderedMigration extends Migration {
  /** One SQL statement each, its comment lines first. */
  readonly statements: readonly string[];
}

/**
 * A migration after its header: each entry a statement, or a group of
 * statements written on consecutive lines; entries are separated by blank lines.
 */
export function migration(step: NamedStep, head: string, entries: readonly (string | readonly string[])[]): RenderedMigration {
  const text = entries.map((entry) => (typeof entry === "string" ? entry : entry.join("\n")));
  return { name: step.migration, sql: `${head}\n\n${text.join("\n\n")}\n`, statements: entries.flat() };
}

/** The migrations as `migrate()` takes them (name and SQL), frozen: what an adapter bundles. */
export function asMigrations(rendered: readonly RenderedMigration[]): readonly Migration[] {
  return Object.freeze(rendered.map(({ name, sql }) => Object.freeze({ name, sql })));
}

/** The migration name of each step of `dialect`. */
export function migrationNames(schema: Schema, dialect: Dialect): Map<StepId, string> {
  return new Map(stepsOf(schema, dialect).map((step) => [step.id, step.migration]));
}

/**
 * The tables a fully migrated PostgreSQL or SQLite database has (the model's
 * names), each column and index with the migration that makes it.
 */
export function modelShape(schema: Schema, dialect: "postgres" | "sqlite"): ExpectedTable[] {
  const names = migrationNames(schema, dialect);
  return schema.tables
    .filter((table) => names.has(table.since))
    .map((table) => ({
      name: table.name,
      migration: names.get(table.since)!,
      columns: table.columns.map((column) => ({ name: column.name, migration: names.get(column.since ?? table.since)! })),
      indexes: table.indexes.map((index) => ({ name: index.name, migration: names.get(table.since)! })),
    }));
}
