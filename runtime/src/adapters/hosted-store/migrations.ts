// Generated from runtime/migrations/hosted-store/*.sql by test/adapters/support/inline-migrations.mjs.
// Do not edit: edit the .sql file and run that script (a test fails while they differ).
import type { Migration } from "./migrate.js";

/** The schema's migrations, in order: the same SQL as `migrations/hosted-store/*.sql` in this package. */
export const migrations: readonly Migration[] = [
  {
    name: "0001_init",
    sql: `-- gatehouse hosted-store schema (the svc_ tables), migration 0001.
--
-- The tables and fields of the specification's hosted-store schema, exactly:
-- every field optional and nullable, camelCase for the service's own fields,
-- snake_case for OAuth values, links as foreign keys to the linked record's id.
-- What the store adds to every record (its "record metadata"):
--   id          text, the record id; a UUID unless the writer gives one
--   created_at  when the record was created
--   updated_at  when it was last updated     } kept by the svc_touch() trigger,
--   version     0, then +1 on every update   } whoever writes
-- What the adapter contract needs and the specification leaves open:
--   - unique email, unique (provider, "providerAccountId"), unique
--     "sessionToken", unique (identifier, token): lookups by them find at most
--     one record, also when two requests race;
--   - every link cascades on delete: deleting a user removes its accounts,
--     sessions, authenticators and their join rows;
--   - a join row's user is the user its account or session links to: the
--     composite foreign keys below make the database refuse anything else, and
--     carry a session or account moved to another user over to its join row.
-- And one extension, not in the specification: svc_authenticators (WebAuthn),
-- so the adapter implements the whole contract.
--
-- Runs inside the branch's schema: \`migrate()\` sets search_path to it, so no
-- name here is schema-qualified. Every statement checks before it changes
-- something, so running this file twice is harmless. Needs PostgreSQL 14 or
-- later (CREATE OR REPLACE TRIGGER).

CREATE OR REPLACE FUNCTION svc_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;

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

-- expires_at is bigint: seconds since 1970 pass integer's range in 2038.
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
  -- Only what the join table's composite foreign key points at.
  UNIQUE (id, "user")
);

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

-- One join row per account (unique account). (account, "user") must be the
-- account's own (id, "user"): ON UPDATE CASCADE follows a change of the
-- account's user, ON DELETE CASCADE removes the row with the account.
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

-- The table name is camelCase as the specification spells it, so it is quoted.
CREATE TABLE IF NOT EXISTS "svc_verificationTokens" (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  expires timestamptz,
  identifier text,
  token text
);

-- Our extension: WebAuthn credentials, with the same record metadata and a
-- user link like the specification's tables. counter is bigint: the WebAuthn
-- signature counter is an unsigned 32-bit number, beyond integer's range.
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

-- Lookups the adapter makes on every sign-in and request; unique so that two
-- concurrent sign-ups with one email, or two links of one provider account,
-- cannot both succeed. NULLs are not equal to each other, so records without
-- the field do not collide.
CREATE UNIQUE INDEX IF NOT EXISTS svc_users_email_key ON svc_users (email);
CREATE UNIQUE INDEX IF NOT EXISTS svc_accounts_provider_account_key ON svc_accounts (provider, "providerAccountId");
CREATE UNIQUE INDEX IF NOT EXISTS svc_sessions_session_token_key ON svc_sessions ("sessionToken");
CREATE UNIQUE INDEX IF NOT EXISTS "svc_verificationTokens_identifier_token_key" ON "svc_verificationTokens" (identifier, token);
CREATE UNIQUE INDEX IF NOT EXISTS svc_authenticators_credential_id_key ON svc_authenticators ("credentialID");
-- Deleting a user cascades through these, and lists a user's authenticators.
CREATE INDEX IF NOT EXISTS svc_accounts_user_idx ON svc_accounts ("user");
CREATE INDEX IF NOT EXISTS svc_sessions_user_idx ON svc_sessions ("user");
CREATE INDEX IF NOT EXISTS svc_users_accounts_user_idx ON svc_users_accounts ("user");
CREATE INDEX IF NOT EXISTS svc_users_sessions_user_idx ON svc_users_sessions ("user");
CREATE INDEX IF NOT EXISTS svc_authenticators_user_idx ON svc_authenticators ("user");

CREATE OR REPLACE TRIGGER svc_users_touch BEFORE UPDATE ON svc_users
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_accounts_touch BEFORE UPDATE ON svc_accounts
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_sessions_touch BEFORE UPDATE ON svc_sessions
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_users_accounts_touch BEFORE UPDATE ON svc_users_accounts
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_users_sessions_touch BEFORE UPDATE ON svc_users_sessions
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER "svc_verificationTokens_touch" BEFORE UPDATE ON "svc_verificationTokens"
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
CREATE OR REPLACE TRIGGER svc_authenticators_touch BEFORE UPDATE ON svc_authenticators
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
`,
  },

  {
    name: "0002_user_passwords",
    sql: `-- gatehouse hosted-store schema (the svc_ tables), migration 0002: passwords.
--
-- The password of an email + password account (the sign-up form of an app
-- \`auth-init\` makes), one record per user: the hash (its parameters stored
-- with it), with the record metadata of the svc_ tables (id, created_at,
-- updated_at, version, kept by svc_touch() from 0001) and a unique "user"
-- link to svc_users. Hashes are kept apart from svc_users, so no query for a
-- user (or a session and its user) ever returns one by accident. Not in the
-- specification's hosted-store schema: our extension, like svc_authenticators.
-- The record goes with its user (ON DELETE CASCADE); the adapter's
-- \`adoptUnprovenUser\` deletes it too, when the person who proves the user's
-- email address takes over a user someone else had only claimed it for.
--
-- The very table that apps made by \`auth-init\` created themselves until now
-- (their migration \`app_0001_user_passwords\`): on a branch where theirs ran,
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
`,
  },

  {
    name: "0003_account_management",
    sql: `-- gatehouse hosted-store schema (the svc_ tables), migration 0003: what a
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
--   \`revokeUserSessions\` increments it and deletes the database sessions in one
--   transaction. (Not the record's own \`version\`, which every update moves.)
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
`,
  },

];
