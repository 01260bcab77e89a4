-- gatehouse PostgreSQL schema, migration 0003: passwords.
--
-- The password of an email + password account (the sign-up form of an app
-- `auth-init` makes), one row per user: the hash (its parameters stored with
-- it) and when it last changed. Hashes are kept apart from the users table, so
-- no query for a user (or a session and its user) ever returns one by accident.
-- The row goes with its user (ON DELETE CASCADE); the adapter's
-- `adoptUnprovenUser` deletes it too, when the person who proves the user's
-- email address takes over a user someone else had only claimed it for.
--
-- The very table that apps made by `auth-init` created themselves until now
-- (their migration `app_0001_user_passwords`): on a database where theirs ran,
-- this changes nothing, and theirs changes nothing after this one. Safe to run
-- twice. Apply it with `migrate()` from @gatehouse/runtime/adapters/postgres, or
-- with your own migration tool.

CREATE TABLE IF NOT EXISTS user_passwords (
  "userId" text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  hash text NOT NULL,
  "updatedAt" timestamptz NOT NULL DEFAULT now()
);
