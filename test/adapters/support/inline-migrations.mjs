#!/usr/bin/env node
/**
 * Writes runtime/src/adapters/postgres/migrations.ts from the SQL files in
 * runtime/migrations/postgres/, so the adapter has its schema without reading
 * files at run time (no `node:fs` on edge runtimes). Run it after editing a
 * .sql file: `node test/adapters/support/inline-migrations.mjs`. The postgres
 * tests fail while the two differ.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
export const sqlDir = `${root}runtime/migrations/postgres/`;
export const modulePath = `${root}runtime/src/adapters/postgres/migrations.ts`;

/** The migrations on disk, in the order they apply (file names sort by their number). */
export function readSqlFiles() {
  return readdirSync(sqlDir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".sql".length), sql: readFileSync(sqlDir + file, "utf8") }));
}

/** The TypeScript module holding those migrations. */
export function renderModule(files) {
  const entries = files.map(({ name, sql }) => `  {\n    name: ${JSON.stringify(name)},\n    sql: \`${escapeTemplate(sql)}\`,\n  },\n`);
  return [
    "// Generated from runtime/migrations/postgres/*.sql by test/adapters/support/inline-migrations.mjs.",
    "// Do not edit: edit the .sql file and run that script (a test fails while they differ).",
    'import type { Migration } from "./migrate.js";',
    "",
    "/** The schema's migrations, in order: the same SQL as `migrations/postgres/*.sql` in this package. */",
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
  writeFileSync(modulePath, renderModule(readSqlFiles()));
  console.log(`wrote ${modulePath}`);
}
