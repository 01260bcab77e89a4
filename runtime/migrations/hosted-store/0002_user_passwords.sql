-- gatehouse hosted-store schema (the svc_ tables), migration 0002: passwords.
--
-- The password of an email + password account (the sign-up form of an app
-- `auth-init` makes), one record per user: the hash (its parameters stored
-- with it), with the record metadata of the svc_ tables (id, created_at,
-- updated_at, version, kept by svc_touch() from 0001) and a unique "user"
-- link to svc_users. Hashes are kept apart from svc_users, so no query for a
-- user (or a session and its user) ever returns one by accident. Not in the
-- specification's hosted-store schema: our extension, like svc_authenticators.
-- The record goes with its user (ON DELETE CASCADE); the adapter's
-- `adoptUnprovenUser` deletes it too, when the person who proves the user's
-- email address takes over a user someone else had only claimed it for.
--
-- The very table that apps made by `auth-init` created themselves until now
-- (their migration `app_0001_user_passwords`): on a branch where theirs ran,
-- this changes nothing, and theirs changes nothing after this one. Runs inside
-- the branch's schema, like 0001; safe to run twice.

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
