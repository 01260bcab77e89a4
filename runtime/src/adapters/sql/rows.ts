/**
 * The rows of the Auth.js tables (users, accounts, sessions, verification_token,
 * authenticators) and their mapping to the contract's shapes, written once for
 * the PostgreSQL and the SQLite adapter, whose schemas have these tables and
 * columns. What differs is how each driver returns a date, an integer or a
 * boolean: a dialect names those types (`ColumnTypes`) and says how to decode
 * them (`Decoders`); `rowMappers` gives its `toUser`, `toAccount`, ...
 *
 * The hosted store's svc_ tables differ (a `user` link, every field nullable)
 * and have their own mappers; they share the token fields (`withTokens`), the
 * order of an account's values (`accountValues`) and what an account update
 * sets (`accountUpdates`).
 */
import type {
  AdapterAccount,
  AdapterAccountTokenField,
  AdapterAccountUpdate,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../types.js";
import { ACCOUNT_TOKEN_FIELDS } from "../account-token-fields.js";

/** The column lists the queries select, so each mapper gets every column it reads. */
export const USER_COLUMNS = `id, name, email, "emailVerified", image`;
export const ACCOUNT_COLUMNS = `"userId", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `"sessionToken", "userId", expires`;
/** A session with what a list of the user's sessions shows (migration 0004's columns). */
export const LISTED_SESSION_COLUMNS = `${SESSION_COLUMNS}, "createdAt", "userAgent"`;
export const TOKEN_COLUMNS = `identifier, token, expires`;
export const AUTHENTICATOR_COLUMNS = `"credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`;
/** A passkey with what the account page's list shows (migration 0004's columns). */
export const LISTED_AUTHENTICATOR_COLUMNS = `${AUTHENTICATOR_COLUMNS}, name, "createdAt", "lastUsedAt"`;

/** The types a dialect's driver returns for the columns the contract types otherwise. */
export interface ColumnTypes {
  /** A user id, and a link to one. */
  id: unknown;
  /** A date (emailVerified, expires). */
  date: unknown;
  /** A 64-bit integer (expires_at, counter): read with `Number`, as the contract wants a number. */
  integer: number | string | bigint;
  /** A boolean (credentialBackedUp). */
  boolean: unknown;
}

/** How a dialect turns its driver's dates and booleans into the contract's. */
export interface Decoders<T extends ColumnTypes> {
  date(value: T["date"]): Date;
  boolean(value: T["boolean"]): boolean;
}

/** An account's OAuth token columns: the same names in every schema, the svc_ tables' too. */
export interface TokenColumns<Integer> {
  refresh_token: string | null;
  access_token: string | null;
  expires_at: Integer | null;
  id_token: string | null;
  scope: string | null;
  session_state: string | null;
  token_type: string | null;
}

export interface UserRow<T extends ColumnTypes> {
  id: T["id"];
  name: string | null;
  email: string;
  emailVerified: T["date"] | null;
  image: string | null;
}

export interface AccountRow<T extends ColumnTypes> extends TokenColumns<T["integer"]> {
  userId: T["id"];
  type: AdapterAccount["type"];
  provider: string;
  providerAccountId: string;
}

export interface SessionRow<T extends ColumnTypes> {
  sessionToken: string;
  userId: T["id"];
  expires: T["date"];
  /** Where selected (LISTED_SESSION_COLUMNS). */
  createdAt?: T["date"] | null;
  userAgent?: string | null;
}

export interface TokenRow<T extends ColumnTypes> {
  identifier: string;
  token: string;
  expires: T["date"];
}

export interface AuthenticatorRow<T extends ColumnTypes> {
  credentialID: string;
  userId: T["id"];
  providerAccountId: string;
  credentialPublicKey: string;
  counter: T["integer"];
  credentialDeviceType: string;
  credentialBackedUp: T["boolean"];
  transports: string | null;
  /** Where selected (LISTED_AUTHENTICATOR_COLUMNS). */
  name?: string | null;
  createdAt?: T["date"] | null;
  lastUsedAt?: T["date"] | null;
}

export interface RowMappers<T extends ColumnTypes> {
  toUser(row: UserRow<T>): AdapterUser;
  toAccount(row: AccountRow<T>): AdapterAccount;
  toSession(row: SessionRow<T>): AdapterSession;
  toVerificationToken(row: TokenRow<T>): VerificationToken;
  toAuthenticator(row: AuthenticatorRow<T>): AdapterAuthenticator;
}

/**
 * The mappers of one dialect. Ids go through `String`: the contract's are
 * strings, and an Auth.js PostgreSQL table may still have integer ones
 * (SQLite's are TEXT in STRICT tables: `String` leaves them as they are).
 */
export function rowMappers<T extends ColumnTypes>(decode: Decoders<T>): RowMappers<T> {
  return {
    toUser: (row) => ({
      id: String(row.id),
      name: row.name,
      email: row.email,
      emailVerified: row.emailVerified === null ? null : decode.date(row.emailVerified),
      image: row.image,
    }),
    toAccount: (row) =>
      withTokens(
        { userId: String(row.userId), type: row.type, provider: row.provider, providerAccountId: row.providerAccountId },
        row,
      ),
    toSession: (row) => ({
      sessionToken: row.sessionToken,
      userId: String(row.userId),
      expires: decode.date(row.expires),
      ...("createdAt" in row ? { createdAt: row.createdAt == null ? null : decode.date(row.createdAt) } : {}),
      ...("userAgent" in row ? { userAgent: row.userAgent ?? null } : {}),
    }),
    toVerificationToken: (row) => ({ identifier: row.identifier, token: row.token, expires: decode.date(row.expires) }),
    toAuthenticator: (row) => ({
      credentialID: row.credentialID,
      userId: String(row.userId),
      providerAccountId: row.providerAccountId,
      credentialPublicKey: row.credentialPublicKey,
      counter: Number(row.counter),
      credentialDeviceType: row.credentialDeviceType,
      credentialBackedUp: decode.boolean(row.credentialBackedUp),
      transports: row.transports,
      ...("name" in row ? { name: row.name ?? null } : {}),
      ...("createdAt" in row ? { createdAt: row.createdAt == null ? null : decode.date(row.createdAt) } : {}),
      ...("lastUsedAt" in row ? { lastUsedAt: row.lastUsedAt == null ? null : decode.date(row.lastUsedAt) } : {}),
    }),
  };
}

/** `account` with the token columns of `row` added: `expires_at` as a number (seconds), `token_type` lowercased. */
export function withTokens(account: AdapterAccount, row: TokenColumns<number | string | bigint>): AdapterAccount {
  // The token fields are optional strings and numbers in the contract, never
  // null: a column the provider did not fill is left out.
  if (row.refresh_token !== null) account.refresh_token = row.refresh_token;
  if (row.access_token !== null) account.access_token = row.access_token;
  if (row.expires_at !== null) account.expires_at = Number(row.expires_at);
  if (row.id_token !== null) account.id_token = row.id_token;
  if (row.scope !== null) account.scope = row.scope;
  if (row.session_state !== null) account.session_state = row.session_state;
  // Providers send "Bearer"; the contract always returns it lowercased.
  if (row.token_type !== null) account.token_type = row.token_type.toLowerCase();
  return account;
}

/**
 * The values `linkAccount` inserts, in the order of `ACCOUNT_COLUMNS` (the
 * svc_ tables' list has `"user"` where this one has `"userId"`). A field the
 * provider did not send is NULL.
 */
export function accountValues(account: AdapterAccount): (string | number | null)[] {
  return [
    account.userId,
    account.type,
    account.provider,
    account.providerAccountId,
    account.refresh_token ?? null,
    account.access_token ?? null,
    account.expires_at ?? null,
    account.id_token ?? null,
    account.scope ?? null,
    // Typed `unknown` by the contract (an extra field of the token response); the column is text.
    (account.session_state as string | undefined) ?? null,
    account.token_type ?? null,
  ];
}


/**
 * The `[column, value]` pairs `updateAccount` sets: one per token field that
 * `update` gives (`null` clears the column; `undefined` means "not given", not
 * "clear it"); `token_type` lowercased, as `withTokens` returns it, so that
 * other readers of the table see what the adapter returns.
 */
export function accountUpdates(update: AdapterAccountUpdate): [column: AdapterAccountTokenField, value: string | number | null][] {
  const pairs: [AdapterAccountTokenField, string | number | null][] = [];
  for (const field of ACCOUNT_TOKEN_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    // session_state is typed `unknown` by the contract (an extra field of the token response); the column is text.
    const stored = value as string | number | null;
    pairs.push([field, field === "token_type" && typeof stored === "string" ? stored.toLowerCase() : stored]);
  }
  return pairs;
}

/**
 * The values `createAuthenticator` inserts, in the order ("credentialID",
 * user link, "providerAccountId", "credentialPublicKey", counter,
 * "credentialDeviceType", "credentialBackedUp", transports). `encodeBoolean`
 * turns `credentialBackedUp` into what the column holds (SQLite has no boolean).
 */
export function authenticatorValues<B = boolean>(
  authenticator: AdapterAuthenticator,
  encodeBoolean: (value: boolean) => B = (value) => value as B,
): (string | number | B | null)[] {
  return [
    authenticator.credentialID,
    authenticator.userId,
    authenticator.providerAccountId,
    authenticator.credentialPublicKey,
    authenticator.counter,
    authenticator.credentialDeviceType,
    encodeBoolean(authenticator.credentialBackedUp),
    authenticator.transports ?? null,
    // A gatehouse extension's column (migration 0004): the passkey's name, when the caller gave one.
    authenticator.name ?? null,
  ];
}

/**
 * `updateAccount` for the Postgres dialect (`accounts`, or the hosted store's
 * `svc_accounts` with its own `columns`): one statement, so the compare-and-set
 * is atomic. Of two concurrent updates of the row, the second waits for the
 * first to commit and then checks its condition against the row the first wrote
 * (at READ COMMITTED, the default; a stricter level fails it with a
 * serialization error). With no field to change, a SELECT of the same row.
 */
export function postgresAccountUpdate(
  table: string,
  columns: string,
  update: AdapterAccountUpdate,
  condition: { refresh_token: string | null } | undefined,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [update.provider, update.providerAccountId];
  const sets = accountUpdates(update).map(([column, value]) => {
    params.push(value);
    return `${column} = $${params.length}`;
  });
  let where = `provider = $1 AND "providerAccountId" = $2`;
  if (condition) {
    // IS NOT DISTINCT FROM: a condition of null matches an account without a refresh token.
    params.push(condition.refresh_token ?? null);
    where += ` AND refresh_token IS NOT DISTINCT FROM $${params.length}`;
  }
  const sql =
    sets.length > 0
      ? `UPDATE ${table} SET ${sets.join(", ")} WHERE ${where} RETURNING ${columns}`
      : `SELECT ${columns} FROM ${table} WHERE ${where}`;
  return { sql, params };
}
