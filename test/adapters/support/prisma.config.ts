/**
 * The Prisma CLI's config for schema-prisma.test.ts: its JavaScript schema
 * engine (WebAssembly, shipped in the prisma package) on a driver adapter, in
 * place of the native engine the CLI otherwise downloads from outside npm.
 * `PRISMA_TEST_PROVIDER` picks the database: `sqlite` (better-sqlite3, in
 * memory) or `postgres` (node-postgres on `PRISMA_TEST_DATABASE_URL`).
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

const provider = process.env.PRISMA_TEST_PROVIDER;
if (provider !== "sqlite" && provider !== "postgres") throw new Error(`PRISMA_TEST_PROVIDER must be sqlite or postgres, not ${String(provider)}`);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    if (provider === "sqlite") return new PrismaBetterSQLite3({ url: ":memory:" });
    return new PrismaPg({ connectionString: process.env.PRISMA_TEST_DATABASE_URL });
  },
});
