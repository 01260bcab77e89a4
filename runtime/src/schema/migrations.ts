/**
 * What the runtime's build renders from the one schema definition: each
 * dialect's migrations (the adapters apply the same, rendered in memory),
 * written to `migrations/<dialect>/*.sql` for other migration tools, and the
 * ORM schemas written to `orm/` (a test fails while the files differ).
 */
import type { Migration } from "../adapters/sql/migrations.js";
import { authSchema } from "./auth-schema.js";
import type { Dialect } from "./model.js";
import { drizzleSchema } from "./render/drizzle.js";
import { hostedStoreMigrations } from "./render/hosted-store.js";
import { kyselySchema } from "./render/kysely.js";
import { kyselyMigrations } from "./render/kysely-migrations.js";
import { postgresMigrations } from "./render/postgres.js";
import { prismaSchema } from "./render/prisma.js";
import { asMigrations } from "./render/sql.js";
import { sqliteMigrations } from "./render/sqlite.js";

const RENDERERS: Record<Dialect, typeof postgresMigrations> = {
  postgres: postgresMigrations,
  sqlite: sqliteMigrations,
  "hosted-store": hostedStoreMigrations,
};

export const DIALECTS = Object.keys(RENDERERS) as Dialect[];

/** The migrations of `dialect`, in the order they apply. */
export function migrationsFor(dialect: Dialect): readonly Migration[] {
  return asMigrations(RENDERERS[dialect](authSchema));
}

/**
 * The ORM schemas the runtime ships (`orm/` in the package), by path: Drizzle,
 * Kysely and Prisma, for PostgreSQL (and PGlite) and SQLite, and Kysely's
 * migrations (`orm/kysely/migrations/<dialect>/`). An app whose tables an ORM
 * manages copies the one of its ORM and database.
 */
export function ormFiles(): { path: string; text: string }[] {
  return (["postgres", "sqlite"] as const).flatMap((dialect) => [
    { path: `orm/drizzle/${dialect}.ts`, text: drizzleSchema(authSchema, dialect) },
    { path: `orm/kysely/${dialect}.ts`, text: kyselySchema(authSchema, dialect) },
    { path: `orm/prisma/${dialect}.prisma`, text: prismaSchema(authSchema, dialect) },
    ...kyselyMigrations(authSchema, dialect).map(({ name, text }) => ({ path: `orm/kysely/migrations/${dialect}/${name}.ts`, text })),
  ]);
}
