-- gatehouse hosted-store schema (the svc_ tables), migration 0003: what a
-- user's account page needs (the list of sessions, "sign out everywhere", the
-- list of passkeys).
--
-- svc_sessions."userAgent": the browser that signed in (at most 512
--   characters), shown in the list so its owner can tell the sessions apart;
--   NULL for sessions stored before. When a session was created is its record's
--   created_at (0001).
-- svc_users."sessionVersion": how often the user's sessions were revoked ("sign
--   out everywhere", a password change or reset). A JWT session carries the
--   version it was issued with and ends once it differs; the adapter's
--   `revokeUserSessions` increments it and deletes the database sessions in one
--   transaction. (Not the record's own `version`, which every update moves.)
-- svc_authenticators.name, "lastUsedAt": what the list of passkeys shows (when
--   one was added is its record's created_at). The name is the user's (it
--   starts as the browser that registered the passkey); "lastUsedAt" moves with
--   each sign-in (the counter update). NULL for passkeys stored before.
--
-- Runs inside the branch's schema, like 0001; safe to run twice.

ALTER TABLE svc_sessions ADD COLUMN IF NOT EXISTS "userAgent" text;
ALTER TABLE svc_users ADD COLUMN IF NOT EXISTS "sessionVersion" integer NOT NULL DEFAULT 0;
ALTER TABLE svc_authenticators ADD COLUMN IF NOT EXISTS name text;
ALTER TABLE svc_authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;
