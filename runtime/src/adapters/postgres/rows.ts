/**
 * Rows as the drivers return them, and their mapping to the contract's shapes.
 * Drivers differ: node-postgres returns BIGINT as a string (it may not fit a
 * number), PGlite as a number or bigint; both return timestamptz as a `Date`.
 * The contract wants numbers, `Date`s and booleans whatever the driver. The
 * mapping itself is the SQLite adapter's too (`../sql/rows.ts`); the decoding
 * here is the hosted store's too, as it runs on the same drivers.
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

/** A timestamptz: a `Date`, or its text where a driver's type parser is off. */
export type Timestamp = Date | string;
/** A BIGINT: a string from node-postgres, a number or bigint from PGlite. */
export type BigIntish = number | string | bigint;
/** A boolean, or its text (`t`, `true`, ...) where a driver's type parser is off. */
export type PgBoolean = boolean | string;

/** What the drivers return; an id is a number in an Auth.js table that migrate() has not widened to text yet. */
interface PostgresTypes {
  id: string | number;
  date: Timestamp;
  integer: BigIntish;
  boolean: PgBoolean;
}

export type UserRow = UserRowOf<PostgresTypes>;
export type AccountRow = AccountRowOf<PostgresTypes>;
export type SessionRow = SessionRowOf<PostgresTypes>;
export type TokenRow = TokenRowOf<PostgresTypes>;
export type AuthenticatorRow = AuthenticatorRowOf<PostgresTypes>;

export const { toUser, toAccount, toSession, toVerificationToken, toAuthenticator } = rowMappers<PostgresTypes>({
  date: toDate,
  boolean: toBoolean,
});

export function toDate(value: Timestamp): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toBoolean(value: PgBoolean): boolean {
  return value === true || value === "t" || value === "true";
}

/** `id, name` -> `u.id, u.name`: the same columns, taken from one table of a join. */
export function prefixed(alias: string, columns: string): string {
  return columns
    .split(", ")
    .map((column) => `${alias}.${column}`)
    .join(", ");
}
