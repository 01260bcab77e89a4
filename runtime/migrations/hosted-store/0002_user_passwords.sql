-- gatehouse hosted-store schema (the svc_ tables), migration 0002: passwords.
--
-- Runs inside the branch's schema; every statement checks before it changes
-- something, so running this file twice is harmless. Needs PostgreSQL 14 or
-- later (CREATE OR REPLACE TRIGGER).
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- The password of an email + password account, one row per user: the hash (its
-- parameters stored with it) and when it last changed. Kept apart from users,
-- so no query for a user ever returns a hash.
CREATE TABLE IF NOT EXISTS svc_user_passwords (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  "user" text NOT NULL UNIQUE REFERENCES svc_users (id) ON DELETE CASCADE,
  hash text NOT NULL
);



CREATE OR REPLACE TRIGGER svc_user_passwords_touch BEFORE UPDATE ON svc_user_passwords
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
