-- gatehouse SQLite schema, migration 0004: what a user's account page needs
-- (the list of sessions, "sign out everywhere", the list of passkeys).
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
-- SQLite cannot add a column whose default is the current time: the adapter
-- writes those dates. Rows stored before keep NULL.
--
-- SQLite has no ADD COLUMN IF NOT EXISTS: `migrate()` from
-- @gatehouse/runtime/adapters/sqlite applies this file once (it records it);
-- with your own migration tool, apply it once.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

ALTER TABLE users ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN "createdAt" INTEGER;
ALTER TABLE sessions ADD COLUMN "userAgent" TEXT;
ALTER TABLE authenticators ADD COLUMN name TEXT;
ALTER TABLE authenticators ADD COLUMN "createdAt" INTEGER;
ALTER TABLE authenticators ADD COLUMN "lastUsedAt" INTEGER;
