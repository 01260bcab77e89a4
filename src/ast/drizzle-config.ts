/**
 * Reading what gatehouse needs of an app's Drizzle setup from its source:
 * `drizzle.config.ts` (the dialect, where the schema is, where migrations go),
 * the schema modules (the tables they already define, and whether they
 * re-export ours), and the module that opens the database (which driver, and
 * that it exports `db`). Only literals are read: a value computed at run time is
 * reported as unknown rather than guessed.
 */
import { SyntaxKind } from "ts-morph";
import { property, readDefaultConfig, stringList, stringValue } from "./default-config.js";
import { doesNotParse, importQuote, parseOrSyntaxError, unwrap, type EditResult, type SourceText, type SyntaxErrorAt } from "./source.js";

export interface DrizzleConfigFacts {
  /** `dialect`, when it is a string literal. */
  dialect?: string;
  /** `driver` (turso, d1-http, ...), when set. */
  driver?: string;
  /** `schema`: the paths or globs as written; `undefined` when it is not a literal. */
  schema?: string[];
  /** `out`: the migrations folder, when set. */
  out?: string;
}

export type DrizzleConfigRead = { ok: true; facts: DrizzleConfigFacts } | { ok: false; reason: string; syntaxError?: SyntaxErrorAt };

/** The config object of `export default defineConfig({...})` or `export default {...}` (also through a variable). */
export function readDrizzleConfig(entry: SourceText): DrizzleConfigRead {
  const read = readDefaultConfig(entry);
  if (!read.ok) return read;
  const { config } = read;
  const schema = property(config, "schema");
  return {
    ok: true,
    facts: {
      dialect: stringValue(property(config, "dialect")),
      driver: stringValue(property(config, "driver")),
      schema: schema === undefined ? undefined : stringList(schema),
      out: stringValue(property(config, "out")),
    },
  };
}

/** The table names a schema module defines (`pgTable("users", ...)`, `sqliteTable('users', ...)`, a `pgSchema(...).table(...)`). */
export function definedTables(entry: SourceText): string[] {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return [];
  const names: string[] = [];
  for (const call of parsed.file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression().getText();
    if (!/(?:^|\.)(?:pgTable|sqliteTable|mysqlTable|table)$/.test(callee)) continue;
    const name = stringValue(unwrap(call.getArguments()[0]));
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** The names a schema module exports (its `export const` declarations and `export { ... }`), to keep ours from colliding with them. */
export function exportedNames(entry: SourceText): string[] {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return [];
  return [...parsed.file.getExportedDeclarations().keys()];
}

/** `export * from './auth-schema'` is there already (with or without an extension). */
export function reExports(entry: SourceText, specifier: string): boolean {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return false;
  const bare = (value: string) => value.replace(/\.(?:[cm]?[jt]s)$/, "");
  return parsed.file.getExportDeclarations().some((e) => e.isNamespaceExport() && bare(e.getModuleSpecifierValue() ?? "") === bare(specifier));
}

/** What the database module says: the Drizzle driver it imports (`drizzle-orm/postgres-js` -> `postgres-js`), and whether it exports `db`. */
export interface DrizzleModuleFacts {
  driver?: string;
  exportsDb: boolean;
}

export function readDrizzleModule(entry: SourceText): DrizzleModuleFacts | undefined {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return undefined;
  const driver = parsed.file
    .getImportDeclarations()
    .map((i) => /^drizzle-orm\/([\w-]+(?:\/[\w-]+)?)$/.exec(i.getModuleSpecifierValue())?.[1])
    .find((name) => name !== undefined && !/-core$/.test(name) && name !== "sql");
  if (driver === undefined) return undefined;
  return { driver, exportsDb: parsed.file.getExportedDeclarations().has("db") };
}

/** The schema module with `export * from '<specifier>'` at its end (in its quotes), unless it has it already. */
export function addReExport(entry: SourceText, specifier: string): EditResult {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  if (reExports(entry, specifier)) return { ok: true, text: entry.text };
  const quote = importQuote(entry.text);
  const semicolon = /;\s*$/m.test(entry.text) || entry.text.trim() === "" ? ";" : "";
  const text = entry.text.replace(/\s*$/, "");
  return { ok: true, text: `${text}${text ? "\n\n" : ""}export * from ${quote}${specifier}${quote}${semicolon}\n` };
}
