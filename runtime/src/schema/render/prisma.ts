/**
 * The auth schema as Prisma models (PostgreSQL or SQLite), for an app whose
 * tables Prisma Migrate manages: the same tables, columns, types, defaults,
 * keys, indexes and foreign keys (with the same names) as our migrations make,
 * so `prisma migrate dev` writes the migration our adapter expects. Models only:
 * the app's schema has its own datasource and generator, and a schema folder
 * (prisma/schema/*.prisma) takes the file as it is. Text out.
 *
 * Field names are the column names (the Auth.js Prisma schema's), so no @map
 * is needed; model names are Auth.js's (`User`, `Account`, ...), each @@map-ped
 * to its table. Prisma spells a few things its own way, and the models say ours:
 * a default the database computes is `dbgenerated(...)` with our expression
 * (Prisma's `now()` would be CURRENT_TIMESTAMP), a foreign key updates with NO
 * ACTION as ours do (Prisma's default is CASCADE), and on SQLite every number,
 * boolean and time is `Int`, since Prisma's BigInt, Boolean and DateTime make
 * BIGINT, BOOLEAN and DATETIME columns where our tables have INTEGER ones.
 */
import type { Column, Schema, Table } from "../model.js";
import { tableIdentifier } from "./drizzle.js";
import { SQLITE_NOW, SQLITE_UUID } from "./sqlite.js";
import { wrapWords } from "./ts-doc.js";

type SqlDialect = "postgres" | "sqlite";

/** `users` -> `User`, `verification_token` -> `VerificationToken`, `user_passwords` -> `UserPassword`. */
export function modelName(table: Table): string {
  const name = tableIdentifier(table).replace(/s$/, "");
  return `${name[0]!.toUpperCase()}${name.slice(1)}`;
}

/** The Prisma type of a column and the native type it needs (PostgreSQL's timestamptz). */
function fieldType(column: Column, dialect: SqlDialect): { type: string; native?: string } {
  if (column.type === "id" || column.type === "text") return { type: "String" };
  if (dialect === "sqlite") return { type: "Int" };
  switch (column.type) {
    case "serial":
    case "integer":
      return { type: "Int" };
    case "bigint":
      return { type: "BigInt" };
    case "boolean":
      return { type: "Boolean" };
    case "timestamp":
      return { type: "DateTime", native: "@db.Timestamptz" };
  }
}

/** A Prisma string literal; JSON's escapes are the schema language's. */
const literal = (text: string): string => JSON.stringify(text);

function defaultAttribute(column: Column, dialect: SqlDialect): string | undefined {
  if (column.type === "serial") return "@default(autoincrement())";
  const value = column.default;
  if (!value) return undefined;
  if (value.kind === "number") return `@default(${value.value})`;
  // As the SQLite migrations have it: a time-of-insert column added later has no default there (the adapter writes it).
  if (dialect === "sqlite" && value.kind === "now" && column.since) return undefined;
  // Prisma writes the expression as it is: SQLite's keep the parentheses SQLite asks for around them.
  if (value.kind === "uuid") return `@default(dbgenerated(${literal(dialect === "postgres" ? "gen_random_uuid()::text" : SQLITE_UUID)}))`;
  return `@default(dbgenerated(${literal(dialect === "postgres" ? "now()" : SQLITE_NOW)}))`;
}

/** `///` doc lines, wrapped at about 100 columns. */
function docLines(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  return wrapWords(text, 100 - indent.length - 4).map((line) => `${indent}/// ${line}`);
}

interface Field {
  doc: string[];
  name: string;
  type: string;
  attributes: string[];
}

/** Fields aligned in columns, as `prisma format` writes them. */
function alignedFields(fields: readonly Field[]): string[] {
  const nameWidth = Math.max(...fields.map((field) => field.name.length));
  const typeWidth = Math.max(...fields.map((field) => field.type.length));
  return fields.flatMap((field) => {
    const attributes = field.attributes.join(" ");
    const line = attributes ? `  ${field.name.padEnd(nameWidth)} ${field.type.padEnd(typeWidth)} ${attributes}` : `  ${field.name.padEnd(nameWidth)} ${field.type}`;
    return [...field.doc, line.trimEnd()];
  });
}

/** The column's doc; on SQLite, where an `Int` stands for them, also what a time and a boolean are stored as. */
function fieldDoc(column: Column, dialect: SqlDialect): string | undefined {
  const stored = dialect !== "sqlite" ? undefined : column.type === "timestamp" ? "Milliseconds since the epoch." : column.type === "boolean" ? "0 or 1." : undefined;
  return [column.doc, stored].filter((each) => each !== undefined).join(" ") || undefined;
}

function scalarField(column: Column, dialect: SqlDialect): Field {
  const { type, native } = fieldType(column, dialect);
  const optional = !column.required && !column.primaryKey;
  const attributes = [column.primaryKey ? "@id" : undefined, defaultAttribute(column, dialect), native].filter((each): each is string => each !== undefined);
  return { doc: docLines(fieldDoc(column, dialect), "  "), name: column.name, type: optional ? `${type}?` : type, attributes };
}

function model(schema: Schema, table: Table, dialect: SqlDialect): string {
  const users = schema.tables.find((each) => each.name === "users")!;
  const fields = table.columns.map((column) => scalarField(column, dialect));
  for (const column of table.columns.filter((each) => each.referencesUser)) {
    // SQLite's foreign keys have no names (Prisma refuses one there); PostgreSQL's are ours.
    const name = dialect === "postgres" ? `, map: ${literal(`${table.name}_${column.name}_fkey`)}` : "";
    const relation = `@relation(fields: [${column.name}], references: [id], onDelete: Cascade, onUpdate: NoAction${name})`;
    fields.push({ doc: [], name: "user", type: modelName(users), attributes: [relation] });
  }
  if (table === users) {
    // Prisma asks for the other side of each relation; these fields make no column.
    for (const other of schema.tables) {
      for (const column of other.columns.filter((each) => each.referencesUser)) {
        // A link that is the row's primary key makes one row per user (user_passwords): a one-to-one relation.
        const single = column.primaryKey === true;
        const name = tableIdentifier(other);
        fields.push({ doc: [], name: single ? name.replace(/s$/, "") : name, type: single ? `${modelName(other)}?` : `${modelName(other)}[]`, attributes: [] });
      }
    }
  }
  const blockAttributes = [
    ...(table.primaryKey ? [`@@id([${table.primaryKey.join(", ")}])`] : []),
    ...table.indexes.map((index) => `@@${index.unique ? "unique" : "index"}([${index.columns.join(", ")}], map: ${literal(index.name)})`),
    `@@map(${literal(table.name)})`,
  ];
  return [...docLines(table.doc, ""), `model ${modelName(table)} {`, ...alignedFields(fields), "", ...blockAttributes.map((line) => `  ${line}`), "}"].join("\n");
}

/** The Prisma models of every table, in the order the migrations create them. */
export function prismaSchema(schema: Schema, dialect: SqlDialect): string {
  const provider = dialect === "postgres" ? "postgresql" : "sqlite";
  const header = [
    `// The auth tables of @gatehouse/runtime as Prisma models, for a datasource with provider = "${provider}":`,
    "// the same tables, columns, keys and indexes its migrations make, so the adapter runs on what",
    "// `prisma migrate dev` creates from them. Add them to your schema.prisma, or put this file in your",
    "// schema folder beside it. Models only: your schema keeps its own datasource and generator.",
    "// Generated by @gatehouse/runtime's build from its schema definition: take the copy of the installed",
    "// version again when you upgrade @gatehouse/runtime rather than editing it.",
  ];
  return `${header.join("\n")}\n\n${schema.tables.map((table) => model(schema, table, dialect)).join("\n\n")}\n`;
}
