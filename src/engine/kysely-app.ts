/**
 * Reading what `auth-init --adapter kysely` needs from disk: the app's source
 * files (its Kysely instance is found by what it constructs), kysely-ctl's
 * config, the file names of its migrations folder and the text of ours in it,
 * and the Kysely migrations this CLI's runtime ships.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { detectKysely, KYSELY_CONFIGS, listsKysely, type KyselyDialect, type KyselyLookup, type ShippedMigration } from "../generators/kysely.js";
import { listSourceFiles, readProject, type ProjectSnapshot } from "./project.js";
import { runtimeOrmModules } from "./runtime-orm.js";

/** The app's Kysely setup, or that it has none; reads nothing more when package.json lists no kysely. */
export function readKyselyApp(dir: string, project: ProjectSnapshot): KyselyLookup {
  if (!listsKysely(project)) return { found: false };
  const sources = listSourceFiles(dir);
  const snapshot = readProject(dir, ["package.json", ...KYSELY_CONFIGS, ...sources]);
  return detectKysely(snapshot, sources, (folder) => filesIn(join(dir, folder)));
}

/** The runtime's Kysely migrations for a dialect, one module per step. */
export function runtimeKyselyMigrations(dialect: KyselyDialect): ShippedMigration[] {
  return runtimeOrmModules(`kysely/migrations/${dialect}`);
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
