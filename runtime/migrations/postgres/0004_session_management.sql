-- gatehouse PostgreSQL schema, migration 0004: what a user's list of sessions
-- and "sign out everywhere" need.
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
--   `revokeUserSessions` increments it and deletes the database sessions in one
--   transaction.
--
-- Safe to run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.

ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE sessions ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
