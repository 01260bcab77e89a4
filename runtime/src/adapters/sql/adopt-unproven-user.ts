/**
 * `adoptUnprovenUser` for the SQL adapters (PostgreSQL, SQLite, the hosted
 * store), written once: the statements differ only in table and column names
 * and in how a placeholder and a date are written, which each adapter gives.
 *
 * In one transaction, the UPDATE that sets `emailVerified` comes first and is
 * the compare-and-set: its WHERE holds only while the user still has the
 * email and no `emailVerified`. A concurrent call waits (for the row lock the
 * UPDATE takes on PostgreSQL, for SQLite's one writer), then finds the address
 * proven and updates nothing. Only the call whose UPDATE returned the user
 * deletes what hung on it; either all of it happens or, on any failure, none
 * of it.
 */
import type { AdapterUser } from "../types.js";

/** A transaction's client, as far as this needs it: one statement with its parameters, and its rows. */
export interface AdoptionQuery<Value> {
  query<Row>(sql: string, params: (string | Value)[]): Promise<{ rows: Row[] }>;
}

/** What differs between the adapters. */
export interface AdoptionSchema<Value, Row> {
  /** The users table. */
  users: string;
  /** The columns `toUser` reads, as the adapter's other user queries select them. */
  userColumns: string;
  /**
   * Every table whose rows belong to a user and must not come along (accounts
   * of every type, sessions, authenticators, the password), each with the
   * column linking it to the user. Rows hanging on these (the hosted store's
   * join rows) go with them by their own cascades.
   */
  owned: ReadonlyArray<readonly [table: string, link: string]>;
  /** The n-th placeholder (from 1): `$n`, or `?` where they bind in order of appearance. */
  placeholder(n: number): string;
  /** `emailVerified` as the schema stores it. */
  date(date: Date): Value;
  toUser(row: Row): AdapterUser;
}

export function adoptUnprovenUser<Value, Row>(
  transaction: <T>(fn: (tx: AdoptionQuery<Value>) => Promise<T>) => Promise<T>,
  schema: AdoptionSchema<Value, Row>,
  userId: string,
  proof: { email: string; emailVerified: Date },
): Promise<{ user: AdapterUser; revoked: boolean } | null> {
  const { users, userColumns, owned, placeholder: p } = schema;
  // Placeholders numbered in the order they appear, so `?` binds the same values as `$n`.
  const claim = `UPDATE ${users} SET "emailVerified" = ${p(1)} WHERE id = ${p(2)} AND email = ${p(3)} AND "emailVerified" IS NULL RETURNING ${userColumns}`;
  const read = `SELECT ${userColumns} FROM ${users} WHERE id = ${p(1)} AND email = ${p(2)}`;
  return transaction(async (tx) => {
    const [claimed] = (await tx.query<Row>(claim, [schema.date(proof.emailVerified), userId, proof.email])).rows;
    if (claimed) {
      for (const [table, link] of owned) await tx.query(`DELETE FROM ${table} WHERE ${link} = ${p(1)}`, [userId]);
      return { user: schema.toUser(claimed), revoked: true };
    }
    // Not claimed: gone, another email, or proven already (by a concurrent call, say).
    const [current] = (await tx.query<Row>(read, [userId, proof.email])).rows;
    const user = current === undefined ? null : schema.toUser(current);
    // Unproven yet not claimed would mean a write in between put the address back in doubt: nothing safe to say, so null.
    return user?.emailVerified ? { user, revoked: false } : null;
  });
}

