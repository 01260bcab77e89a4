-- gatehouse SQLite schema, migration 0001: the Auth.js tables and passkeys.
--
-- Foreign keys cascade only on a connection with `PRAGMA foreign_keys = ON`.
-- SQLite turns them off for every new connection; the adapter's wrappers turn
-- them on. Other tools writing to this database must do the same.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/sqlite, or with your own migration tool.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- One row per person.
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

-- The OAuth and OIDC accounts linked to a user, with their tokens.
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

-- Database sessions.
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires INTEGER NOT NULL,
  "sessionToken" TEXT NOT NULL
) STRICT;

-- The tokens of email sign-in links, stored hashed.
CREATE TABLE IF NOT EXISTS verification_token (
  identifier TEXT NOT NULL,
  expires INTEGER NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
) STRICT;

-- WebAuthn credentials (passkeys).
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

CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);

CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId");
CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId");

CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken");
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId");

CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators ("userId");
