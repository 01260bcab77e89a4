/**
 * A SvelteKit app with its database set up by `prisma init` (the fixture
 * test/cli/fixtures/sveltekit-prisma, on a database of its own on the
 * PostgreSQL server), not yet installed, then `auth-init --yes` of this
 * checkout run in it (which installs everything), its Prisma Client generated
 * and the app built once.
 *
 * This machine reaches the npm registry only, and Prisma's CLI downloads its
 * native engines from binaries.prisma.sh. So the app is the shape Prisma 7
 * makes the default, and that needs no native query engine: the client made by
 * the query compiler (`engineType = "client"`) on a driver adapter
 * (`@prisma/adapter-pg`); its CLI runs the JavaScript schema engine of Prisma
 * 6.19 (`engine: "js"` in prisma.config.ts), and `prisma generate` is given an
 * empty file where it asks for the native query engine it never loads.
 * `prisma migrate dev`, the command auth-init prints, needs the native schema
 * engine (6.19's JavaScript one cannot read a PostgreSQL catalog): the tables
 * come from `prisma migrate diff`, the SQL that command's migration holds.
 */
import { execFile } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { authInitBin, root } from "../../cli/support/cli.js";
import { run, scratchApp, WITHOUT_TEST_DATABASE } from "./processes.js";

const PRISMA_VERSION = "6.19.3";

/** What the fixture's prisma.config.ts (prisma init's) becomes here: the JavaScript schema engine on the driver adapter. */
const PRISMA_CONFIG = `import "dotenv/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig, env } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return new PrismaPg({ connectionString: env("DATABASE_URL") });
  },
});
`;

/** The app's client module: Prisma's client on the driver adapter, reading the URL from the app's env. */
const CLIENT_MODULE = `import { PrismaPg } from '@prisma/adapter-pg';
import { env } from '$env/dynamic/private';
import { PrismaClient } from '../../../generated/prisma/client';

export const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) });
`;

export interface PrismaSvelteKitApp {
  dir: string;
  /** What auth-init printed. */
  initOutput: string;
  buildOutput: string;
  /** Env for the app's Prisma CLI on this machine (no native engine to fetch, no telemetry). */
  prismaEnv: Record<string, string | undefined>;
  remove: () => void;
}

export async function makePrismaApp(name: string, databaseUrl: string): Promise<PrismaSvelteKitApp> {
  const { work, dir, remove } = scratchApp("prisma", name);
  try {
    const started = Date.now();
    cpSync(join(root, "test/cli/fixtures/sveltekit-prisma"), dir, { recursive: true });
    onThisMachine(dir, databaseUrl);
    const noEngine = join(work, "no-query-engine.so.node");
    writeFileSync(noEngine, "");
    const prismaEnv = { ...WITHOUT_TEST_DATABASE, PRISMA_QUERY_ENGINE_LIBRARY: noEngine, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
    const initOutput = await run(process.execPath, [authInitBin, "--yes"], { cwd: dir, timeoutMs: 600_000 });
    const initialized = Date.now();
    await run("npx", ["prisma", "generate"], { cwd: dir, env: prismaEnv });
    // A production build, as `npm run build` is in a shell: vitest's NODE_ENV=test would make Vite build a development one.
    const buildOutput = await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production", ...WITHOUT_TEST_DATABASE } });
    const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
    console.log(`[e2e] ${name}: auth-init (pack + install) ${seconds(started, initialized)}, prisma generate + build ${seconds(initialized, Date.now())}`);
    return { dir, initOutput, buildOutput, prismaEnv, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** The fixture made to run here (see above), on the test's database. */
function onThisMachine(dir: string, databaseUrl: string): void {
  writeFileSync(join(dir, "prisma.config.ts"), PRISMA_CONFIG);
  const schemaPath = join(dir, "prisma/schema.prisma");
  const schema = readFileSync(schemaPath, "utf8");
  const generator = '  output   = "../generated/prisma"\n';
  if (!schema.includes(generator)) throw new Error(`the fixture's generator changed:\n${schema}`);
  writeFileSync(schemaPath, schema.replace(generator, `${generator}  engineType = "client"\n`));
  writeFileSync(join(dir, "src/lib/server/prisma.ts"), CLIENT_MODULE);
  const pkgPath = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { dependencies: Record<string, string> };
  pkg.dependencies["@prisma/adapter-pg"] = PRISMA_VERSION;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, "\t")}\n`);
  writeFileSync(join(dir, ".env"), `DATABASE_URL="${databaseUrl}"\n`);
}

/**
 * The SQL of the migration `prisma migrate dev` would write for the app's
 * schema on an empty database (Prisma's own diff), applied to it.
 */
export async function createTablesAsPrismaWould(app: PrismaSvelteKitApp, databaseUrl: string): Promise<string> {
  const { stdout: sql } = await promisify(execFile)(
    process.execPath,
    [join(app.dir, "node_modules/prisma/build/index.js"), "migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
    { cwd: app.dir, env: { ...process.env, ...app.prismaEnv, DATABASE_URL: databaseUrl } },
  );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
  return sql;
}
