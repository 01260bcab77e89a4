-- gatehouse SQLite schema, migration 0001.
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
-- Foreign keys cascade only on a connection with `PRAGMA foreign_keys = ON`.
-- SQLite turns them off for every new connection; the adapter's wrappers
-- turn them on. Other tools writing to this database must do the same.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from @gatehouse/runtime/adapters/sqlite,
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
