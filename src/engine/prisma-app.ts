/**
 * Reading what `auth-init --adapter prisma` needs from disk: the app's
 * `.prisma` files and source files (its client module is found by what it
 * makes), and the Prisma models of the auth tables this CLI's runtime ships.
 */
import { detectPrisma, listsPrisma, PRISMA_CONFIGS, type PrismaDialect, type PrismaLookup } from "../generators/prisma.js";
import { listSourceFiles, readProject, type ProjectSnapshot } from "./project.js";
import { runtimeOrmFile } from "./runtime-orm.js";

/** The app's Prisma setup, or that it has none; reads nothing more when package.json lists no Prisma. */
export function readPrismaApp(dir: string, project: ProjectSnapshot): PrismaLookup {
  if (!listsPrisma(project)) return { found: false };
  const sources = listSourceFiles(dir);
  const prismaFiles = listSourceFiles(dir, [".prisma"]);
  const snapshot = readProject(dir, ["package.json", ...PRISMA_CONFIGS, ...prismaFiles, ...sources]);
  return detectPrisma(snapshot, prismaFiles, sources);
}

/** The runtime's Prisma models of the auth tables for a dialect. */
export function runtimePrismaModels(dialect: PrismaDialect): string {
  return runtimeOrmFile(`prisma/${dialect}.prisma`);
}
