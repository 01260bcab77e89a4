-- gatehouse SQLite schema, migration 0003: passwords.
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

-- The password of an email + password account, one row per user: the hash (its
-- parameters stored with it) and when it last changed. Kept apart from users,
-- so no query for a user ever returns a hash.
CREATE TABLE IF NOT EXISTS user_passwords (
  "userId" TEXT NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  hash TEXT NOT NULL,
  "updatedAt" INTEGER NOT NULL DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER))
) STRICT;
