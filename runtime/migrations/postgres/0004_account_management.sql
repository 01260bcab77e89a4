-- gatehouse PostgreSQL schema, migration 0004: what a user's account page
-- needs (the list of sessions, "sign out everywhere", the list of passkeys).
--
-- users."sessionVersion": how often the user's sessions were revoked ("sign
-- out everywhere", a password change or reset). A JWT session carries the
-- version it was issued with and ends once it differs; the adapter's
-- `revokeUserSessions` increments it and deletes the database sessions in one
-- transaction.
--
-- sessions."createdAt": when the session was created (the sign-in). Sessions
-- stored before this column keep NULL.
--
-- sessions."userAgent": the browser that signed in (at most 512 characters),
-- shown in the list of sessions so its owner can tell them apart.
--
-- authenticators.name: the user's name for the passkey; it starts as the
-- browser that registered it.
--
-- authenticators."createdAt": when the passkey was added.
--
-- authenticators."lastUsedAt": moves with each sign-in (the counter update).
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

ALTER TABLE users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE sessions ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS name text;
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;
ALTER TABLE authenticators ALTER COLUMN "createdAt" SET DEFAULT now();
ALTER TABLE authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;
