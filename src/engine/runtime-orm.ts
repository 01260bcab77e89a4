/**
 * The ORM schemas of the auth tables that this CLI's `@gatehouse/runtime`
 * ships (`orm/<orm>/<dialect>.<ext>`, and Kysely's migrations in
 * `orm/kysely/migrations/<dialect>/`, made by its build from the one schema
 * definition): what auth-init writes into an app's Drizzle or Prisma schema
 * or Kysely migrations folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** `drizzle/postgres.ts`, `prisma/sqlite.prisma`: a file of the runtime's `orm/` folder. */
export function runtimeOrmFile(path: string): string {
  return readFileSync(join(ormRoot(), path), "utf8");
}

/** The `.ts` modules of a folder of the runtime's `orm/`, by name (without `.ts`), in name order. */
export function runtimeOrmModules(folder: string): { name: string; text: string }[] {
  return tsModulesIn(join(ormRoot(), folder));
}

/** The `.ts` modules of a folder (the runtime's, or an app's installed copy of it), by name without `.ts`, in name order. */
export function tsModulesIn(dir: string): { name: string; text: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".ts".length), text: readFileSync(join(dir, file), "utf8") }));
}

function ormRoot(): string {
  // The runtime's main entry is dist/index.js: the package root is one folder up.
  return join(dirname(dirname(createRequire(import.meta.url).resolve("@gatehouse/runtime"))), "orm");
}
