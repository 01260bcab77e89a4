/**
 * Versions of the packages `auth-init` adds to an app: the ones this repository
 * tests with (a test keeps them equal to the root package.json's devDependencies).
 */
export const DRIVER_VERSIONS = {
  "@electric-sql/pglite": "^0.5.16",
  pg: "^8.23.1",
  "@types/pg": "^8.23.1",
} as const;
