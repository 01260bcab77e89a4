-- gatehouse SQLite schema, migration 0002: sign-in rate limits.
--
-- The counts of `SqliteRateLimitStore` (rateLimit.store in the config), one
-- row per key: `ip:<address>` or `id:<provider>:<hash>` (a SHA-256 with the
-- secret: no address or username is stored in clear). A row counts the
-- attempts of one fixed window, which ends at `expires` (INTEGER milliseconds
-- since the epoch, as every date of this schema); the store's one statement
-- (INSERT ... ON CONFLICT DO UPDATE ... RETURNING, SQLite >= 3.35) adds a hit
-- atomically and starts a new window once `expires` has passed, and rows whose
-- window has ended are deleted as the store goes. Unused, the table stays empty.
--
-- Safe to run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/sqlite, or with your own migration tool.

CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT NOT NULL PRIMARY KEY,
  count INTEGER NOT NULL,
  expires INTEGER NOT NULL
) STRICT;

-- The sweep of ended windows.
CREATE INDEX IF NOT EXISTS rate_limits_expires_idx ON rate_limits (expires);
