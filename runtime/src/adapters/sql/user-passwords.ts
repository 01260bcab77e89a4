/**
 * `createUserWithPassword`, `getUserPassword` and `setUserPassword` for the SQL
 * adapters (PostgreSQL, SQLite, the hosted store), written once: the
 * statements differ only in table and column names and in how a placeholder,
 * a date and "now" are written, which each adapter gives.
 *
 * The database decides every race, never a read followed by a write here:
 * - A new user's INSERT does nothing on a taken email (ON CONFLICT (email) DO
 *   NOTHING, on the unique index of users.email). Of two concurrent sign-ups
 *   the second's INSERT waits for the first to commit (PostgreSQL) or for the
 *   one writer (SQLite), then inserts nothing. User and password are two
 *   INSERTs in one transaction, as SQLite allows no INSERT inside WITH.
 * - A compare-and-set is one UPDATE whose WHERE holds the stored hash: a
 *   concurrent one waits for the row lock (PostgreSQL re-checks the WHERE on
 *   the row as the first left it) or for the one writer, and then matches
 *   nothing.
 * - An insert "only if there is none" is ON CONFLICT (user) DO NOTHING, on the
 *   password table's one-row-per-user key.
 * The INSERTs read the user id from the users table (INSERT ... SELECT), so an
 * unknown user inserts nothing instead of failing its foreign key.
 */
import type { AdapterNewUser, AdapterUser } from "../types.js";
import type { SessionRevocation } from "./user-sessions.js";

/** One statement with its parameters, and its rows: a client's or a transaction's. */
export interface PasswordQuery<Value> {
  query<Row>(sql: string, params: (string | null | Value)[]): Promise<{ rows: Row[] }>;
}

/** A client: statements, and transactions whose statements go through their `tx`. */
export interface PasswordClient<Value> extends PasswordQuery<Value> {
  transaction<T>(fn: (tx: PasswordQuery<Value>) => Promise<T>): Promise<T>;
}

/** What differs between the adapters. */
export interface PasswordSchema<Value, Row> {
  /** The users table, with a unique index on `email`. */
  users: string;
  /** The columns `toUser` reads, as the adapter's other user queries select them. */
  userColumns: string;
  /** The password table: one row per user, its `hash`, ON DELETE CASCADE from the user. */
  passwords: string;
  /** The password table's column linking a row to its user: its primary or unique key. */
  passwordUser: string;
  /** Ends the user's sessions (`revokeSessionsIn`), inside the password's transaction. */
  revokeSessions: SessionRevocation;
  /** The assignment that moves the password's last-changed time to now, e.g. `"updatedAt" = now()`. */
  touch: string;
  /** The n-th placeholder (from 1): `$n`, or `?` where they bind in order of appearance. */
  placeholder(n: number): string;
  /** `emailVerified` as the schema stores it. */
  date(date: Date): Value;
  toUser(row: Row): AdapterUser;
}

export interface PasswordMethods {
  createUserWithPassword(user: AdapterNewUser, passwordHash: string): Promise<AdapterUser | null>;
  getUserPassword(userId: string): Promise<string | null>;
  setUserPassword(userId: string, passwordHash: string, options?: { previous?: string | null; revokeSessions?: boolean }): Promise<boolean>;
}

/** The three methods on `db`, with the names `schema` gives. */
export function passwordMethods<Value, Row>(db: PasswordClient<Value>, schema: PasswordSchema<Value, Row>): PasswordMethods {
  const { users, userColumns, passwords, passwordUser: link, placeholder: p } = schema;
  // Placeholders numbered in the order they appear, so `?` binds the same values as `$n`.
  const newUser = `INSERT INTO ${users} (id, name, email, "emailVerified", image) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
    ON CONFLICT (email) DO NOTHING RETURNING ${userColumns}`;
  const newPassword = `INSERT INTO ${passwords} (${link}, hash) VALUES (${p(1)}, ${p(2)})`;
  const read = `SELECT hash FROM ${passwords} WHERE ${link} = ${p(1)}`;
  // The user's id comes from its row: no row, nothing to insert (and no foreign key to fail).
  // (SQLite needs the WHERE: without one, it would read ON CONFLICT as part of the SELECT.)
  const insert = `INSERT INTO ${passwords} (${link}, hash) SELECT id, ${p(1)} FROM ${users} WHERE id = ${p(2)}`;
  const upsert = `${insert} ON CONFLICT (${link}) DO UPDATE SET hash = excluded.hash, ${schema.touch} RETURNING ${link}`;
  const insertIfNone = `${insert} ON CONFLICT (${link}) DO NOTHING RETURNING ${link}`;
  const replace = `UPDATE ${passwords} SET hash = ${p(1)}, ${schema.touch} WHERE ${link} = ${p(2)} AND hash = ${p(3)} RETURNING ${link}`;

  /** The one statement that writes, as `previous` asks, with its parameters. */
  function write(userId: string, hash: string, previous: string | null | undefined): [string, string[]] {
    if (previous === undefined) return [upsert, [hash, userId]];
    if (previous === null) return [insertIfNone, [hash, userId]];
    return [replace, [hash, userId, previous]];
  }

  return {
    async createUserWithPassword(user, passwordHash) {
      // The id is made here, not by a column default: SQLite has no UUID function.
      const id = typeof user.id === "string" && user.id !== "" ? user.id : crypto.randomUUID();
      const emailVerified = user.emailVerified ? schema.date(user.emailVerified) : null;
      return db.transaction(async (tx) => {
        const values = [id, user.name ?? null, user.email ?? null, emailVerified, user.image ?? null];
        const [row] = (await tx.query<Row>(newUser, values)).rows;
        if (row === undefined) return null;
        const created = schema.toUser(row);
        await tx.query(newPassword, [created.id, passwordHash]);
        return created;
      });
    },

    async getUserPassword(userId) {
      const [row] = (await db.query<{ hash: string }>(read, [userId])).rows;
      return row?.hash ?? null;
    },

    async setUserPassword(userId, passwordHash, options = {}) {
      const [sql, params] = write(userId, passwordHash, options.previous);
      if (!options.revokeSessions) return (await db.query(sql, params)).rows.length > 0;
      return db.transaction(async (tx) => {
        if ((await tx.query(sql, params)).rows.length === 0) return false;
        // Only once written: a failed compare-and-set signs nobody out.
        await schema.revokeSessions(tx, userId);
        return true;
      });
    },
  };
}
