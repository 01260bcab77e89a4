/**
 * An app whose auth tables its own ORM creates (auth-init wrote `auth-db`
 * beside its Drizzle db module, on its Prisma Client or its Kysely instance),
 * as `auth migrate` and `auth doctor` see it: where its database is, how its
 * tables are made, and whether what auth-init wrote into its setup is still
 * the installed runtime's (read from node_modules, as the app runs it).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AppOrmDatabase, OrmDriver } from "../generators/app-database.js";
import type { PackageManager } from "../generators/detect.js";
import type { AppOrmFacts } from "../generators/doctor.js";
import { drizzleCommands, type DrizzleApp } from "../generators/drizzle.js";
import { kyselyMigrateCommand, kyselyTool, placeKyselyMigrations, type KyselyApp } from "../generators/kysely.js";
import { prismaMigrateCommand, type PrismaApp } from "../generators/prisma.js";
import { authModelsBlock, prefixedModels } from "../generators/prisma-schema.js";
import { readDrizzleApp } from "./drizzle-app.js";
import { readKyselyApp } from "./kysely-app.js";
import { readPrismaApp } from "./prisma-app.js";
import { readOrNull, type ProjectSnapshot } from "./project.js";
import { tsModulesIn } from "./runtime-orm.js";

export interface AppOrm {
  database: AppOrmDatabase;
  /** Where the auth tables are declared, after "this app's auth tables are ": "in its Drizzle schema (src/lib/server/db/auth-schema.ts)". */
  place: string;
  facts: AppOrmFacts;
}

/** The app's ORM setup that holds the auth tables: Drizzle, Prisma or Kysely, in auth-init's order of preference. */
export function readAppOrm(dir: string, project: ProjectSnapshot, manager: PackageManager, run: (script: string) => string): AppOrm | undefined {
  const drizzle = readDrizzleApp(dir, project);
  if (drizzle.found && "app" in drizzle) return drizzleOrm(dir, project, drizzle.app, run);
  const prisma = readPrismaApp(dir, project);
  if (prisma.found && "app" in prisma) return prismaOrm(dir, prisma.app, manager);
  const kysely = readKyselyApp(dir, project);
  if (kysely.found && "app" in kysely) return kyselyOrm(dir, project, kysely.app, run);
  return undefined;
}

function drizzleOrm(dir: string, project: ProjectSnapshot, app: DrizzleApp, run: (script: string) => string): AppOrm {
  const { generate, migrate } = drizzleCommands(project, run);
  const runtimeSchema = `node_modules/@gatehouse/runtime/orm/drizzle/${app.dialect}.ts`;
  const shipped = readOrNull(join(dir, runtimeSchema));
  const commands = `\`${generate}\` then \`${migrate}\``;
  // Without an installed runtime there is nothing to compare with: doctor says the runtime is missing.
  const stale = shipped !== null && readOrNull(join(dir, app.authSchema)) !== shipped;
  return {
    // Where drizzle-kit (and the db module, as sv writes it) reads the database's URL.
    database: { orm: "drizzle", dialect: app.dialect, driver: app.driver, urlEnv: "DATABASE_URL", openedBy: app.dbModule },
    place: `in its Drizzle schema (${app.authSchema})`,
    facts: {
      tool: "drizzle-kit",
      run: commands,
      written: `${app.authSchema} is the Drizzle schema`,
      stale: stale
        ? [{
            message: `${app.authSchema} is not the Drizzle schema of the app's @gatehouse/runtime (${runtimeSchema}): the tables drizzle-kit makes from it are not the ones the runtime uses`,
            fix: `copy ${runtimeSchema} over ${app.authSchema}, then run ${commands}`,
          }]
        : [],
    },
  };
}

function prismaOrm(dir: string, app: PrismaApp, manager: PackageManager): AppOrm {
  const migrate = prismaMigrateCommand(manager);
  const runtimeModels = `node_modules/@gatehouse/runtime/orm/prisma/${app.dialect}.prisma`;
  const shipped = readOrNull(join(dir, runtimeModels));
  const text = readOrNull(join(dir, app.authSchema)) ?? "";
  const models = app.folder ? text : authModelsBlock(text);
  // auth-init prefixes the names (AuthUser, ...) in a schema that had them: either form is the runtime's.
  const stale = shipped !== null && ![shipped, prefixedModels(shipped)].some((expected) => models?.trim() === expected.trim());
  return {
    // The app's client opens it through a driver adapter: @prisma/adapter-pg brings pg, the SQLite one better-sqlite3.
    database: { orm: "prisma", dialect: app.dialect, driver: app.dialect === "sqlite" ? "better-sqlite3" : "node-postgres", urlEnv: app.urlEnv, openedBy: app.clientModule },
    place: `models of its Prisma schema (${app.authSchema})`,
    facts: {
      tool: "Prisma",
      run: `\`${migrate}\``,
      written: `the auth models in ${app.authSchema} are the Prisma models`,
      stale: stale
        ? [{
            message: `the auth models in ${app.authSchema} are not the Prisma models of the app's @gatehouse/runtime (${runtimeModels}): the tables Prisma makes from them are not the ones the runtime uses`,
            fix: `put the models of ${runtimeModels} in their place (between the gatehouse lines of a one-file schema), then run \`${migrate}\``,
          }]
        : [],
    },
  };
}

const KYSELY_DRIVERS: Record<string, OrmDriver> = { pg: "node-postgres", "@electric-sql/pglite": "pglite", "better-sqlite3": "better-sqlite3" };

/**
 * Kysely: every migration the installed runtime ships must be in the app's
 * folder (an upgrade brings new ones), as the runtime wrote it (Kysely runs
 * each once, by name: an edited one is never run again).
 */
function kyselyOrm(dir: string, project: ProjectSnapshot, app: KyselyApp, run: (script: string) => string): AppOrm {
  const migrate = kyselyMigrateCommand(project, app, run);
  const runtimeFolder = `node_modules/@gatehouse/runtime/orm/kysely/migrations/${app.dialect}`;
  const shipped = shippedModules(join(dir, runtimeFolder));
  const stale: AppOrmFacts["stale"] = [];
  const placed = placeKyselyMigrations(app, shipped, new Date());
  if (placed.ok) {
    for (const { path, step, text } of placed.present) {
      if (readOrNull(join(dir, path)) !== text) {
        stale.push({
          message: `${path} is not the Kysely migration ${step} of the app's @gatehouse/runtime (${runtimeFolder}/${step}.ts)`,
          fix: `copy ${runtimeFolder}/${step}.ts over ${path}`,
        });
      }
    }
    for (const { path, step } of placed.missing) {
      stale.push({
        message: `${app.migrationFolder}/ lacks the Kysely migration ${step} of the app's @gatehouse/runtime: the runtime needs the tables it makes`,
        fix: `copy ${runtimeFolder}/${step}.ts to ${path}, then run \`${migrate}\``,
      });
    }
  }
  return {
    database: { orm: "kysely", dialect: app.dialect, driver: KYSELY_DRIVERS[app.driver]!, urlEnv: app.urlEnv, openedBy: app.dbModule },
    place: `Kysely migrations in its migrations folder (${app.migrationFolder}/)`,
    facts: { tool: kyselyTool(app), run: `\`${migrate}\``, written: `the gatehouse migrations in ${app.migrationFolder}/ are the Kysely migrations`, stale },
  };
}

/** The runtime's migration modules in an installed copy; none without one (doctor says the runtime is missing). */
function shippedModules(folder: string): { name: string; text: string }[] {
  return existsSync(folder) ? tsModulesIn(folder) : [];
}
