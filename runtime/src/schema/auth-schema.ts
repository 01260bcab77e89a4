/**
 * The auth schema, written once: every table, column and index the adapters
 * use, and the migration step each appeared in. The SQL migrations of each
 * dialect (`render/`) and the tables `checkSchema()`, `migrate()` and
 * `auth doctor` expect of a live database come from here.
 *
 * Names are the Auth.js schema's (so an Auth.js database is adopted and
 * @auth/pg-adapter runs on ours): the service's own fields camelCase, the OAuth
 * fields snake_case. A released step is never changed (databases record
 * migrations by name); a change is a new step, and steps only add tables,
 * columns and indexes, so the version before keeps working on the schema after
 * while a rolling deploy replaces it (`allowNewerSchema`).
 */
import type { Schema, Table } from "./model.js";

const users: Table = {
  name: "users",
  doc: "One row per person.",
  since: "init",
  fromAuthjs: true,
  columns: [
    { name: "id", type: "id", required: true, primaryKey: true, default: { kind: "uuid" }, doc: "A UUID unless the adapter gives one (the caller's, or crypto.randomUUID())." },
    { name: "name", type: "text" },
    { name: "email", type: "text", doc: "Unique: one user per address." },
    { name: "emailVerified", type: "timestamp", doc: "When the address was proven; NULL while it is only claimed." },
    { name: "image", type: "text" },
    {
      name: "sessionVersion",
      type: "integer",
      required: true,
      default: { kind: "number", value: 0 },
      since: "account_management",
      doc: 'How often the user\'s sessions were revoked ("sign out everywhere", a password change or reset). A JWT session carries the version it was issued with and ends once it differs; the adapter\'s `revokeUserSessions` increments it and deletes the database sessions in one transaction.',
    },
  ],
  indexes: [{ name: "users_email_key", columns: ["email"], unique: true, doc: "Two concurrent sign-ups with one address cannot both succeed." }],
  hostedStore: { name: "svc_users", required: ["sessionVersion"] },
};

const accounts: Table = {
  name: "accounts",
  doc: "The OAuth and OIDC accounts linked to a user, with their tokens.",
  since: "init",
  fromAuthjs: true,
  columns: [
    { name: "id", type: "serial", required: true, primaryKey: true },
    { name: "userId", type: "id", required: true, referencesUser: true },
    { name: "type", type: "text", required: true },
    { name: "provider", type: "text", required: true },
    { name: "providerAccountId", type: "text", required: true },
    { name: "refresh_token", type: "text" },
    { name: "access_token", type: "text" },
    { name: "expires_at", type: "bigint", doc: "Seconds since the epoch, as the adapter contract stores it." },
    { name: "id_token", type: "text" },
    { name: "scope", type: "text" },
    { name: "session_state", type: "text", addedOnAdoption: true, doc: "Older Auth.js schemas lack it; OIDC providers send it." },
    { name: "token_type", type: "text" },
  ],
  indexes: [
    { name: "accounts_provider_account_key", columns: ["provider", "providerAccountId"], unique: true, doc: "Two links of one provider account cannot both succeed." },
    { name: "accounts_user_id_idx", columns: ["userId"] },
  ],
  hostedStore: { name: "svc_accounts", join: { table: "svc_users_accounts", field: "account" } },
};

const sessions: Table = {
  name: "sessions",
  doc: "Database sessions.",
  since: "init",
  fromAuthjs: true,
  columns: [
    { name: "id", type: "serial", required: true, primaryKey: true },
    { name: "userId", type: "id", required: true, referencesUser: true },
    { name: "expires", type: "timestamp", required: true },
    { name: "sessionToken", type: "text", required: true },
    {
      name: "createdAt",
      type: "timestamp",
      default: { kind: "now" },
      recordTime: "created",
      since: "account_management",
      doc: "When the session was created (the sign-in). Sessions stored before this column keep NULL.",
    },
    {
      name: "userAgent",
      type: "text",
      since: "account_management",
      doc: "The browser that signed in (at most 512 characters), shown in the list of sessions so its owner can tell them apart.",
    },
  ],
  indexes: [
    { name: "sessions_session_token_key", columns: ["sessionToken"], unique: true },
    { name: "sessions_user_id_idx", columns: ["userId"] },
  ],
  hostedStore: { name: "svc_sessions", join: { table: "svc_users_sessions", field: "session" } },
};

const verificationTokens: Table = {
  name: "verification_token",
  doc: "The tokens of email sign-in links, stored hashed.",
  since: "init",
  fromAuthjs: true,
  columns: [
    { name: "identifier", type: "text", required: true },
    { name: "expires", type: "timestamp", required: true },
    { name: "token", type: "text", required: true },
  ],
  primaryKey: ["identifier", "token"],
  indexes: [],
  hostedStore: {
    name: "svc_verificationTokens",
    keyIndexes: [{ name: "svc_verificationTokens_identifier_token_key", columns: ["identifier", "token"], unique: true }],
  },
};

const authenticators: Table = {
  name: "authenticators",
  doc: "WebAuthn credentials (passkeys).",
  since: "init",
  columns: [
    { name: "credentialID", type: "text", required: true, primaryKey: true },
    { name: "userId", type: "id", required: true, referencesUser: true },
    { name: "providerAccountId", type: "text", required: true },
    { name: "credentialPublicKey", type: "text", required: true },
    { name: "counter", type: "bigint", required: true, doc: "The WebAuthn signature counter: an unsigned 32-bit number, beyond a 32-bit integer's range." },
    { name: "credentialDeviceType", type: "text", required: true },
    { name: "credentialBackedUp", type: "boolean", required: true },
    { name: "transports", type: "text" },
    { name: "name", type: "text", since: "account_management", doc: "The user's name for the passkey; it starts as the browser that registered it." },
    { name: "createdAt", type: "timestamp", default: { kind: "now" }, recordTime: "created", since: "account_management", doc: "When the passkey was added." },
    { name: "lastUsedAt", type: "timestamp", since: "account_management", doc: "Moves with each sign-in (the counter update)." },
  ],
  indexes: [{ name: "authenticators_user_id_idx", columns: ["userId"] }],
  hostedStore: {
    name: "svc_authenticators",
    keyIndexes: [{ name: "svc_authenticators_credential_id_key", columns: ["credentialID"], unique: true }],
  },
};

const rateLimits: Table = {
  name: "rate_limits",
  doc: "The sign-in counts of the rate limit store, one row per key (`ip:<address>` or `id:<provider>:<hash>`: no address or username in clear). A row counts the attempts of one fixed window, which ends at `expires`.",
  since: "rate_limits",
  columns: [
    { name: "key", type: "text", required: true, primaryKey: true },
    { name: "count", type: "integer", required: true },
    { name: "expires", type: "timestamp", required: true },
  ],
  indexes: [{ name: "rate_limits_expires_idx", columns: ["expires"], doc: "The sweep of ended windows." }],
  // Added to the hosted store after its first three migrations had shipped: its step comes last there.
  hostedStore: {
    name: "svc_rate_limits",
    since: "hosted_rate_limits",
    required: ["key", "count", "expires"],
    modelOrder: true,
    keyIndexes: [{ name: "svc_rate_limits_key_key", columns: ["key"], unique: true }],
    indexes: [{ name: "svc_rate_limits_expires_idx", columns: ["expires"] }],
  },
};

const userPasswords: Table = {
  name: "user_passwords",
  doc: "The password of an email + password account, one row per user: the hash (its parameters stored with it) and when it last changed. Kept apart from users, so no query for a user ever returns a hash.",
  since: "user_passwords",
  columns: [
    { name: "userId", type: "id", required: true, primaryKey: true, referencesUser: true },
    { name: "hash", type: "text", required: true },
    { name: "updatedAt", type: "timestamp", required: true, default: { kind: "now" }, recordTime: "updated" },
  ],
  indexes: [],
  hostedStore: { name: "svc_user_passwords", required: ["user", "hash"], modelOrder: true, onePerUser: true },
};

export const authSchema: Schema = {
  steps: [
    { id: "init", summary: "the Auth.js tables and passkeys" },
    { id: "rate_limits", summary: "sign-in rate limits", skippedBy: ["hosted-store"] },
    { id: "user_passwords", summary: "passwords" },
    { id: "account_management", summary: 'what a user\'s account page needs (the list of sessions, "sign out everywhere", the list of passkeys)' },
    // The hosted store's rate_limits (the other dialects have them from their 0002).
    { id: "hosted_rate_limits", summary: "sign-in rate limits", skippedBy: ["postgres", "sqlite"] },
  ],
  tables: [users, accounts, sessions, verificationTokens, authenticators, rateLimits, userPasswords],
};
