/**
 * What `checkSchema()` and `migrate()` of every dialect do the same way with a
 * database's ledger and catalog: compute the drift, and turn the drift that
 * must stop an app into an error that says what to do.
 */
import type { Catalog } from "./catalog.js";
import { describeMissing, schemaDrift, type ExpectedTable, type SchemaReport } from "./drift.js";

export type { Missing, SchemaReport } from "./drift.js";

/** Options of `checkSchema()`. */
export interface CheckSchemaOptions {
  /** The whole list the database is migrated with (the adapter's migrations and the app's own after them). Default: the adapter's. */
  migrations?: readonly { name: string }[];
  /**
   * `false`: the tables are managed by another tool (an ORM's migrations, e.g.
   * drizzle-kit from the schema in `@gatehouse/runtime/orm/`), which keeps no
   * ledger of ours. Every table, column and index is then expected, and
   * `pending` and `unknown` are empty. Default `true`: the ledger says which
   * migrations ran.
   */
  ledger?: boolean;
}

/** Reads what a dialect's database holds: its ledger's names ([] without a ledger) and the catalog of the expected tables. */
export interface SchemaReader {
  ledger(): Promise<string[]>;
  catalog(tables: readonly string[]): Promise<Catalog>;
}

export async function readSchemaReport(
  reader: SchemaReader,
  expected: readonly ExpectedTable[],
  list: readonly { name: string }[],
  { ledger: hasLedger = true }: Pick<CheckSchemaOptions, "ledger"> = {},
): Promise<SchemaReport> {
  // Without a ledger, the tables stand for every migration of the list.
  const ledger = hasLedger ? await reader.ledger() : list.map((migration) => migration.name);
  const catalog = await reader.catalog(expected.map((table) => table.name));
  return schemaDrift(
    expected,
    catalog,
    ledger,
    list.map((migration) => migration.name),
  );
}

/** Thrown by `migrate()` when the database is not one this runtime can run on; the message says why and what to do. */
export class SchemaMismatchError extends Error {
  constructor(
    message: string,
    readonly report: SchemaReport,
  ) {
    super(message);
    this.name = "SchemaMismatchError";
  }
}

/** Options of `requireSchema()`: `checkSchema()`'s, and what to tell the user to run. */
export interface RequireSchemaOptions extends CheckSchemaOptions {
  /**
   * The command that creates the missing pieces, for the message: with
   * `ledger: false`, the ORM's own (e.g. "npm run db:push"). Default: with a
   * ledger, `migrate()`; without, the ORM schema files of `@gatehouse/runtime/orm/`.
   */
  fix?: string;
}

/**
 * For apps whose tables another tool creates: the report of `checkSchema()`,
 * or a `SchemaMismatchError` when the database lacks what this runtime needs
 * (or, with a ledger, has pending or unknown migrations), said with the command
 * that fixes it. Call it before the adapter's first query, so an app stops at
 * its first use of the database rather than at the first sign-up.
 */
export function refuseIncomplete(report: SchemaReport, { ledger = true, fix }: RequireSchemaOptions): SchemaReport {
  const problems = [
    ...(report.missing.length > 0 ? [`lacks ${describeMissing(report.missing).join(", ")}`] : []),
    ...(report.pending.length > 0 ? [`has not run ${report.pending.join(", ")}`] : []),
    ...(report.unknown.length > 0 ? [`records migrations this @gatehouse/runtime does not know: ${report.unknown.join(", ")} (a newer runtime applied them: install it)`] : []),
  ];
  if (problems.length === 0) return report;
  const run = fix ?? (ledger ? "migrate() of @gatehouse/runtime, or `npx @gatehouse/cli migrate`" : "your ORM's migration from the schema in @gatehouse/runtime/orm/");
  throw new SchemaMismatchError(`the auth database ${problems.join("; ")}: the tables of this @gatehouse/runtime are not all there. Run ${run}; \`npx @gatehouse/cli doctor\` lists what differs.`, report);
}

/**
 * After `migrate()` applied what was pending: a ledger naming migrations this
 * list lacks (unless the caller allows it) or a schema missing what its ledger
 * says was applied stops the app here, at its first use of the database,
 * rather than at the first sign-up that needs the missing piece.
 */
export function refuseMismatch(report: SchemaReport, { allowNewerSchema = false, where = "the database", sqlDir }: { allowNewerSchema?: boolean; where?: string; sqlDir: string }): void {
  if (report.unknown.length > 0 && !allowNewerSchema) {
    throw new SchemaMismatchError(
      `migrate: ${where} records migrations this list does not have: ${report.unknown.join(", ")}. Either a newer @gatehouse/runtime applied them (install that version in this app), or they are migrations of your own missing from the list given to migrate() (pass your whole schema: [...migrations, ...yours]). To run on it anyway, e.g. while a rolling deploy still runs the older version, pass { allowNewerSchema: true }.`,
      report,
    );
  }
  if (report.missing.length > 0) {
    throw new SchemaMismatchError(
      `migrate: ${where} lacks ${describeMissing(report.missing).join(", ")}, although its ledger records those migrations as applied: something changed it afterwards (a hand edit, another tool, a restored backup). Restore them from the migrations' SQL (${sqlDir}); \`npx @gatehouse/cli doctor\` lists what differs.`,
      report,
    );
  }
}
