/** Types of better-sqlite3-prebuild.mjs, for the tests' side. */

/** Puts the checkout's (`root`) compiled better-sqlite3 where prebuild-install looks first, npm's cache; does nothing when it cannot. */
export declare function seedBetterSqlite3Prebuild(root: string): void;
