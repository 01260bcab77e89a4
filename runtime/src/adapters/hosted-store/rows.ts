/**
 * Records as the drivers return them, and their mapping to the contract's
 * shapes. Drivers differ: node-postgres returns BIGINT as a string, PGlite as
 * a number or bigint; both return timestamptz as a `Date`. The contract wants
 * numbers, `Date`s, booleans and string ids whatever the driver.
 *
 * The store allows NULL in every field. The adapter writes every field the
 * contract requires, so a NULL there comes only from another writer; it is
 * passed through, except a missing expiry, which reads as long expired (so
 * such a session or token is never accepted) and a missing counter or backup
 * flag of an authenticator, which read as 0 and false.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../types.js";

/** The columns the queries select, so each mapper gets every field it reads. */
export const USER_COLUMNS = `id, email, "emailVerified", image, name`;
export const ACCOUNT_COLUMNS = `"user", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `"sessionToken", "user", expires`;
export const TOKEN_COLUMNS = `identifier, token, expires`;
export const AUTHENTICATOR_COLUMNS = `"credentialID", "user", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`;

type Timestamp = Date | string;
type BigIntish = number | string | bigint;

export interface UserRow {
  id: string;
  email: string | null;
  emailVerified: Timestamp | null;
  image: string | null;
  name: string | null;
}

export interface AccountRow {
  /** The link to the owning user: its record id. */
  user: string | null;
  type: string | null;
  provider: string | null;
  providerAccountId: string | null;
  refresh_token: string | null;
  access_token: string | null;
  expires_at: BigIntish | null;
  id_token: string | null;
  scope: string | null;
  session_state: string | null;
  token_type: string | null;
}

export interface SessionRow {
  sessionToken: string | null;
  user: string | null;
  expires: Timestamp | null;
}

export interface TokenRow {
  identifier: string | null;
  token: string | null;
  expires: Timestamp | null;
}

export interface AuthenticatorRow {
  credentialID: string | null;
  user: string | null;
  providerAccountId: string | null;
  credentialPublicKey: string | null;
  counter: BigIntish | null;
  credentialDeviceType: string | null;
  credentialBackedUp: boolean | string | null;
  transports: string | null;
}

export function toUser(row: UserRow): AdapterUser {
  return {
    id: String(row.id),
    email: row.email as string,
    emailVerified: row.emailVerified === null ? null : toDate(row.emailVerified),
    image: row.image,
    name: row.name,
  };
}

export function toAccount(row: AccountRow): AdapterAccount {
  const account: AdapterAccount = {
    userId: row.user as string,
    type: row.type as AdapterAccount["type"],
    provider: row.provider as string,
    providerAccountId: row.providerAccountId as string,
  };
  // The token fields are optional strings and numbers in the contract, never
  // null: a field the provider did not fill is left out.
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
  return { sessionToken: row.sessionToken as string, userId: row.user as string, expires: toExpiry(row.expires) };
}

export function toVerificationToken(row: TokenRow): VerificationToken {
  return { identifier: row.identifier as string, token: row.token as string, expires: toExpiry(row.expires) };
}

export function toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    credentialID: row.credentialID as string,
    userId: row.user as string,
    providerAccountId: row.providerAccountId as string,
    credentialPublicKey: row.credentialPublicKey as string,
    counter: row.counter === null ? 0 : Number(row.counter),
    credentialDeviceType: row.credentialDeviceType as string,
    credentialBackedUp: row.credentialBackedUp === true || row.credentialBackedUp === "t" || row.credentialBackedUp === "true",
    transports: row.transports,
  };
}

/** `id, name` -> `u.id, u.name`: the same columns, taken from one table of a join. */
export function prefixed(alias: string, columns: string): string {
  return columns
    .split(", ")
    .map((column) => `${alias}.${column}`)
    .join(", ");
}

function toExpiry(value: Timestamp | null): Date {
  return value === null ? new Date(0) : toDate(value);
}

function toDate(value: Timestamp): Date {
  return value instanceof Date ? value : new Date(value);
}
