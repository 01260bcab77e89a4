/**
 * The auth schema as PostgreSQL migrations (PGlite's too). Every statement
 * checks before it changes something, so each migration is safe to run twice.
 * The tables of Auth.js's own schema are created without their foreign keys and
 * then brought to ours (`adoptAuthjsTables`): on an Auth.js database they exist
 * already, and are completed rather than replaced.
 */
import type { Column, Schema, Table } from "../model.js";
import { addedColumnNotes, columnsAddedIn, comment, header, migration, originalColumns, quoted, quotedList, stepsOf, tablesCreatedIn, type NamedStep, type RenderedMigration } from "./sql.js";

const TYPES: Record<Column["type"], string> = {
  id: "text",
  serial: "serial",
  text: "text",
  integer: "integer",
  bigint: "bigint",
  boolean: "boolean",
  timestamp: "timestamptz",
};

/** The users table every link points at. */
const USERS = "users";

export function postgresMigrations(schema: Schema): RenderedMigration[] {
  return stepsOf(schema, "postgres").map((step) => renderStep(schema, step));
}

function renderStep(schema: Schema, step: NamedStep): RenderedMigration {
  const created = tablesCreatedIn(schema, step.id);
  const fromAuthjs = created.filter((table) => table.fromAuthjs);
  const own = created.filter((table) => !table.fromAuthjs);
  const added = columnsAddedIn(schema, step.id);
  const statements = [
    ...fromAuthjs.map((table) => createTable(table, { inlineReferences: false })),
    ...(fromAuthjs.length > 0 ? adoptAuthjsTables(fromAuthjs) : []),
    ...own.flatMap((table) => [createTable(table, { inlineReferences: true }), indexes(table)].filter((entry) => entry.length > 0)),
    ...(added.length > 0 ? [added.flatMap(({ table, column }) => addColumn(table, column))] : []),
  ];
  const body = [
    ...addedColumnNotes(added),
    ...(fromAuthjs.length > 0
      ? [
          "The tables, names and columns of the Auth.js PostgreSQL schema (the one @auth/pg-adapter documents), so an Auth.js database is adopted and @auth/pg-adapter runs on this one, plus what the adapter contract needs: text ids, one user per email, one link per provider account, unique session tokens, foreign keys that cascade when a user is deleted. On an Auth.js database the existing tables and rows are kept and completed.",
        ]
      : []),
  ];
  const apply = "Every statement checks before it changes something, so this file is safe to run twice. Apply it with `migrate()` from @gatehouse/runtime/adapters/postgres, or with your own migration tool.";
  return migration(step, header("gatehouse PostgreSQL schema", step, body, apply), statements);
}

function createTable(table: Table, { inlineReferences }: { inlineReferences: boolean }): string {
  const lines = originalColumns(table).map((column) => `  ${columnDefinition(column, { inlineReferences })}`);
  if (table.primaryKey) lines.push(`  PRIMARY KEY (${quotedList(table.primaryKey)})`);
  return `${comment(table.doc)}\nCREATE TABLE IF NOT EXISTS ${quoted(table.name)} (\n${lines.join(",\n")}\n);`;
}

function columnDefinition(column: Column, { inlineReferences }: { inlineReferences: boolean }): string {
  const parts = [quoted(column.name), TYPES[column.type]];
  if (column.required && column.type !== "serial") parts.push("NOT NULL");
  if (column.default) parts.push(`DEFAULT ${defaultOf(column)}`);
  if (column.primaryKey) parts.push("PRIMARY KEY");
  if (column.referencesUser && inlineReferences) parts.push(`REFERENCES ${USERS} (id) ON DELETE CASCADE`);
  return parts.join(" ");
}

function defaultOf(column: Column): string {
  const value = column.default!;
  if (value.kind === "uuid") return "gen_random_uuid()::text";
  if (value.kind === "now") return "now()";
  return String(value.value);
}

function indexes(table: Table): string[] {
  return table.indexes
    .map((index) => {
      const create = `CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${quoted(index.name)} ON ${quoted(table.name)} (${quotedList(index.columns)});`;
      return index.doc ? `${comment(index.doc)}\n${create}` : create;
    });
}

/**
 * A column a later step adds. A default that is the time of the insert is set
 * after the column is added, so the rows already there keep NULL rather than
 * all claiming the moment of the migration.
 */
function addColumn(table: Table, column: Column): string[] {
  const add = `ALTER TABLE ${quoted(table.name)} ADD COLUMN IF NOT EXISTS`;
  if (column.default?.kind === "now") {
    return [
      `${add} ${quoted(column.name)} ${TYPES[column.type]}${column.required ? " NOT NULL" : ""};`,
      `ALTER TABLE ${quoted(table.name)} ALTER COLUMN ${quoted(column.name)} SET DEFAULT now();`,
    ];
  }
  return [`${add} ${columnDefinition(column, { inlineReferences: true })};`];
}

/**
 * Brings the Auth.js tables (just created, or there from an Auth.js database)
 * to this schema: the columns older Auth.js schemas lack, text ids where
 * Auth.js made integers, the unique and lookup indexes, and the foreign keys,
 * once the rows they would reject (those of users @auth/pg-adapter deleted
 * before their sessions and accounts) are gone.
 */
function adoptAuthjsTables(tables: readonly Table[]): (string | string[])[] {
  const missing = tables.flatMap((table) => table.columns.filter((column) => column.addedOnAdoption).map((column) => ({ table, column })));
  const links = tables.flatMap((table) => table.columns.filter((column) => column.referencesUser).map((column) => ({ table, column })));
  return [
    ...missing.map(({ table, column }) => `${comment(column.doc ?? "Older Auth.js schemas lack it.")}\nALTER TABLE ${quoted(table.name)} ADD COLUMN IF NOT EXISTS ${columnDefinition(column, { inlineReferences: false })};`),
    `${comment("Auth.js creates integer ids (serial). The contract's user ids are strings and new users get UUIDs, so an integer id is widened to text; existing ids keep their values (\"1\", \"2\", ...). Fails (and rolls back) if a table of yours has a foreign key to users(id): change that column to text first.")}\n${widenIds(tables)}`,
    ...tables.map(indexes).filter((group) => group.length > 0),
    `${comment("Auth.js's schema has no foreign keys, and @auth/pg-adapter deletes a user before its sessions and accounts, outside a transaction: rows of a deleted user can remain. They can never be used again (every lookup joins the user), so they go before the foreign key that would reject them is added.")}\n${addForeignKeys(links)}`,
  ];
}

function widenIds(tables: readonly Table[]): string {
  const blocks = tables.flatMap((table) =>
    table.columns
      .filter((column) => column.type === "id")
      .map((column) => {
        const isText = `IF (SELECT atttypid FROM pg_attribute WHERE attrelid = '${table.name}'::regclass AND attname = '${column.name}') <> 'text'::regtype THEN`;
        const name = quoted(column.name);
        const change = column.default
          ? [
              `    ALTER TABLE ${quoted(table.name)} ALTER COLUMN ${name} DROP IDENTITY IF EXISTS;`,
              `    ALTER TABLE ${quoted(table.name)}`,
              `      ALTER COLUMN ${name} DROP DEFAULT,`,
              `      ALTER COLUMN ${name} TYPE text USING ${name}::text,`,
              `      ALTER COLUMN ${name} SET DEFAULT ${defaultOf(column)};`,
            ]
          : [`    ALTER TABLE ${quoted(table.name)} ALTER COLUMN ${name} TYPE text USING ${name}::text;`];
        return [`  ${isText}`, ...change, "  END IF;"].join("\n");
      }),
  );
  return `DO $$\nBEGIN\n${blocks.join("\n")}\nEND\n$$;`;
}

function addForeignKeys(links: readonly { table: Table; column: Column }[]): string {
  const blocks = links.map(({ table, column }) => {
    const constraint = `${table.name}_${column.name}_fkey`;
    return [
      `  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '${table.name}'::regclass AND conname = '${constraint}') THEN`,
      `    DELETE FROM ${quoted(table.name)} t WHERE NOT EXISTS (SELECT 1 FROM ${USERS} u WHERE u.id = t.${quoted(column.name)});`,
      `    ALTER TABLE ${quoted(table.name)} ADD CONSTRAINT ${quoted(constraint)}`,
      `      FOREIGN KEY (${quoted(column.name)}) REFERENCES ${USERS} (id) ON DELETE CASCADE;`,
      "  END IF;",
    ].join("\n");
  });
  return `DO $$\nBEGIN\n${blocks.join("\n")}\nEND\n$$;`;
}
