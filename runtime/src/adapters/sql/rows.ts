/**
 * The rows of the Auth.js tables (users, accounts, sessions, verification_token,
 * authenticators) and their mapping to the contract's shapes, written once for
 * every SQL dialect (`statements.ts` selects each column under the model's name,
 * so the hosted store's rows have the same shape). What differs is how each
 * driver returns a date, an integer or a boolean: a dialect says how to decode
 * them (`Decoders`); `rowMappers` gives its `toUser`, `toAccount`, ...
 *
 * The hosted store allows NULL in every field. The adapter writes every field
 * the contract requires, so a NULL there comes only from another writer; it is
 * passed through, except a missing expiry, which reads as long expired (the
 * decoders read NULL as the epoch, so such a session or token is never
 * accepted), and a missing counter or backup flag of an authenticator, which
 * read as 0 and false.
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

/** Columns of a user's row that are not the user's: ours (above), and the session `getSessionAndUser` carries beside them. */
const NOT_USER_COLUMNS: ReadonlySet<string> = new Set([...INTERNAL_USER_COLUMNS, SESSION_JSON_COLUMN]);

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
    toUser: (row) => {
      // Every column the app added comes along. Copied one by one: a copy and then `delete`
      // would leave a slow dictionary-mode object, on every session read.
      const user: Record<string, unknown> = {};
      for (const column in row) if (!NOT_USER_COLUMNS.has(column)) user[column] = row[column];
      user.id = String(row.id);
      user.name = row.name;
      user.email = row.email;
      user.emailVerified = row.emailVerified == null ? null : decode.date(row.emailVerified);
      user.image = row.image;
      return user as unknown as AdapterUser;
    },
    toAccount: (row) =>
      withTokens(
        { userId: idOf(row.userId), type: row.type, provider: row.provider, providerAccountId: row.providerAccountId },
        row,
      ),
    toSession: (row) => {
      // The whole row (an app's own columns too), with the contract's types where they differ.
      const session: Record<string, unknown> = { ...row };
      session.userId = idOf(row.userId);
      session.expires = decode.date(row.expires);
      // Absent from a row of a schema before migration 0004 (and so is userAgent): left out, not invented.
      if (row.createdAt !== undefined) session.createdAt = row.createdAt === null ? null : decode.date(row.createdAt);
      return session as unknown as AdapterSession;
    },
    toVerificationToken: (row) => ({ identifier: row.identifier, token: row.token, expires: decode.date(row.expires) }),
    toAuthenticator: (row) => ({
      credentialID: row.credentialID,
      userId: idOf(row.userId),
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

/** A user id as the contract has it (an Auth.js table may still have integer ones); NULL, which only another writer leaves, as it is. */
function idOf(id: unknown): string {
  return (id == null ? id : String(id)) as string;
}

/**
 * `getSessionAndUser`'s one row, split: the user's row (`toUser` leaves out
 * `SESSION_JSON_COLUMN`), and the session row that came as JSON in that column
 * (an object from node-postgres and PGlite; text from a client that does not
 * parse JSON).
 */
export function splitSessionAndUser<User extends Record<string, unknown>, Session>(row: User): { user: User; session: Session } {
  const session = row[SESSION_JSON_COLUMN];
  return { user: row, session: (typeof session === "string" ? JSON.parse(session) : session) as Session };
}

/** `account` with the token columns of `row` added: `expires_at` as a number (seconds), `token_type` lowercased. */
function withTokens(account: AdapterAccount, row: TokenColumns<number | string | bigint>): AdapterAccount {
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

/** The values `linkAccount` inserts, in the order of the schema's accounts columns. A field the provider did not send is NULL. */
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
