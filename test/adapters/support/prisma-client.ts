/**
 * A real Prisma Client for the tests of `fromPrisma`: `prisma generate` (the
 * pinned 6.19 CLI) on a schema that is a datasource, a generator and the
 * models the runtime ships, as an app's schema.prisma holds them. The client
 * is Prisma's Rust-free one (`engineType = "client"`: the query compiler in
 * WebAssembly, shipped in @prisma/client) on a driver adapter
 * (`@prisma/adapter-pg`, `@prisma/adapter-better-sqlite3`).
 *
 * The CLI fetches a native query engine from binaries.prisma.sh before any
 * `generate`, even for a client that never loads one, and this machine reaches
 * only the npm registry: PRISMA_QUERY_ENGINE_LIBRARY names an empty file in its
 * place, which `generate` checks exists and nothing ever opens.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { PrismaClientLike } from "@gatehouse/runtime/adapters/postgres/prisma";

const PRISMA_CLI = fileURLToPath(new URL("../../../node_modules/prisma/build/index.js", import.meta.url));
const CONFIG = fileURLToPath(new URL("./prisma.config.ts", import.meta.url));
const MODELS = (dialect: PrismaDialect) => readFileSync(new URL(`../../../runtime/orm/prisma/${dialect}.prisma`, import.meta.url), "utf8");
/** Inside the checkout (ignored by git): the generated client requires @prisma/client/runtime from node_modules above it. */
const GENERATED = fileURLToPath(new URL("../.prisma-clients/", import.meta.url));

export type PrismaDialect = "postgres" | "sqlite";

/** A client class, as `new PrismaClient({ adapter })` is called; `$disconnect` ends it. */
export type PrismaClientClass = new (options: { adapter: unknown }) => Required<PrismaClientLike> & { $disconnect(): Promise<void> };

export interface GeneratedPrismaClient {
  PrismaClient: PrismaClientClass;
  /** Removes the generated files. */
  remove(): void;
}

export async function generatePrismaClient(dialect: PrismaDialect): Promise<GeneratedPrismaClient> {
  mkdirSync(GENERATED, { recursive: true });
  const dir = mkdtempSync(join(GENERATED, `${dialect}-`));
  const datasource = dialect === "postgres" ? 'provider = "postgresql"\n  url      = env("PRISMA_TEST_DATABASE_URL")' : 'provider = "sqlite"\n  url      = "file:./unused.db"';
  const generator = `provider        = "prisma-client-js"\n  output          = "./client"\n  previewFeatures = ["queryCompiler", "driverAdapters"]\n  engineType      = "client"`;
  writeFileSync(join(dir, "schema.prisma"), `generator client {\n  ${generator}\n}\n\ndatasource db {\n  ${datasource}\n}\n\n${MODELS(dialect)}`);
  const noEngine = join(dir, "no-query-engine.so.node");
  writeFileSync(noEngine, "");
  await promisify(execFile)(process.execPath, [PRISMA_CLI, "generate", "--config", CONFIG, "--schema", join(dir, "schema.prisma")], {
    cwd: dir,
    env: {
      ...process.env,
      PRISMA_TEST_PROVIDER: dialect,
      PRISMA_QUERY_ENGINE_LIBRARY: noEngine,
      PRISMA_CLIENT_ENGINE_TYPE: "client",
      // No version check and no telemetry: only loopback network.
      CHECKPOINT_DISABLE: "1",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
  });
  const { PrismaClient } = createRequire(import.meta.url)(join(dir, "client", "index.js")) as { PrismaClient: PrismaClientClass };
  return { PrismaClient, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
