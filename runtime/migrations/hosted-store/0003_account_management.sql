-- gatehouse hosted-store schema (the svc_ tables), migration 0003: what a
-- user's account page needs (the list of sessions, "sign out everywhere", the
-- list of passkeys).
--
-- svc_users."sessionVersion": how often the user's sessions were revoked
-- ("sign out everywhere", a password change or reset). A JWT session carries
-- the version it was issued with and ends once it differs; the adapter's
-- `revokeUserSessions` increments it and deletes the database sessions in one
-- transaction.
--
-- svc_sessions."userAgent": the browser that signed in (at most 512
-- characters), shown in the list of sessions so its owner can tell them apart.
--
-- svc_authenticators.name: the user's name for the passkey; it starts as the
-- browser that registered it.
--
-- svc_authenticators."lastUsedAt": moves with each sign-in (the counter
-- update).
--
-- Runs inside the branch's schema; every statement checks before it changes
-- something, so running this file twice is harmless.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

ALTER TABLE svc_users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
ALTER TABLE svc_sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE svc_authenticators ADD COLUMN IF NOT EXISTS name text;
ALTER TABLE svc_authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;
