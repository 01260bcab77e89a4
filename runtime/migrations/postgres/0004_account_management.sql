-- gatehouse PostgreSQL schema, migration 0004: what a user's account page
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
--   `revokeUserSessions` increments it and deletes the database sessions in one
--   transaction.
-- authenticators.name, "createdAt", "lastUsedAt": what the list of passkeys
--   shows. The name is the user's (it starts as the browser that registered
--   the passkey); "lastUsedAt" moves with each sign-in (the counter update).
--   Passkeys stored before keep NULL in all three.
--
-- Safe to run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.

ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE sessions ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS name text;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE authenticators ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;
