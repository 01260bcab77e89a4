-- gatehouse PostgreSQL schema, migration 0002: sign-in rate limits.
--
-- The counts of `PostgresRateLimitStore` (rateLimit.store in the config), one
-- row per key: `ip:<address>` or `id:<provider>:<hash>` (a SHA-256 with the
-- secret: no address or username is stored in clear). A row counts the
-- attempts of one fixed window, which ends at `expires`; the store's one
-- statement (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) adds a hit
-- atomically and starts a new window once `expires` has passed, and rows whose
-- window has ended are deleted as the store goes. Unused, the table stays empty.
--
-- Safe to run twice. Apply it with `migrate()` from
-- @gatehouse/runtime/adapters/postgres, or with your own migration tool.

CREATE TABLE IF NOT EXISTS rate_limits (
  key text NOT NULL PRIMARY KEY,
  count integer NOT NULL,
  expires timestamptz NOT NULL
);

-- The sweep of ended windows.
CREATE INDEX IF NOT EXISTS rate_limits_expires_idx ON rate_limits (expires);
