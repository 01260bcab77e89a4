/**
 * What every SQL client wrapper's `transaction()` must do, whatever it wraps
 * (node-postgres, postgres.js, Kysely, Prisma, better-sqlite3): commit when
 * the callback resolves, roll back when it throws, and run a nested one as a
 * savepoint that a failure undoes alone and a success keeps.
 */
import { expect } from "vitest";

/** A client's part these checks use: the PostgreSQL `SqlClient` and the `SqliteClient` fit it. */
export interface Transactional {
  query(sql: string, params: [number]): Promise<unknown>;
  transaction<T>(fn: (tx: Transactional) => Promise<T>): Promise<T>;
}

/**
 * Inserts through `db` with `insert` (one placeholder), then expects `stored()`
 * (the values in the table, in order) to hold what the committed work left.
 */
export async function expectTransactionsNest(db: Transactional, insert: string, stored: () => Promise<number[]>): Promise<void> {
  await db.transaction(async (tx) => void (await tx.query(insert, [1])));
  await expect(
    db.transaction(async (tx) => {
      await tx.query(insert, [2]);
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  await db.transaction(async (tx) => {
    await tx.query(insert, [3]);
    await expect(
      tx.transaction(async (inner) => {
        await inner.query(insert, [4]);
        throw new Error("savepoint only");
      }),
    ).rejects.toThrow("savepoint only");
    await tx.transaction(async (inner) => void (await inner.query(insert, [5])));
  });
  expect(await stored()).toEqual([1, 3, 5]);
}
