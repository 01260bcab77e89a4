#!/usr/bin/env node
/**
 * Writes runtime/src/adapters/<dialect>/migrations.ts from the SQL files in
 * runtime/migrations/<dialect>/ (postgres, sqlite, hosted-store), so each adapter has its
 * schema without reading files at run time (no `node:fs` on edge runtimes).
 * Run it after editing a .sql file: `node test/adapters/support/inline-migrations.mjs`
 * (every dialect) or `... inline-migrations.mjs sqlite` (one). Each adapter's
 * tests fail while the two differ.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The dialects that have a `runtime/migrations/<dialect>/` folder and an adapter beside it. */
export const dialects = ["postgres", "sqlite", "hosted-store"];

/** Where a dialect's .sql files are, and the module generated from them. */
export const sqlDirOf = (dialect) => `${root}runtime/migrations/${dialect}/`;
export const modulePathOf = (dialect) => `${root}runtime/src/adapters/${dialect}/migrations.ts`;

// The postgres paths under their first names, as the postgres tests import them.
export const sqlDir = sqlDirOf("postgres");
export const modulePath = modulePathOf("postgres");

/** The migrations on disk, in the order they apply (file names sort by their number). */
export function readSqlFiles(dialect = "postgres") {
  const dir = sqlDirOf(dialect);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".sql".length), sql: readFileSync(dir + file, "utf8") }));
}

/** The TypeScript module holding those migrations. */
export function renderModule(files, dialect = "postgres") {
  const entries = files.map(({ name, sql }) => `  {\n    name: ${JSON.stringify(name)},\n    sql: \`${escapeTemplate(sql)}\`,\n  },\n`);
  return [
    `// Generated from runtime/migrations/${dialect}/*.sql by test/adapters/support/inline-migrations.mjs.`,
    "// Do not edit: edit the .sql file and run that script (a test fails while they differ).",
    'import type { Migration } from "./migrate.js";',
    "",
    `/** The schema's migrations, in order: the same SQL as \`migrations/${dialect}/*.sql\` in this package. */`,
    "export const migrations: readonly Migration[] = [",
    ...entries,
    "];",
    "",
  ].join("\n");
}

function escapeTemplate(text) {
  return text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const chosen = process.argv.length > 2 ? process.argv.slice(2) : dialects;
  for (const dialect of chosen) {
    if (!dialects.includes(dialect)) throw new Error(`unknown dialect "${dialect}": expected one of ${dialects.join(", ")}`);
    writeFileSync(modulePathOf(dialect), renderModule(readSqlFiles(dialect), dialect));
    console.log(`wrote ${modulePathOf(dialect)}`);
  }
}
