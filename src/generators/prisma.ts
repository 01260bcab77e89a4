/**
 * An app that keeps its database with Prisma: where its schema is (one file or
 * a folder), which database its datasource names, and the module that makes
 * its `PrismaClient`. `auth-init --adapter prisma` then adds the auth models to
 * that schema and runs the adapter on the app's own client (`fromPrisma`), and
 * `prisma migrate dev` creates the tables the app's own way. Pure: it reads a
 * `ProjectSnapshot`.
 */
import { posix } from "node:path";
import { property, readDefaultConfig, stringValue } from "../ast/default-config.js";
import { exportedInstances } from "../ast/client-module.js";
import type { ProjectSnapshot } from "../engine/project.js";
import type { PackageManager } from "./detect.js";
import { listedDependencies } from "./package-json.js";
import { prefixedModels, readPrismaSchema, withoutAuthModels, type PrismaSchemaFacts } from "./prisma-schema.js";
import { Node } from "ts-morph";

export type PrismaDialect = "postgres" | "sqlite";

/** Where prisma.config looks for itself, in Prisma's order. */
export const PRISMA_CONFIGS = ["prisma.config.ts", "prisma.config.mts", "prisma.config.js", "prisma.config.mjs", "prisma.config.cts", "prisma.config.cjs"];
/** Where the Prisma CLI looks for the schema when nothing names it. */
const DEFAULT_SCHEMAS = ["prisma/schema.prisma", "schema.prisma"];
const DEFAULT_SCHEMA_FOLDER = "prisma/schema";

export interface PrismaApp {
  dialect: PrismaDialect;
  /** The schema: one file, or a folder whose every `.prisma` file counts. */
  schema: string;
  folder: boolean;
  schemaFiles: string[];
  /** Where the auth models go: a new `auth.prisma` in a schema folder, else the schema file itself (appended between markers). */
  authSchema: string;
  /** The module that exports the app's client, and the name it is exported under (`default` for a default export). */
  clientModule: string;
  clientExport: string;
  /** The env key of the datasource's URL (`DATABASE_URL`), when the schema or prisma.config names one with env(). */
  urlEnv?: string;
}

export type PrismaLookup = { found: false } | { found: true; app: PrismaApp } | { found: true; problem: string };

/** Whether package.json lists Prisma (the CLI or the client). */
export function listsPrisma(project: ProjectSnapshot): boolean {
  const pkg = project.files["package.json"];
  if (!pkg) return false;
  const deps = listedDependencies(pkg);
  return "prisma" in deps || "@prisma/client" in deps;
}

/**
 * `project` holds package.json, prisma.config.*, the `.prisma` files
 * (`prismaFiles` names every one in the app) and the source files
 * (`sourceFiles`): the client module is found by what it makes, not by where it is.
 */
export function detectPrisma(project: ProjectSnapshot, prismaFiles: readonly string[], sourceFiles: readonly string[]): PrismaLookup {
  if (!listsPrisma(project)) return { found: false };
  const config = readConfig(project);
  if ("problem" in config) return { found: true, problem: config.problem };

  const named = config.schema ?? packageJsonSchema(project.files["package.json"]);
  const place = schemaPlace(named, prismaFiles);
  if (!place) {
    const where = named ? `${named} (named by ${config.schema ? config.path : "package.json"})` : `${DEFAULT_SCHEMAS.join(", ")} or ${DEFAULT_SCHEMA_FOLDER}/`;
    return { found: true, problem: `no Prisma schema at ${where}` };
  }
  const schemas = place.files.map((path) => ({ path, facts: readPrismaSchema(project.files[path] ?? "") }));
  const datasource = schemas.find((schema) => schema.facts.datasource)?.facts.datasource;
  const provider = datasource?.provider;
  const dialect = provider === "postgresql" || provider === "postgres" ? "postgres" : provider === "sqlite" ? "sqlite" : undefined;
  if (!dialect) {
    const which = provider ? `datasource provider "${provider}"` : "no datasource provider gatehouse can read";
    return { found: true, problem: `${place.schema} has ${which}: gatehouse's Prisma setup takes "postgresql" or "sqlite"` };
  }

  const clients = sourceFiles.flatMap((path) => {
    const text = project.files[path];
    if (typeof text !== "string") return [];
    const names = exportedInstances({ path, text }, "PrismaClient");
    return names.length > 0 ? [{ path, name: preferredName(names) }] : [];
  });
  if (clients.length === 0) return { found: true, problem: "no module of the app exports a Prisma Client (as `export const prisma = new PrismaClient()`)" };
  if (clients.length > 1) return { found: true, problem: `more than one module exports a Prisma Client (${clients.map((c) => c.path).join(", ")}): gatehouse cannot tell which one is the app's` };
  const [client] = clients as [{ path: string; name: string }];

  const urlEnv = config.urlEnv ?? datasource?.urlEnv;
  return {
    found: true,
    app: {
      dialect,
      schema: place.schema,
      folder: place.folder,
      schemaFiles: place.files,
      authSchema: place.folder ? posix.join(place.schema, "auth.prisma") : place.schema,
      clientModule: client.path,
      clientExport: client.name,
      ...(urlEnv ? { urlEnv } : {}),
    },
  };
}

/** What prisma.config says of the schema and the datasource URL (Prisma 7 keeps the URL there). */
function readConfig(project: ProjectSnapshot): { path?: string; schema?: string; urlEnv?: string } | { problem: string } {
  const path = PRISMA_CONFIGS.find((name) => typeof project.files[name] === "string");
  if (!path) return {};
  const read = readDefaultConfig({ path, text: project.files[path]! });
  if (!read.ok) return { problem: `${path}: ${read.reason}` };
  const schemaNode = property(read.config, "schema");
  const schema = stringValue(schemaNode);
  if (schemaNode && schema === undefined) return { problem: `${path}: its \`schema\` is not a string gatehouse can read` };
  const datasource = property(read.config, "datasource");
  const url = datasource && Node.isObjectLiteralExpression(datasource) ? property(datasource, "url") : undefined;
  // env("DATABASE_URL"), from prisma/config.
  const urlEnv = url && Node.isCallExpression(url) && url.getExpression().getText() === "env" ? stringValue(url.getArguments()[0]) : undefined;
  return { path, ...(schema ? { schema: posix.normalize(posix.join(posix.dirname(path), schema)) } : {}), ...(urlEnv ? { urlEnv } : {}) };
}

function packageJsonSchema(pkg: string | null | undefined): string | undefined {
  try {
    const schema = (JSON.parse(pkg ?? "{}") as { prisma?: { schema?: unknown } }).prisma?.schema;
    return typeof schema === "string" ? posix.normalize(schema) : undefined;
  } catch {
    return undefined;
  }
}

/** The schema file or folder: the one named, else Prisma's defaults. */
function schemaPlace(named: string | undefined, prismaFiles: readonly string[]): { schema: string; folder: boolean; files: string[] } | undefined {
  const inFolder = (folder: string) => prismaFiles.filter((path) => path.startsWith(`${folder.replace(/\/$/, "")}/`));
  const candidates = named ? [named] : [...DEFAULT_SCHEMAS, DEFAULT_SCHEMA_FOLDER];
  for (const candidate of candidates.map((path) => path.replace(/^\.\//, ""))) {
    if (candidate.endsWith(".prisma") && prismaFiles.includes(candidate)) return { schema: candidate, folder: false, files: [candidate] };
    const files = inFolder(candidate);
    if (!candidate.endsWith(".prisma") && files.length > 0) return { schema: candidate.replace(/\/$/, ""), folder: true, files };
  }
  return undefined;
}

function preferredName(names: string[]): string {
  return ["prisma", "db", "default"].find((name) => names.includes(name)) ?? names[0]!;
}

/**
 * The auth models this app's schema takes: the runtime's, or, where the app
 * already uses their names (most Prisma apps have a `User`), the same with
 * `Auth` before each name (`AuthUser`, ...: their tables stay `users`, ...).
 * A model of the app's on one of our tables, or names taken either way: the
 * problems, and nothing is written.
 */
export function prismaAuthModels(project: ProjectSnapshot, app: PrismaApp, shipped: string): { ok: true; models: string; prefixed: boolean } | { ok: false; problems: string[] } {
  const collisions = prismaCollisions(project, app, shipped);
  if (collisions.length === 0) return { ok: true, models: shipped, prefixed: false };
  const tables = collisions.filter((collision) => collision.kind === "table");
  if (tables.length > 0) return { ok: false, problems: tables.map((collision) => collision.problem) };
  const prefixed = prefixedModels(shipped);
  const still = prismaCollisions(project, app, prefixed);
  if (still.length === 0) return { ok: true, models: prefixed, prefixed: true };
  return { ok: false, problems: [...collisions, ...still].map((collision) => collision.problem) };
}

export interface PrismaCollision {
  /** A model or enum of the same name (Prisma refuses two), or a model on the same table (one table for two models). */
  kind: "name" | "table";
  problem: string;
}

/** What in the app's schema (our earlier block aside) would collide with these auth models. */
export function prismaCollisions(project: ProjectSnapshot, app: PrismaApp, authModels: string): PrismaCollision[] {
  const ours = readPrismaSchema(authModels);
  const names = new Set(ours.models.map((model) => model.name));
  const tables = new Set(ours.models.map((model) => model.table));
  const collisions: PrismaCollision[] = [];
  for (const path of app.schemaFiles) {
    if (path === app.authSchema && app.folder) continue;
    const facts: PrismaSchemaFacts = readPrismaSchema(withoutAuthModels(project.files[path] ?? ""));
    for (const model of facts.models) {
      if (tables.has(model.table)) collisions.push({ kind: "table", problem: `${path} maps model ${model.name} to the table "${model.table}"` });
      else if (names.has(model.name)) collisions.push({ kind: "name", problem: `${path} has a model ${model.name}` });
    }
    for (const name of facts.enums) if (names.has(name)) collisions.push({ kind: "name", problem: `${path} has an enum ${name}` });
  }
  return collisions;
}

/** The command that creates the auth tables: Prisma's own migration, which also generates the client. */
export function prismaMigrateCommand(manager: PackageManager): string {
  const exec = { npm: "npx", pnpm: "pnpm exec", yarn: "yarn", bun: "bunx" }[manager];
  return `${exec} prisma migrate dev --name gatehouse-auth`;
}
