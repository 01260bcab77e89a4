/**
 * The schema the Auth.js documentation gives for @auth/pg-adapter (serial
 * integer ids, no foreign keys, no unique email): what an existing Auth.js
 * database looks like before `migrate()` adopts it.
 */
export const AUTHJS_PG_SCHEMA = `
CREATE TABLE verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE accounts (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  PRIMARY KEY (id)
);
CREATE TABLE sessions (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
);
CREATE TABLE users (
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);
`;

/** Rows as @auth/pg-adapter leaves them: user 2 was deleted, its session and account were not (yet). */
export const AUTHJS_PG_ROWS = `
INSERT INTO users (name, email, "emailVerified", image) VALUES
  ('Ada', 'ada@example.com', '2024-02-03T04:05:06.789Z', NULL),
  ('Gone', 'gone@example.com', NULL, NULL);
INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token, expires_at, token_type)
  VALUES (1, 'oauth', 'github', 'gh-1', 'gho_token', 1900000000, 'Bearer'),
         (2, 'oauth', 'github', 'gh-2', NULL, NULL, NULL);
INSERT INTO sessions ("userId", expires, "sessionToken") VALUES
  (1, '2031-05-06T07:08:09.123Z', 'ada-session'),
  (2, '2031-05-06T07:08:09.123Z', 'orphan-session');
INSERT INTO verification_token (identifier, expires, token) VALUES ('ada@example.com', '2031-05-06T07:08:09.123Z', 'hashed');
DELETE FROM users WHERE id = 2;
`;
