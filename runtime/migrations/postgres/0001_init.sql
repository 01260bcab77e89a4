-- gatehouse PostgreSQL schema, migration 0001: the Auth.js tables and
-- passkeys.
--
-- The tables, names and columns of the Auth.js PostgreSQL schema (the one
-- @auth/pg-adapter documents), so an Auth.js database is adopted and
-- @auth/pg-adapter runs on this one, plus what the adapter contract needs:
-- text ids, one user per email, one link per provider account, unique session
-- tokens, foreign keys that cascade when a user is deleted. On an Auth.js
-- database the existing tables and rows are kept and completed.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- One row per person.
CREATE TABLE IF NOT EXISTS users (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  name text,
  email text,
  "emailVerified" timestamptz,
  image text
);

-- The OAuth and OIDC accounts linked to a user, with their tokens.
CREATE TABLE IF NOT EXISTS accounts (
  id serial PRIMARY KEY,
  "userId" text NOT NULL,
  type text NOT NULL,
  provider text NOT NULL,
  "providerAccountId" text NOT NULL,
  refresh_token text,
  access_token text,
  expires_at bigint,
  id_token text,
  scope text,
  session_state text,
  token_type text
);

-- Database sessions.
CREATE TABLE IF NOT EXISTS sessions (
  id serial PRIMARY KEY,
  "userId" text NOT NULL,
  expires timestamptz NOT NULL,
  "sessionToken" text NOT NULL
);

-- The tokens of email sign-in links, stored hashed.
CREATE TABLE IF NOT EXISTS verification_token (
  identifier text NOT NULL,
  expires timestamptz NOT NULL,
  token text NOT NULL,
  PRIMARY KEY (identifier, token)
);

-- Older Auth.js schemas lack it; OIDC providers send it.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS session_state text;

-- Auth.js creates integer ids (serial). The contract's user ids are strings
-- and new users get UUIDs, so an integer id is widened to text; existing ids
-- keep their values ("1", "2", ...). Fails (and rolls back) if a table of
-- yours has a foreign key to users(id): change that column to text first.
DO $$
BEGIN
  IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 'users'::regclass AND attname = 'id') <> 'text'::regtype THEN
    ALTER TABLE users ALTER COLUMN id DROP IDENTITY IF EXISTS;
    ALTER TABLE users
      ALTER COLUMN id DROP DEFAULT,
      ALTER COLUMN id TYPE text USING id::text,
      ALTER COLUMN id SET DEFAULT gen_random_uuid()::text;
  END IF;
  IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname = 'userId') <> 'text'::regtype THEN
    ALTER TABLE accounts ALTER COLUMN "userId" TYPE text USING "userId"::text;
  END IF;
  IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 'sessions'::regclass AND attname = 'userId') <> 'text'::regtype THEN
    ALTER TABLE sessions ALTER COLUMN "userId" TYPE text USING "userId"::text;
  END IF;
END
$$;

-- Two concurrent sign-ups with one address cannot both succeed.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);

-- Two links of one provider account cannot both succeed.
CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId");
CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId");

CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken");
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId");

-- Auth.js's schema has no foreign keys, and @auth/pg-adapter deletes a user
-- before its sessions and accounts, outside a transaction: rows of a deleted
-- user can remain. They can never be used again (every lookup joins the user),
-- so they go before the foreign key that would reject them is added.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'accounts'::regclass AND conname = 'accounts_userId_fkey') THEN
    DELETE FROM accounts t WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t."userId");
    ALTER TABLE accounts ADD CONSTRAINT "accounts_userId_fkey"
      FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'sessions'::regclass AND conname = 'sessions_userId_fkey') THEN
    DELETE FROM sessions t WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = t."userId");
    ALTER TABLE sessions ADD CONSTRAINT "sessions_userId_fkey"
      FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE;
  END IF;
END
$$;

-- WebAuthn credentials (passkeys).
CREATE TABLE IF NOT EXISTS authenticators (
  "credentialID" text NOT NULL PRIMARY KEY,
  "userId" text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  "providerAccountId" text NOT NULL,
  "credentialPublicKey" text NOT NULL,
  counter bigint NOT NULL,
  "credentialDeviceType" text NOT NULL,
  "credentialBackedUp" boolean NOT NULL,
  transports text
);

CREATE INDEX IF NOT EXISTS authenticators_user_id_idx ON authenticators ("userId");
