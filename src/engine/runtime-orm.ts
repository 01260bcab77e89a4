/**
 * The ORM schemas of the auth tables that this CLI's `@gatehouse/runtime`
 * ships (`orm/<orm>/<dialect>.<ext>`, made by its build from the one schema
 * definition): what auth-init writes into an app's Drizzle or Prisma schema.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** `drizzle/postgres.ts`, `prisma/sqlite.prisma`: a file of the runtime's `orm/` folder. */
export function runtimeOrmFile(path: string): string {
  // The runtime's main entry is dist/index.js: the package root is one folder up.
  const root = dirname(dirname(createRequire(import.meta.url).resolve("@gatehouse/runtime")));
  return readFileSync(join(root, "orm", path), "utf8");
}
