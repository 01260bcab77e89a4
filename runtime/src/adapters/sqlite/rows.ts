/**
 * Rows as SQLite returns them, and their mapping to the contract's shapes and
 * back. The schema stores dates as INTEGER milliseconds and booleans as INTEGER
 * 0/1 (SQLite has neither type); the contract wants `Date`s and booleans. An
 * INTEGER comes back as a number, or as a bigint on a connection set to read
 * them so (better-sqlite3 `safeIntegers`, node:sqlite `readBigInts`). The
 * tables and the mapping are the PostgreSQL adapter's (`../sql/rows.ts`); the
 * decoding is this file's.
 */
import {
  rowMappers,
  type AccountRow as AccountRowOf,
  type AuthenticatorRow as AuthenticatorRowOf,
  type SessionRow as SessionRowOf,
  type TokenRow as TokenRowOf,
  type UserRow as UserRowOf,
} from "../sql/rows.js";

export { ACCOUNT_COLUMNS, AUTHENTICATOR_COLUMNS, LISTED_AUTHENTICATOR_COLUMNS, LISTED_SESSION_COLUMNS, SESSION_COLUMNS, TOKEN_COLUMNS, USER_COLUMNS } from "../sql/rows.js";

type Integer = number | bigint;

/** Dates are milliseconds and booleans 0/1, all INTEGER; ids TEXT. */
interface SqliteTypes {
  id: string;
  date: Integer;
  integer: Integer;
  boolean: Integer;
}

export type UserRow = UserRowOf<SqliteTypes>;
export type AccountRow = AccountRowOf<SqliteTypes>;
export type SessionRow = SessionRowOf<SqliteTypes>;
export type TokenRow = TokenRowOf<SqliteTypes>;
export type AuthenticatorRow = AuthenticatorRowOf<SqliteTypes>;

const mappers = rowMappers<SqliteTypes>({
  date: (ms) => new Date(Number(ms)),
  boolean: (value) => Number(value) === 1,
});

export const { toAccount, toVerificationToken, toAuthenticator } = mappers;

/**
 * Users and sessions come back whole: the session's INTEGER `id`, and INTEGER
 * columns the app added, as numbers even on a connection that reads them as
 * BigInt, so that a session callback's result still goes through JSON.
 */
export const toUser = (row: UserRow) => mappers.toUser(safeIntegers(row));
export const toSession = (row: SessionRow) => mappers.toSession(safeIntegers(row));

function safeIntegers<Row extends Record<string, unknown>>(row: Row): Row {
  const copy: Record<string, unknown> = { ...row };
  for (const [column, value] of Object.entries(copy)) {
    if (typeof value === "bigint" && Number.isSafeInteger(Number(value))) copy[column] = Number(value);
  }
  return copy as Row;
}

/** A date as the schema stores it: milliseconds since the epoch. */
export function toMillis(date: Date, field: string): number {
  // `Date` by the contract; a string or number (e.g. a date that went through JSON) is taken too.
  const ms = date instanceof Date ? date.getTime() : new Date(date as string | number).getTime();
  if (!Number.isFinite(ms)) throw new TypeError(`SqliteAdapter: ${field} is not a valid date: ${String(date)}`);
  return ms;
}

/** A nullable date as the schema stores it: milliseconds, or NULL. */
export function toMillisOrNull(date: Date | null | undefined, field: string): number | null {
  return date === null || date === undefined ? null : toMillis(date, field);
}
