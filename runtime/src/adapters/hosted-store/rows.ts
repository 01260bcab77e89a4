/**
 * Records as the drivers return them, and their mapping to the contract's
 * shapes. Drivers differ: node-postgres returns BIGINT as a string, PGlite as
 * a number or bigint; both return timestamptz as a `Date`. The contract wants
 * numbers, `Date`s, booleans and string ids whatever the driver. The store is
 * PostgreSQL on those drivers, so values are decoded as the PostgreSQL
 * adapter decodes them (`../postgres/rows.ts`).
 *
 * The store allows NULL in every field. The adapter writes every field the
 * contract requires, so a NULL there comes only from another writer; it is
 * passed through, except a missing expiry, which reads as long expired (so
 * such a session or token is never accepted) and a missing counter or backup
 * flag of an authenticator, which read as 0 and false.
 */
import { toBoolean, toDate, type BigIntish, type PgBoolean, type Timestamp } from "../postgres/rows.js";
import { withTokens, withoutColumns, type TokenColumns } from "../sql/rows.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "../types.js";

export { prefixed } from "../postgres/rows.js";

/**
 * The columns the queries select, so each mapper gets every field it reads.
 * Users and sessions come back whole, as Auth.js adapters return them: a column
 * the app added (a `role`) reaches `getUser`, the session and the callbacks.
 */
export const USER_COLUMNS = `*`;
export const ACCOUNT_COLUMNS = `"user", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type`;
export const SESSION_COLUMNS = `*`;
/** A session with what a list of the user's sessions shows (its record's creation time, migration 0003's column): the whole record has them. */
export const LISTED_SESSION_COLUMNS = SESSION_COLUMNS;
/** The store's bookkeeping on every record, and ours on users: not the user's or the session's, so never returned. */
const RECORD_COLUMNS = ["created_at", "updated_at", "version"] as const;
const INTERNAL_USER_COLUMNS = [...RECORD_COLUMNS, "sessionVersion"];
/** The session's link to its user, returned as `userId`; its creation time, as `createdAt`. */
const INTERNAL_SESSION_COLUMNS = [...RECORD_COLUMNS, "user"];
export const TOKEN_COLUMNS = `identifier, token, expires`;
export const AUTHENTICATOR_COLUMNS = `"credentialID", "user", "providerAccountId", "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`;
/** A passkey with what the account page's list shows: migration 0003's columns, and its record's creation time. */
export const LISTED_AUTHENTICATOR_COLUMNS = `${AUTHENTICATOR_COLUMNS}, name, created_at AS "createdAt", "lastUsedAt"`;

export interface UserRow {
  id: string;
  email: string | null;
  emailVerified: Timestamp | null;
  image: string | null;
  name: string | null;
  /** The record's bookkeeping, and columns the app added (a `role`), as the driver reads them. */
  [column: string]: unknown;
}

export interface AccountRow extends TokenColumns<BigIntish> {
  /** The link to the owning user: its record id. */
  user: string | null;
  type: string | null;
  provider: string | null;
  providerAccountId: string | null;
}

export interface SessionRow {
  sessionToken: string | null;
  user: string | null;
  expires: Timestamp | null;
  /** The record's creation time (what a list of sessions shows as `createdAt`). */
  created_at?: Timestamp | null;
  /** Migration 0003's column. */
  userAgent?: string | null;
  /** The record's `id` and bookkeeping, and columns the app added, as the driver reads them. */
  [column: string]: unknown;
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
  credentialBackedUp: PgBoolean | null;
  transports: string | null;
  /** Where selected (LISTED_AUTHENTICATOR_COLUMNS). */
  name?: string | null;
  createdAt?: Timestamp | null;
  lastUsedAt?: Timestamp | null;
}

export function toUser(row: UserRow): AdapterUser {
  return {
    ...withoutColumns(row, INTERNAL_USER_COLUMNS),
    id: String(row.id),
    email: row.email as string,
    emailVerified: row.emailVerified == null ? null : toDate(row.emailVerified),
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
  return withTokens(account, row);
}

export function toSession(row: SessionRow): AdapterSession {
  return {
    ...withoutColumns(row, INTERNAL_SESSION_COLUMNS),
    sessionToken: row.sessionToken as string,
    userId: row.user as string,
    expires: toExpiry(row.expires),
    ...("created_at" in row ? { createdAt: row.created_at == null ? null : toExpiry(row.created_at) } : {}),
    ...("userAgent" in row ? { userAgent: row.userAgent ?? null } : {}),
  };
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
    credentialBackedUp: row.credentialBackedUp !== null && toBoolean(row.credentialBackedUp),
    transports: row.transports,
    ...("name" in row ? { name: row.name ?? null } : {}),
    ...("createdAt" in row ? { createdAt: row.createdAt == null ? null : toDate(row.createdAt) } : {}),
    ...("lastUsedAt" in row ? { lastUsedAt: row.lastUsedAt == null ? null : toDate(row.lastUsedAt) } : {}),
  };
}

function toExpiry(value: Timestamp | null): Date {
  return value === null ? new Date(0) : toDate(value);
}
