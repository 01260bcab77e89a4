/**
 * `fromPrisma`: an app's Prisma Client on SQLite as a `SqliteClient`, so the
 * adapter runs on the client the app already has, with the auth tables as
 * models of the app's schema (`@gatehouse/runtime/orm/prisma/sqlite.prisma`)
 * that `prisma migrate dev` creates.
 *
 * Nothing here imports `@prisma/client` (see `../sql/prisma.ts`).
 */
import { prismaQuery, PRISMA_TRANSACTION_OPTIONS, type PrismaClientLike, type PrismaRawQueryable } from "../sql/prisma.js";
import type { SqliteClient } from "./client.js";
import { enableForeignKeys, preparedFirst, savepointScope } from "./scope.js";

export type { PrismaClientLike, PrismaRawQueryable, PrismaTransactionOptions } from "../sql/prisma.js";

/**
 * Wraps a `PrismaClient` whose datasource is SQLite, making sure its foreign
 * keys are on before the first statement (SQLite has them off on a new
 * connection unless the driver turns them on, and then deleting a user would
 * keep its sessions). Each statement
 * goes through `$queryRawUnsafe` with its `?` parameters; a transaction is an
 * interactive `$transaction`, and a nested one a savepoint (as are the
 * adapter's transactions on the client of an interactive transaction of the
 * app's, which may be wrapped too).
 *
 * Prisma begins its transactions DEFERRED, where the adapter's other SQLite
 * clients take the write lock up front (BEGIN IMMEDIATE): with another process
 * writing the same file, a transaction may then fail with SQLITE_BUSY instead
 * of waiting.
 *
 * Prisma prepares every query, so `exec` runs one statement and `migrate()`
 * does not run through it: the auth tables are models of the app's schema,
 * created by `prisma migrate dev`; `requireSchema(fromPrisma(prisma),
 * { ledger: false })` checks them.
 *
 * @example
 * ```ts
 * import { PrismaClient } from "@prisma/client";
 * import { fromPrisma } from "@gatehouse/runtime/adapters/sqlite/prisma";
 * import { SqliteAdapter, requireSchema } from "@gatehouse/runtime/adapters/sqlite";
 *
 * const prisma = new PrismaClient();
 * await requireSchema(fromPrisma(prisma), { ledger: false, fix: "npx prisma migrate dev" });
 * const adapter = SqliteAdapter(fromPrisma(prisma));
 * ```
 */
export function fromPrisma(prisma: PrismaClientLike): SqliteClient {
  const inScope = (scope: PrismaRawQueryable) => savepointScope((sql, params) => prismaQuery(scope, sql, params, "SQLite"));
  const prepare = () =>
    enableForeignKeys((sql, params) => prismaQuery(prisma, sql, params, "SQLite"), "fromPrisma", "Wrap the PrismaClient, or turn the foreign keys on before the app's transaction begins.");
  // The client of the app's own interactive transaction: ours are savepoints of it.
  if (typeof prisma.$transaction !== "function") return preparedFirst(prepare, inScope(prisma));
  return preparedFirst(prepare, {
    ...inScope(prisma),
    transaction: (fn) => prisma.$transaction!((tx) => fn(inScope(tx)), PRISMA_TRANSACTION_OPTIONS),
  });
}
