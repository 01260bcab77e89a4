/**
 * Reading what `auth-init --adapter drizzle` needs from disk: the app's source
 * files (its Drizzle db module is found by what it imports) and the Drizzle
 * schema of the auth tables that this CLI's `@gatehouse/runtime` ships
 * (`orm/drizzle/<dialect>.ts`, made by its build from the one schema definition).
 */
import { detectDrizzle, drizzleConfigPath, type DrizzleDialect, type DrizzleLookup } from "../generators/drizzle.js";
import { listSourceFiles, readProject, type ProjectSnapshot } from "./project.js";
import { runtimeOrmFile } from "./runtime-orm.js";

/** The app's Drizzle setup, or that it has none; reads nothing more when package.json lists no drizzle-orm. */
export function readDrizzleApp(dir: string, project: ProjectSnapshot): DrizzleLookup {
  const config = drizzleConfigPath(project);
  if (!config) return { found: false };
  const sources = listSourceFiles(dir);
  const snapshot = readProject(dir, ["package.json", config, ...sources]);
  return detectDrizzle(snapshot, sources);
}

/** The runtime's Drizzle schema of the auth tables for a dialect. */
export function runtimeDrizzleSchema(dialect: DrizzleDialect): string {
  return runtimeOrmFile(`drizzle/${dialect}.ts`);
}
