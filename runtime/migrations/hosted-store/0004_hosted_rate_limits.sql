-- gatehouse hosted-store schema (the svc_ tables), migration 0004: sign-in
-- rate limits.
--
-- Runs inside the branch's schema; every statement checks before it changes
-- something, so running this file twice is harmless. Needs PostgreSQL 14 or
-- later (CREATE OR REPLACE TRIGGER).
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- The sign-in counts of the rate limit store, one row per key (`ip:<address>`
-- or `id:<provider>:<hash>`: no address or username in clear). A row counts
-- the attempts of one fixed window, which ends at `expires`.
CREATE TABLE IF NOT EXISTS svc_rate_limits (
  id text NOT NULL DEFAULT gen_random_uuid()::text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 0,
  key text NOT NULL,
  count integer NOT NULL,
  expires timestamptz NOT NULL
);

CREATE UNIQUE INDEX IF NOT EXISTS svc_rate_limits_key_key ON svc_rate_limits (key);
CREATE INDEX IF NOT EXISTS svc_rate_limits_expires_idx ON svc_rate_limits (expires);

CREATE OR REPLACE TRIGGER svc_rate_limits_touch BEFORE UPDATE ON svc_rate_limits
  FOR EACH ROW EXECUTE FUNCTION svc_touch();
