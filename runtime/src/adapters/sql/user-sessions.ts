/**
 * `listSessionsByUserId`, `revokeUserSessions` and `getUserSessionVersion` for
 * the SQL adapters (PostgreSQL, SQLite, the hosted store), written once: the
 * statements differ only in table and column names and in how a placeholder
 * is written, which each adapter gives.
 *
 * A revocation is one transaction of two statements: the UPDATE that
 * increments the user's `sessionVersion` (it finds no row for an unknown user,
 * and then nothing else runs) and the DELETE of the user's database sessions.
 * `setUserPassword` with `revokeSessions` runs the same two inside its own
 * transaction (`revokeSessionsIn`).
 */
import type { AdapterSession } from "../types.js";
import type { PasswordClient, PasswordQuery } from "./user-passwords.js";

/** What differs between the adapters. */
export interface SessionSchema<Row> {
  /** The users table, and its session version column (an integer, NOT NULL DEFAULT 0). */
  users: readonly [table: string, sessionVersion: string];
  /** The sessions table, and its column linking a session to its user. */
  sessions: readonly [table: string, link: string];
  /** The columns `toSession` reads, with `createdAt` and `userAgent`. */
  sessionColumns: string;
  /** The ORDER BY that lists the oldest session first. */
  oldestFirst: string;
  /** The n-th placeholder (from 1): `$n`, or `?` where they bind in order of appearance. */
  placeholder(n: number): string;
  toSession(row: Row): AdapterSession;
}

export interface SessionMethods {
  listSessionsByUserId(userId: string): Promise<AdapterSession[]>;
  revokeUserSessions(userId: string, options?: { except?: string }): Promise<number | null>;
  getUserSessionVersion(userId: string): Promise<number | null>;
}

/** Ends the user's sessions inside the transaction `tx`: the new version, or `null` (no such user, nothing changed). */
export type SessionRevocation = <Value>(tx: PasswordQuery<Value>, userId: string, except?: string) => Promise<number | null>;

/** The revocation's two statements for `schema`. */
export function revokeSessionsIn<Row>(schema: SessionSchema<Row>): SessionRevocation {
  const { placeholder: p } = schema;
  const [users, version] = schema.users;
  const [sessions, link] = schema.sessions;
  const bump = `UPDATE ${users} SET ${version} = ${version} + 1 WHERE id = ${p(1)} RETURNING ${version} AS version`;
  const deleteAll = `DELETE FROM ${sessions} WHERE ${link} = ${p(1)}`;
  const deleteOthers = `${deleteAll} AND "sessionToken" <> ${p(2)}`;
  return async (tx, userId, except) => {
    const [row] = (await tx.query<{ version: number | string | bigint }>(bump, [userId])).rows;
    if (row === undefined) return null;
    await (except === undefined ? tx.query(deleteAll, [userId]) : tx.query(deleteOthers, [userId, except]));
    return Number(row.version);
  };
}

export function sessionMethods<Value, Row>(db: PasswordClient<Value>, schema: SessionSchema<Row>): SessionMethods {
  const { placeholder: p } = schema;
  const [users, version] = schema.users;
  const [sessions, link] = schema.sessions;
  const list = `SELECT ${schema.sessionColumns} FROM ${sessions} WHERE ${link} = ${p(1)} ORDER BY ${schema.oldestFirst}`;
  const readVersion = `SELECT ${version} AS version FROM ${users} WHERE id = ${p(1)}`;
  const revoke = revokeSessionsIn(schema);

  return {
    async listSessionsByUserId(userId) {
      return (await db.query<Row>(list, [userId])).rows.map(schema.toSession);
    },

    async revokeUserSessions(userId, { except } = {}) {
      return db.transaction((tx) => revoke(tx, userId, except));
    },

    async getUserSessionVersion(userId) {
      const [row] = (await db.query<{ version: number | string | bigint }>(readVersion, [userId])).rows;
      return row === undefined ? null : Number(row.version);
    },
  };
}
