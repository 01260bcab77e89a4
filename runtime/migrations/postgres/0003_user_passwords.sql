-- gatehouse PostgreSQL schema, migration 0003: passwords.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- The password of an email + password account, one row per user: the hash (its
-- parameters stored with it) and when it last changed. Kept apart from users,
-- so no query for a user ever returns a hash.
CREATE TABLE IF NOT EXISTS user_passwords (
  "userId" text NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  hash text NOT NULL,
  "updatedAt" timestamptz NOT NULL DEFAULT now()
);
