/**
 * `fromPrisma`: an app's Prisma Client on PostgreSQL as a `SqlClient`, so the
 * adapter runs on the client the app already has (its connection pool, its
 * driver adapter, its logging), with the auth tables as models of the app's
 * schema (`@gatehouse/runtime/orm/prisma/postgres.prisma`) that
 * `prisma migrate dev` creates.
 *
 * Nothing here imports `@prisma/client`: the shapes below are what this module
 * calls, and a `PrismaClient` (extended or not) fits them.
 */
import { prismaQuery, PRISMA_TRANSACTION_OPTIONS, type PrismaClientLike, type PrismaRawQueryable } from "../sql/prisma.js";
import { inTransaction, type SqlClient, type SqlResult } from "./client.js";

export type { PrismaClientLike, PrismaRawQueryable, PrismaTransactionOptions } from "../sql/prisma.js";

/**
 * Wraps a `PrismaClient` whose datasource is PostgreSQL. Each query goes
 * through `$queryRawUnsafe` with its `$n` parameters, as it is written; a
 * transaction is an interactive `$transaction` (up to 10 s to get a connection,
 * 30 s to finish), and a nested one a savepoint. The client an interactive
 * transaction of the app's hands its callback may be wrapped too: the
 * adapter's transactions are then savepoints of it.
 *
 * Prisma prepares every query, so a text of several statements is refused:
 * `migrate()` does not run through it. The auth tables are models of the app's
 * schema, created by `prisma migrate dev`; `requireSchema(fromPrisma(prisma),
 * { ledger: false })` checks them.
 *
 * @example
 * ```ts
 * import { PrismaClient } from "@prisma/client";
 * import { fromPrisma } from "@gatehouse/runtime/adapters/postgres/prisma";
 * import { PostgresAdapter, requireSchema } from "@gatehouse/runtime/adapters/postgres";
 *
 * const prisma = new PrismaClient();
 * await requireSchema(fromPrisma(prisma), { ledger: false, fix: "npx prisma migrate dev" });
 * const adapter = PostgresAdapter(fromPrisma(prisma));
 * ```
 */
export function fromPrisma(prisma: PrismaClientLike): SqlClient {
  const query = <Row>(text: string, params?: unknown[]) => run<Row>(prisma, text, params);
  // The client of the app's own interactive transaction: ours are savepoints of it.
  if (typeof prisma.$transaction !== "function") return inTransaction(query);
  return {
    query,
    transaction: (fn) => prisma.$transaction!((tx) => fn(inTransaction((text, params) => run(tx, text, params))), PRISMA_TRANSACTION_OPTIONS),
  };
}

async function run<Row>(prisma: PrismaRawQueryable, text: string, params: unknown[] | undefined): Promise<SqlResult<Row>> {
  return { rows: await prismaQuery<Row>(prisma, text, params ?? [], "PostgreSQL") };
}
