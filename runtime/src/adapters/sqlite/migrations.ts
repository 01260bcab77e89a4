// Generated from runtime/migrations/sqlite/*.sql by test/adapters/support/inline-migrations.mjs.
// Do not edit: edit the .sql file and run that script (a test fails while they differ).
import type { Migration } from "./migrate.js";

/** The schema's migrations, in order: the same SQL as `migrations/sqlite/*.sql` in this package. */
export const migrations: readonly Migration[] = [
  {
    name: "0001_init",
    sql: `-- gatehouse SQLite schema, migration 0001.
--
-- The tables and columns of the PostgreSQL schema (migrations/postgres), which
-- are Auth.js's: users, accounts, sessions, verification_token, plus
-- authenticators (WebAuthn); the service's own fields camelCase and quoted,
-- the OAuth fields snake_case; text ids. SQLite types:
--
-- - dates (emailVerified, expires) are INTEGER milliseconds since the epoch:
--   exact to the millisecond like a JavaScript Date, compared as numbers;
-- - booleans (credentialBackedUp) are INTEGER 0 or 1;
-- - expires_at is INTEGER seconds, as the adapter contract stores it.
--
-- Tables are STRICT (SQLite >= 3.37; the adapter's RETURNING needs >= 3.35):
-- a value of the wrong type is refused instead of stored as it came.
--
-- Foreign keys cascade only on a connection with \`PRAGMA foreign_keys = ON\`.
-- SQLite turns them off for every new connection; the adapter's wrappers
-- turn them on. Other tools writing to this database must do the same.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with \`migrate()\` from @gatehouse/runtime/adapters/sqlite,
-- or with your own migration tool.

-- An id is a UUID (version 4) when a row is inserted without one; the adapter
-- passes its own (the caller's, or crypto.randomUUID()).
CREATE TABLE IF NOT EXISTS users (
  id TEXT NOT NULL PRIMARY KEY DEFAULT (lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))
  )),
  name TEXT,
  email TEXT,
  "emailVerified" INTEGER,
  image TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  provider TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at INTEGER,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires INTEGER NOT NULL,
  "sessionToken" TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  expires INTEGER NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
) STRICT;

-- WebAuthn credentials. counter is INTEGER (64-bit in SQLite): the WebAuthn
-- signature counter is an unsigned 32-bit number.
CREATE TABLE IF NOT EXISTS authenticators (
  "credentialID" TEXT NOT NULL PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  counter INTEGER NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" INTEGER NOT NULL CHECK ("credentialBackedUp" IN (0, 1)),
  transports TEXT
) STRICT;

-- Lookups the adapter makes on every sign-in and request; unique so that two
-- sign-ups with one email, or two links of one provider account, cannot both
-- succeed. The same index names as the PostgreSQL schema.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId");
CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken");
-- Deleting a user cascades through these; without an index each cascade scans the table.
CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId");
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId");
CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators ("userId");
`,
  },

  {
    name: "0002_rate_limits",
    sql: `-- gatehouse SQLite schema, migration 0002: sign-in rate limits.
--
-- The counts of \`SqliteRateLimitStore\` (rateLimit.store in the config), one
-- row per key: \`ip:<address>\` or \`id:<provider>:<hash>\` (a SHA-256 with the
-- secret: no address or username is stored in clear). A row counts the
-- attempts of one fixed window, which ends at \`expires\` (INTEGER milliseconds
-- since the epoch, as every date of this schema); the store's one statement
-- (INSERT ... ON CONFLICT DO UPDATE ... RETURNING, SQLite >= 3.35) adds a hit
-- atomically and starts a new window once \`expires\` has passed, and rows whose
-- window has ended are deleted as the store goes. Unused, the table stays empty.
--
-- Safe to run twice. Apply it with \`migrate()\` from
-- @gatehouse/runtime/adapters/sqlite, or with your own migration tool.

CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT NOT NULL PRIMARY KEY,
  count INTEGER NOT NULL,
  expires INTEGER NOT NULL
) STRICT;

-- The sweep of ended windows.
CREATE INDEX IF NOT EXISTS rate_limits_expires_idx ON rate_limits (expires);
`,
  },

  {
    name: "0003_user_passwords",
    sql: `-- gatehouse SQLite schema, migration 0003: passwords.
--
-- The password of an email + password account (the sign-up form of an app
-- \`auth-init\` makes), one row per user: the hash (its parameters stored with
-- it) and when it last changed, INTEGER milliseconds as every date of this
-- schema (the default, from unixepoch('subsec'), needs SQLite >= 3.42).
-- Hashes are kept apart from the users table, so no query for a user (or a
-- session and its user) ever returns one by accident. The row goes with its
-- user (ON DELETE CASCADE, on a connection with foreign keys on); the
-- adapter's \`adoptUnprovenUser\` deletes it too, when the person who proves the
-- user's email address takes over a user someone else had only claimed it for.
--
-- The very table that apps made by \`auth-init\` created themselves until now
-- (their migration \`app_0001_user_passwords\`): on a database where theirs ran,
-- this changes nothing, and theirs changes nothing after this one. Safe to run
-- twice. Apply it with \`migrate()\` from @gatehouse/runtime/adapters/sqlite, or
-- with your own migration tool.

CREATE TABLE IF NOT EXISTS user_passwords (
  "userId" TEXT NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  hash TEXT NOT NULL,
  "updatedAt" INTEGER NOT NULL DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER))
) STRICT;
`,
  },

  {
    name: "0004_account_management",
    sql: `-- gatehouse SQLite schema, migration 0004: what a user's account page needs
-- (the list of sessions, "sign out everywhere", the list of passkeys).
--
-- sessions."createdAt": when the session was created (the sign-in), INTEGER
--   milliseconds as every date of this schema; the adapter writes it (SQLite
--   cannot add a column whose default is the current time).
-- sessions."userAgent": the browser that signed in (at most 512 characters),
--   shown in the list so its owner can tell the sessions apart.
--   Sessions stored before this migration keep NULL in both.
-- users."sessionVersion": how often the user's sessions were revoked ("sign out
--   everywhere", a password change or reset). A JWT session carries the version
--   it was issued with and ends once it differs; the adapter's
--   \`revokeUserSessions\` increments it and deletes the database sessions in one
--   transaction.
-- authenticators.name, "createdAt", "lastUsedAt": what the list of passkeys
--   shows. The name is the user's (it starts as the browser that registered
--   the passkey); "lastUsedAt" moves with each sign-in (the counter update).
--   The adapter writes both dates. Passkeys stored before keep NULL in all three.
--
-- SQLite has no ADD COLUMN IF NOT EXISTS: \`migrate()\` from
-- @gatehouse/runtime/adapters/sqlite applies this file once (it records it);
-- with your own migration tool, apply it once.

ALTER TABLE sessions ADD COLUMN "createdAt" INTEGER;
ALTER TABLE sessions ADD COLUMN "userAgent" TEXT;
ALTER TABLE users ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE authenticators ADD COLUMN name TEXT;
ALTER TABLE authenticators ADD COLUMN "createdAt" INTEGER;
ALTER TABLE authenticators ADD COLUMN "lastUsedAt" INTEGER;
`,
  },

];
