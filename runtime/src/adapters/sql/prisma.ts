/**
 * What the `fromPrisma` wrappers (PostgreSQL and SQLite) share: the part of a
 * Prisma Client they call, and running one SQL text through it.
 *
 * Nothing here imports `@prisma/client`: a `PrismaClient` (and the client an
 * interactive transaction hands its callback) fits the shapes below, from
 * Prisma 5 to 7, with the Rust engine or the query compiler on a driver adapter.
 */

/** A Prisma Client, or the client of an interactive transaction: anything that runs raw SQL. */
export interface PrismaRawQueryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** The options of an interactive `$transaction`, as Prisma names them (milliseconds). */
export interface PrismaTransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/** The part of a `PrismaClient` the wrappers use. */
export interface PrismaClientLike extends PrismaRawQueryable {
  /** Absent on the client an interactive transaction hands its callback: the adapter's transactions are then savepoints of that transaction. */
  $transaction?<R>(fn: (tx: PrismaRawQueryable) => Promise<R>, options?: PrismaTransactionOptions): Promise<R>;
}

/**
 * Prisma's defaults (2 s to get a connection, 5 s to finish) fail a sign-in
 * while the app's own queries hold the pool for a moment; ours are a few short
 * statements, so these only bound a stuck connection.
 */
export const PRISMA_TRANSACTION_OPTIONS: Readonly<PrismaTransactionOptions> = Object.freeze({ maxWait: 10_000, timeout: 30_000 });

/** Runs one statement through Prisma; its rows as Prisma's driver decodes them. */
export async function prismaQuery<Row>(prisma: PrismaRawQueryable, sql: string, parameters: readonly unknown[], dialect: string): Promise<Row[]> {
  try {
    return (await prisma.$queryRawUnsafe<Row[]>(sql, ...parameters)) ?? [];
  } catch (error) {
    throw severalStatements(sql) ? severalStatementsError(dialect, error) : databaseError(error);
  }
}

/**
 * What the database said, with its SQLSTATE as `code` as the other drivers
 * give it, in place of Prisma's `P2010` whose message may quote the client's
 * own minified source around the call (the original stays as `cause`).
 */
function databaseError(error: unknown): unknown {
  const { code, message } = saidByDatabase(error) ?? {};
  if (!message) return error;
  return Object.assign(new Error(`Raw query failed: ${message}`, { cause: error }), code ? { code } : {});
}

function saidByDatabase(error: unknown): { code?: string; message?: string } | undefined {
  const meta = (error as { meta?: Record<string, unknown> } | null)?.meta;
  // On a driver adapter: the driver's error, as the adapter classified it.
  const cause = (meta?.driverAdapterError as { cause?: { originalCode?: unknown; originalMessage?: unknown; kind?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.originalMessage === "string") return { code: typeof cause.originalCode === "string" ? cause.originalCode : undefined, message: cause.originalMessage };
  // On the Rust engine (and where the adapter gave no original): "Raw query failed. Code: `42P01`. Message: `...`".
  const said = /Raw query failed\. Code: `([^`]*)`\. Message: `([\s\S]*)`\s*$/.exec(error instanceof Error ? error.message : "");
  if (said) return { code: said[1] === "N/A" ? undefined : said[1], message: said[2] };
  return undefined;
}

/** A statement followed by another: Prisma prepares every query, and a prepared statement is one statement. */
function severalStatements(sql: string): boolean {
  return /;\s*\S/.test(sql.trim());
}

function severalStatementsError(dialect: string, cause: unknown): Error {
  return new Error(
    `fromPrisma: Prisma runs one statement per query, and this text holds several (a migration?). ` +
      `With Prisma the auth tables are models of the app's schema (node_modules/@gatehouse/runtime/orm/prisma/), ` +
      `created by \`prisma migrate dev\`, and checked with requireSchema(fromPrisma(prisma), { ledger: false }). ` +
      `(${dialect}) The database said: ${String((databaseError(cause) as Error).message ?? cause)}`,
    { cause },
  );
}
