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

/**
 * The column lists the queries select, so each mapper gets every column it reads.
 * Users and sessions come back whole, as Auth.js adapters return them: a column
 * the app added (the common `role` on users) reaches `getUser`, the session and
 * the callbacks. The password hashes live in their own table, which no user
 * query reads.
 */
export const USER_COLUMNS = `*`;
export const ACCOUNT_COLUMNS = `"userId", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `*`;
/** A session with what a list of the user's sessions shows (migration 0004's columns): the whole row has them. */
export const LISTED_SESSION_COLUMNS = SESSION_COLUMNS;
/**
 * Our own columns on users: bookkeeping of the handler, not the user's (a
 * callback that hands the user to the client would show them), so never returned.
 */
export const INTERNAL_USER_COLUMNS: readonly string[] = ["sessionVersion"];

/**
 * The name `getSessionAndUser` gives the session row in its one statement
 * (`to_jsonb(s)` in PostgreSQL): the user's columns and the session's share
 * names (`id`, an app's `createdAt`), so the session travels as one value.
 */
export const SESSION_JSON_COLUMN = "gatehouse_session";
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
  /** Columns the app added (a `role`), returned as the driver reads them. */
  [column: string]: unknown;
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
  /** Migration 0004's columns (absent from a row of an older schema). */
  createdAt?: T["date"] | null;
  userAgent?: string | null;
  /** The row's `id`, and columns the app added, as the driver reads them. */
  [column: string]: unknown;
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
      ...withoutColumns(row, INTERNAL_USER_COLUMNS),
      id: String(row.id),
      name: row.name,
      email: row.email,
      emailVerified: row.emailVerified == null ? null : decode.date(row.emailVerified),
      image: row.image,
    }),
    toAccount: (row) =>
      withTokens(
        { userId: String(row.userId), type: row.type, provider: row.provider, providerAccountId: row.providerAccountId },
        row,
      ),
    toSession: ({ createdAt, userAgent, ...row }) => ({
      ...row,
      sessionToken: row.sessionToken,
      userId: String(row.userId),
      expires: decode.date(row.expires),
      // Absent from a row of a schema before migration 0004: left out, not invented.
      ...(createdAt !== undefined ? { createdAt: createdAt === null ? null : decode.date(createdAt) } : {}),
      ...(userAgent !== undefined ? { userAgent } : {}),
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

/** `row` without `columns`: a copy. */
export function withoutColumns(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const kept = { ...row };
  for (const column of columns) delete kept[column];
  return kept;
}

/**
 * `getSessionAndUser`'s one row, split: the user's columns, and the session row
 * that came as JSON in `SESSION_JSON_COLUMN` (an object from node-postgres and
 * PGlite; text from a client that does not parse JSON).
 */
export function splitSessionAndUser<User extends Record<string, unknown>, Session>(row: User): { user: User; session: Session } {
  const { [SESSION_JSON_COLUMN]: session, ...user } = row;
  return { user: user as User, session: (typeof session === "string" ? JSON.parse(session) : session) as Session };
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
