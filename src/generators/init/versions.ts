/**
 * Versions of the packages `auth-init` adds to an app: the ones this repository
 * tests with (a test keeps them equal to the root package.json's devDependencies).
 */
export const DRIVER_VERSIONS = {
  "@electric-sql/pglite": "^0.5.16",
  pg: "^8.23.1",
  "@types/pg": "^8.23.1",
  // 12.x: 13 needs Node 22 (it crashes on Node 20).
  "better-sqlite3": "^12.11.1",
  "@types/better-sqlite3": "^9.6.0",
  // The password module uses node:crypto; sv's minimal app has no Node types.
  "@types/node": "^20.19.43",
  // The email provider's SMTP client: the runtime imports it when it sends a sign-in link.
  nodemailer: "^8.0.11",
  // Passkeys' verification: the runtime imports it on the first WebAuthn request.
  "@simplewebauthn/server": "^14.0.3",
} as const;
