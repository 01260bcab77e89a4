/**
 * The auth schema as a Drizzle schema module (PostgreSQL or SQLite), for an app
 * whose tables Drizzle manages: the same tables, columns, types, defaults, keys,
 * indexes and foreign keys (with the same names) as our migrations make, so
 * `drizzle-kit generate` writes the migration our adapter expects, and the
 * app's own queries can join its tables to ours. Text out: auth-init writes it
 * into the app, beside the app's own schema.
 */
import type { Column, Schema, Table } from "../model.js";
import { SQLITE_NOW, SQLITE_UUID } from "./sqlite.js";
import { jsDoc } from "./ts-doc.js";

type SqlDialect = "postgres" | "sqlite";

/** A table's name in TypeScript: `verification_token` -> `verificationToken`. */
export function tableIdentifier(table: Table): string {
  return table.name.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase());
}

/** A column's key in the table object: its name, quoted when it is not an identifier. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** The column builder call: `text("email")`, `timestamp("expires", { withTimezone: true, mode: "date" })`. */
function builder(column: Column, dialect: SqlDialect): { call: string; imports: string[] } {
  const name = JSON.stringify(column.name);
  if (dialect === "postgres") {
    switch (column.type) {
      case "id":
      case "text":
        return { call: `text(${name})`, imports: ["text"] };
      case "serial":
        return { call: `serial(${name})`, imports: ["serial"] };
      case "integer":
        return { call: `integer(${name})`, imports: ["integer"] };
      case "bigint":
        return { call: `bigint(${name}, { mode: "number" })`, imports: ["bigint"] };
      case "boolean":
        return { call: `boolean(${name})`, imports: ["boolean"] };
      case "timestamp":
        return { call: `timestamp(${name}, { withTimezone: true, mode: "date" })`, imports: ["timestamp"] };
    }
  }
  switch (column.type) {
    case "id":
    case "text":
      return { call: `text(${name})`, imports: ["text"] };
    case "serial":
    case "integer":
    case "bigint":
      return { call: `integer(${name})`, imports: ["integer"] };
    case "boolean":
      return { call: `integer(${name}, { mode: "boolean" })`, imports: ["integer"] };
    case "timestamp":
      return { call: `integer(${name}, { mode: "timestamp_ms" })`, imports: ["integer"] };
  }
}

function defaultCall(column: Column, dialect: SqlDialect): string {
  const value = column.default;
  if (!value) return "";
  // As the SQLite migrations have it: a time-of-insert column added later has no default there (the adapter writes it).
  if (dialect === "sqlite" && value.kind === "now" && column.since) return "";
  if (value.kind === "number") return `.default(${value.value})`;
  if (value.kind === "uuid") return dialect === "postgres" ? ".default(sql`gen_random_uuid()::text`)" : `.default(sql\`${SQLITE_UUID}\`)`;
  return dialect === "postgres" ? ".defaultNow()" : `.default(sql\`${SQLITE_NOW}\`)`;
}

/** The Drizzle schema module of every table, in the order the migrations create them. */
export function drizzleSchema(schema: Schema, dialect: SqlDialect): string {
  const core = dialect === "postgres" ? "pg-core" : "sqlite-core";
  const tableFn = dialect === "postgres" ? "pgTable" : "sqliteTable";
  const imports = new Set<string>([tableFn]);
  let usesSql = false;
  const users = schema.tables.find((table) => table.name === "users")!;
  const blocks = schema.tables.map((table) => {
    const columns = table.columns.map((column) => {
      const { call, imports: needed } = builder(column, dialect);
      for (const name of needed) imports.add(name);
      const chain = [call, column.required && !column.primaryKey ? ".notNull()" : "", column.primaryKey ? ".primaryKey()" : "", defaultCall(column, dialect)].join("");
      if (chain.includes("sql`")) usesSql = true;
      const doc = column.doc ? `${jsDoc(column.doc, "    ")}\n` : "";
      return `${doc}    ${key(column.name)}: ${chain},`;
    });
    const extras: string[] = [];
    if (table.primaryKey) {
      imports.add("primaryKey");
      extras.push(`primaryKey({ name: ${JSON.stringify(`${table.name}_pkey`)}, columns: [${table.primaryKey.map((name) => `table.${name}`).join(", ")}] })`);
    }
    for (const index of table.indexes) {
      imports.add(index.unique ? "uniqueIndex" : "index");
      extras.push(`${index.unique ? "uniqueIndex" : "index"}(${JSON.stringify(index.name)}).on(${index.columns.map((name) => `table.${name}`).join(", ")})`);
    }
    if (dialect === "sqlite") {
      for (const column of table.columns.filter((each) => each.type === "boolean")) {
        imports.add("check");
        usesSql = true;
        extras.push(`check(${JSON.stringify(`${table.name}_${column.name}_check`)}, sql\`\${table.${column.name}} IN (0, 1)\`)`);
      }
    }
    for (const column of table.columns.filter((each) => each.referencesUser)) {
      imports.add("foreignKey");
      const self = table === users ? "table" : tableIdentifier(users);
      extras.push(
        `foreignKey({ name: ${JSON.stringify(`${table.name}_${column.name}_fkey`)}, columns: [table.${column.name}], foreignColumns: [${self}.id] }).onDelete("cascade")`,
      );
    }
    const tail = extras.length > 0 ? `,\n  (table) => [\n${extras.map((extra) => `    ${extra},`).join("\n")}\n  ]` : "";
    return `${jsDoc(table.doc, "")}\nexport const ${tableIdentifier(table)} = ${tableFn}(\n  ${JSON.stringify(table.name)},\n  {\n${columns.join("\n")}\n  }${tail},\n);`;
  });
  const header = [
    "// The auth tables of @gatehouse/runtime as a Drizzle schema: the same tables, columns, keys and",
    "// indexes its migrations make, so the adapter runs on what `drizzle-kit generate` creates from this.",
    "// Generated by @gatehouse/runtime's build from its schema definition: take the copy of the installed",
    "// version again when you upgrade @gatehouse/runtime rather than editing it.",
    ...(usesSql ? ['import { sql } from "drizzle-orm";'] : []),
    `import { ${[...imports].sort().join(", ")} } from "drizzle-orm/${core}";`,
  ];
  return `${header.join("\n")}\n\n${blocks.join("\n\n")}\n`;
}
