// Generated from runtime/migrations/postgres/*.sql by test/adapters/support/inline-migrations.mjs.
// Do not edit: edit the .sql file and run that script (a test fails while they differ).
import type { Migration } from "./migrate.js";

/** The schema's migrations, in order: the same SQL as `migrations/postgres/*.sql` in this package. */
export const migrations: readonly Migration[] = [
  {
    name: "0001_init",
    sql: `-- gatehouse PostgreSQL schema, migration 0001.
--
-- The tables, names and columns of the Auth.js PostgreSQL schema (the one
-- @auth/pg-adapter documents), so an Auth.js database can be adopted and
-- @auth/pg-adapter runs on this one, plus what the adapter contract needs:
-- text ids (callers choose UUIDs), one user per email, one link per provider
-- account, unique session tokens, foreign keys that cascade when a user is
-- deleted, and WebAuthn authenticators.
--
-- Every statement checks before it changes something, so this file is safe to
-- run on an empty database, on an Auth.js database and twice in a row. On an
-- Auth.js database the existing tables and rows are kept and completed.
-- Apply it with \`migrate()\` from @gatehouse/runtime/adapters/postgres, or with
-- your own migration tool.

CREATE TABLE IF NOT EXISTS users (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  name text,
  email text,
  "emailVerified" timestamptz,
  image text
);

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

CREATE TABLE IF NOT EXISTS sessions (
  id serial PRIMARY KEY,
  "userId" text NOT NULL,
  expires timestamptz NOT NULL,
  "sessionToken" text NOT NULL
);

CREATE TABLE IF NOT EXISTS verification_token (
  identifier text NOT NULL,
  expires timestamptz NOT NULL,
  token text NOT NULL,
  PRIMARY KEY (identifier, token)
);

-- Older Auth.js schemas lack session_state; OIDC providers send it.
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS session_state text;

-- Auth.js creates integer ids (serial). The contract's user ids are strings and
-- new users get UUIDs, so widen an integer id to text; existing ids keep their
-- values ("1", "2", ...). Fails (and rolls back) if a table of yours has a
-- foreign key to users(id): change that column to text first.
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

-- Lookups the adapter makes on every sign-in and request; unique so that two
-- concurrent sign-ups with one email, or two links of one provider account,
-- cannot both succeed.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_provider_account_key ON accounts (provider, "providerAccountId");
CREATE UNIQUE INDEX IF NOT EXISTS sessions_session_token_key ON sessions ("sessionToken");
-- Deleting a user cascades through these.
CREATE INDEX IF NOT EXISTS accounts_user_id_idx ON accounts ("userId");
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON sessions ("userId");

-- Auth.js's schema has no foreign keys, and @auth/pg-adapter deletes a user
-- before its sessions and accounts, outside a transaction: rows of a deleted
-- user can remain. They can never be used again (every lookup joins the user),
-- so they go before the foreign key that would reject them is added.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'accounts'::regclass AND conname = 'accounts_userId_fkey') THEN
    DELETE FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a."userId");
    ALTER TABLE accounts ADD CONSTRAINT "accounts_userId_fkey"
      FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'sessions'::regclass AND conname = 'sessions_userId_fkey') THEN
    DELETE FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s."userId");
    ALTER TABLE sessions ADD CONSTRAINT "sessions_userId_fkey"
      FOREIGN KEY ("userId") REFERENCES users (id) ON DELETE CASCADE;
  END IF;
END
$$;

-- WebAuthn credentials. counter is bigint: the WebAuthn signature counter is an
-- unsigned 32-bit number, beyond integer's range.
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
`,
  },

  {
    name: "0002_rate_limits",
    sql: `-- gatehouse PostgreSQL schema, migration 0002: sign-in rate limits.
--
-- The counts of \`PostgresRateLimitStore\` (rateLimit.store in the config), one
-- row per key: \`ip:<address>\` or \`id:<provider>:<hash>\` (a SHA-256 with the
-- secret: no address or username is stored in clear). A row counts the
-- attempts of one fixed window, which ends at \`expires\`; the store's one
-- statement (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) adds a hit
-- atomically and starts a new window once \`expires\` has passed, and rows whose
-- window has ended are deleted as the store goes. Unused, the table stays empty.
--
-- Safe to run twice. Apply it with \`migrate()\` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.

CREATE TABLE IF NOT EXISTS rate_limits (
  key text NOT NULL PRIMARY KEY,
  count integer NOT NULL,
  expires timestamptz NOT NULL
);

-- The sweep of ended windows.
CREATE INDEX IF NOT EXISTS rate_limits_expires_idx ON rate_limits (expires);
`,
  },

  {
    name: "0003_user_passwords",
    sql: `-- gatehouse PostgreSQL schema, migration 0003: passwords.
--
-- The password of an email + password account (the sign-up form of an app
-- \`auth-init\` makes), one row per user: the hash (its parameters stored with
-- it) and when it last changed. Hashes are kept apart from the users table, so
-- no query for a user (or a session and its user) ever returns one by accident.
-- The row goes with its user (ON DELETE CASCADE); the adapter's
-- \`adoptUnprovenUser\` deletes it too, when the person who proves the user's
-- email address takes over a user someone else had only claimed it for.
--
-- The very table that apps made by \`auth-init\` created themselves until now
-- (their migration \`app_0001_user_passwords\`): on a database where theirs ran,
-- this changes nothing, and theirs changes nothing after this one. Safe to run
-- twice. Apply it with \`migrate()\` from @gatehouse/runtime/adapters/postgres, or
-- with your own migration tool.

CREATE TABLE IF NOT EXISTS user_passwords (
  "userId" text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  hash text NOT NULL,
  "updatedAt" timestamptz NOT NULL DEFAULT now()
);
`,
  },

  {
    name: "0004_account_management",
    sql: `-- gatehouse PostgreSQL schema, migration 0004: what a user's account page
-- needs (the list of sessions, "sign out everywhere", the list of passkeys).
--
-- sessions."createdAt": when the session was created (the sign-in).
-- sessions."userAgent": the browser that signed in (at most 512 characters),
--   shown in the list so its owner can tell the sessions apart.
--   Sessions stored before this migration keep NULL in both: the column is
--   added without a default, which is set afterwards, so no old session claims
--   to have been created now.
-- users."sessionVersion": how often the user's sessions were revoked ("sign out
--   everywhere", a password change or reset). A JWT session carries the version
--   it was issued with and ends once it differs; the adapter's
--   \`revokeUserSessions\` increments it and deletes the database sessions in one
--   transaction.
-- authenticators.name, "createdAt", "lastUsedAt": what the list of passkeys
--   shows. The name is the user's (it starts as the browser that registered
--   the passkey); "lastUsedAt" moves with each sign-in (the counter update).
--   Passkeys stored before keep NULL in all three.
--
-- Safe to run twice. Apply it with \`migrate()\` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.

ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE sessions ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS name text;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE authenticators ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;
`,
  },

];
