/**
 * Rows as the drivers return them, and their mapping to the contract's shapes.
 * Drivers differ: node-postgres returns BIGINT as a string (it may not fit a
 * number), PGlite as a number or bigint; both return timestamptz as a `Date`.
 * The contract wants numbers, `Date`s and booleans whatever the driver.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../types.js";

/** The column lists the queries select, so each mapper gets every column it reads. */
export const USER_COLUMNS = `id, name, email, "emailVerified", image`;
export const ACCOUNT_COLUMNS = `"userId", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `"sessionToken", "userId", expires`;
export const TOKEN_COLUMNS = `identifier, token, expires`;
export const AUTHENTICATOR_COLUMNS = `"credentialID", "userId", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`;

type Id = string | number;
type Timestamp = Date | string;
type BigIntish = number | string | bigint;

export interface UserRow {
  id: Id;
  name: string | null;
  email: string;
  emailVerified: Timestamp | null;
  image: string | null;
}

export interface AccountRow {
  userId: Id;
  type: AdapterAccount["type"];
  provider: string;
  providerAccountId: string;
  refresh_token: string | null;
  access_token: string | null;
  expires_at: BigIntish | null;
  id_token: string | null;
  scope: string | null;
  session_state: string | null;
  token_type: string | null;
}

export interface SessionRow {
  sessionToken: string;
  userId: Id;
  expires: Timestamp;
}

export interface TokenRow {
  identifier: string;
  token: string;
  expires: Timestamp;
}

export interface AuthenticatorRow {
  credentialID: string;
  userId: Id;
  providerAccountId: string;
  credentialPublicKey: string;
  counter: BigIntish;
  credentialDeviceType: string;
  credentialBackedUp: boolean | string;
  transports: string | null;
}

export function toUser(row: UserRow): AdapterUser {
  return {
    id: String(row.id),
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified === null ? null : toDate(row.emailVerified),
    image: row.image,
  };
}

export function toAccount(row: AccountRow): AdapterAccount {
  const account: AdapterAccount = {
    userId: String(row.userId),
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
  return { sessionToken: row.sessionToken, userId: String(row.userId), expires: toDate(row.expires) };
}

export function toVerificationToken(row: TokenRow): VerificationToken {
  return { identifier: row.identifier, token: row.token, expires: toDate(row.expires) };
}

export function toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    credentialID: row.credentialID,
    userId: String(row.userId),
    providerAccountId: row.providerAccountId,
    credentialPublicKey: row.credentialPublicKey,
    counter: Number(row.counter),
    credentialDeviceType: row.credentialDeviceType,
    credentialBackedUp: row.credentialBackedUp === true || row.credentialBackedUp === "t" || row.credentialBackedUp === "true",
    transports: row.transports,
  };
}

function toDate(value: Timestamp): Date {
  return value instanceof Date ? value : new Date(value);
}
