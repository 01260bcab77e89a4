-- gatehouse SQLite schema, migration 0002: sign-in rate limits.
--
-- Every statement checks before it changes something, so this file is safe to
-- run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/sqlite, or with your own migration tool.
--
-- Generated from runtime/src/schema/auth-schema.ts (the schema, written once)
-- by the runtime's build: edit that file, never this one.

-- The sign-in counts of the rate limit store, one row per key (`ip:<address>`
-- or `id:<provider>:<hash>`: no address or username in clear). A row counts
-- the attempts of one fixed window, which ends at `expires`.
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT NOT NULL PRIMARY KEY,
  count INTEGER NOT NULL,
  expires INTEGER NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS rate_limits_expires_idx ON rate_limits (expires);
