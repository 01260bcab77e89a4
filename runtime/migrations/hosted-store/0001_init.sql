-- gatehouse hosted-store schema (the svc_ tables), migration 0001: the Auth.js
-- tables and passkeys.
--
-- The tables and fields of the specification's hosted-store schema: every
-- field nullable, camelCase for the service's own fields, snake_case for OAuth
-- values, links as foreign keys to the linked record's id, and the record
-- metadata (id, created_at, updated_at, version; svc_touch() keeps the last
-- two). What the adapter contract needs and the specification leaves open:
-- unique lookups, links that cascade on delete, and join records whose user is
-- the one their account or session links to (the composite foreign keys).
-- svc_authenticators (WebAuthn) is our extension.
--
-- Runs inside the branch's schema; every statement checks before it changes
-- something, so running this file twice is harmless. Needs PostgreSQL 14 or
-- later (CREATE OR REPLACE TRIGGER).
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

CREATE OR REPLACE FUNCTION svc_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;

-- One row per person.
CREATE TABLE IF NOT EXISTS svc_users (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  email text,
  "emailVerified" timestamptz,
  image text,
  name text
);

-- The OAuth and OIDC accounts linked to a user, with their tokens.
CREATE TABLE IF NOT EXISTS svc_accounts (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  access_token text,
  expires_at bigint,
  id_token text,
  provider text,
  "providerAccountId" text,
  refresh_token text,
  scope text,
  session_state text,
  token_type text,
  type text,
  "user" text REFERENCES svc_users (id) ON DELETE CASCADE,
  UNIQUE (id, "user")
);

-- Database sessions.
CREATE TABLE IF NOT EXISTS svc_sessions (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  expires timestamptz,
  "sessionToken" text,
  "user" text REFERENCES svc_users (id) ON DELETE CASCADE,
  UNIQUE (id, "user")
);

-- The tokens of email sign-in links, stored hashed.
CREATE TABLE IF NOT EXISTS "svc_verificationTokens" (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  expires timestamptz,
  identifier text,
  token text
);

-- WebAuthn credentials (passkeys).
CREATE TABLE IF NOT EXISTS svc_authenticators (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  counter bigint,
  "credentialBackedUp" boolean,
  "credentialDeviceType" text,
  "credentialID" text,
  "credentialPublicKey" text,
  "providerAccountId" text,
  transports text,
  "user" text REFERENCES svc_users (id) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS svc_users_accounts (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  account text UNIQUE REFERENCES svc_accounts (id) ON DELETE CASCADE,
  "user" text REFERENCES svc_users (id) ON DELETE CASCADE,
  FOREIGN KEY (account, "user") REFERENCES svc_accounts (id, "user") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE IF NOT EXISTS svc_users_sessions (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  session text UNIQUE REFERENCES svc_sessions (id) ON DELETE CASCADE,
  "user" text REFERENCES svc_users (id) ON DELETE CASCADE,
  FOREIGN KEY (session, "user") REFERENCES svc_sessions (id, "user") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX IF NOT EXISTS svc_users_email_key ON svc_users (email);
CREATE UNIQUE INDEX IF NOT EXISTS svc_accounts_provider_account_key ON svc_accounts (provider, "providerAccountId");
CREATE INDEX IF NOT EXISTS svc_accounts_user_idx ON svc_accounts ("user");
CREATE INDEX IF NOT EXISTS svc_users_accounts_user_idx ON svc_users_accounts ("user");
CREATE UNIQUE INDEX IF NOT EXISTS svc_sessions_session_token_key ON svc_sessions ("sessionToken");
CREATE INDEX IF NOT EXISTS svc_sessions_user_idx ON svc_sessions ("user");
CREATE INDEX IF NOT EXISTS svc_users_sessions_user_idx ON svc_users_sessions ("user");
CREATE UNIQUE INDEX IF NOT EXISTS "svc_verificationTokens_identifier_token_key" ON "svc_verificationTokens" (identifier, token);
CREATE UNIQUE INDEX IF NOT EXISTS svc_authenticators_credential_id_key ON svc_authenticators ("credentialID");
CREATE INDEX IF NOT EXISTS svc_authenticators_user_idx ON svc_authenticators ("user");

CREATE OR REPLACE TRIGGER svc_users_touch BEFORE UPDATE ON svc_users
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_accounts_touch BEFORE UPDATE ON svc_accounts
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_users_accounts_touch BEFORE UPDATE ON svc_users_accounts
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_sessions_touch BEFORE UPDATE ON svc_sessions
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_users_sessions_touch BEFORE UPDATE ON svc_users_sessions
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER "svc_verificationTokens_touch" BEFORE UPDATE ON "svc_verificationTokens"
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_authenticators_touch BEFORE UPDATE ON svc_authenticators
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
