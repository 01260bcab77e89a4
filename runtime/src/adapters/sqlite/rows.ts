/**
 * Rows as SQLite returns them, and their mapping to the contract's shapes and
 * back. The schema stores dates as INTEGER milliseconds and booleans as INTEGER
 * 0/1 (SQLite has neither type); the contract wants `Date`s and booleans. An
 * INTEGER comes back as a number, or as a bigint on a connection set to read
 * them so (better-sqlite3 `safeIntegers`, node:sqlite `readBigInts`).
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../types.js";

/** The column lists the queries select, so each mapper gets every column it reads. */
export const USER_COLUMNS = `id, name, email, "emailVerified", image`;
export const ACCOUNT_COLUMNS = `"userId", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `"sessionToken", "userId", expires`;
export const TOKEN_COLUMNS = `identifier, token, expires`;
export const AUTHENTICATOR_COLUMNS = `"credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`;

type Integer = number | bigint;

export interface UserRow {
  id: string;
  name: string | null;
  email: string;
  emailVerified: Integer | null;
  image: string | null;
}

export interface AccountRow {
  userId: string;
  type: AdapterAccount["type"];
  provider: string;
  providerAccountId: string;
  refresh_token: string | null;
  access_token: string | null;
  expires_at: Integer | null;
  id_token: string | null;
  scope: string | null;
  session_state: string | null;
  token_type: string | null;
}

export interface SessionRow {
  sessionToken: string;
  userId: string;
  expires: Integer;
}

export interface TokenRow {
  identifier: string;
  token: string;
  expires: Integer;
}

export interface AuthenticatorRow {
  credentialID: string;
  userId: string;
  providerAccountId: string;
  credentialPublicKey: string;
  counter: Integer;
  credentialDeviceType: string;
  credentialBackedUp: Integer;
  transports: string | null;
}

export function toUser(row: UserRow): AdapterUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified === null ? null : toDate(row.emailVerified),
    image: row.image,
  };
}

export function toAccount(row: AccountRow): AdapterAccount {
  const account: AdapterAccount = {
    userId: row.userId,
    type: row.type,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
  };
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

export function toSession(row: SessionRow): AdapterSession {
  return { sessionToken: row.sessionToken, userId: row.userId, expires: toDate(row.expires) };
}

export function toVerificationToken(row: TokenRow): VerificationToken {
  return { identifier: row.identifier, token: row.token, expires: toDate(row.expires) };
}

export function toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    credentialID: row.credentialID,
    userId: row.userId,
    providerAccountId: row.providerAccountId,
    credentialPublicKey: row.credentialPublicKey,
    counter: Number(row.counter),
    credentialDeviceType: row.credentialDeviceType,
    credentialBackedUp: Number(row.credentialBackedUp) === 1,
    transports: row.transports,
  };
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

function toDate(ms: Integer): Date {
  return new Date(Number(ms));
}
