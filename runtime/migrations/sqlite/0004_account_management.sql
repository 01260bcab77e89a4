-- gatehouse SQLite schema, migration 0004: what a user's account page needs
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
--   `revokeUserSessions` increments it and deletes the database sessions in one
--   transaction.
-- authenticators.name, "createdAt", "lastUsedAt": what the list of passkeys
--   shows. The name is the user's (it starts as the browser that registered
--   the passkey); "lastUsedAt" moves with each sign-in (the counter update).
--   The adapter writes both dates. Passkeys stored before keep NULL in all three.
--
-- SQLite has no ADD COLUMN IF NOT EXISTS: `migrate()` from
-- @gatehouse/runtime/adapters/sqlite applies this file once (it records it);
-- with your own migration tool, apply it once.

ALTER TABLE sessions ADD COLUMN "createdAt" INTEGER;
ALTER TABLE sessions ADD COLUMN "userAgent" TEXT;
ALTER TABLE users ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE authenticators ADD COLUMN name TEXT;
ALTER TABLE authenticators ADD COLUMN "createdAt" INTEGER;
ALTER TABLE authenticators ADD COLUMN "lastUsedAt" INTEGER;
