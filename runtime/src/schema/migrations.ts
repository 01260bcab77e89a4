/**
 * Each dialect's migrations, rendered from the one schema definition. The
 * adapters apply these; the runtime's build writes the same SQL to
 * `migrations/<dialect>/*.sql` for other migration tools (a test fails while
 * the files differ).
 */
import type { Migration } from "../adapters/sql/migrations.js";
import { authSchema } from "./auth-schema.js";
import type { Dialect } from "./model.js";
import { hostedStoreMigrations } from "./render/hosted-store.js";
import { postgresMigrations } from "./render/postgres.js";
import { sqliteMigrations } from "./render/sqlite.js";

const RENDERERS: Record<Dialect, typeof postgresMigrations> = {
  postgres: postgresMigrations,
  sqlite: sqliteMigrations,
  "hosted-store": hostedStoreMigrations,
};

export const DIALECTS = Object.keys(RENDERERS) as Dialect[];

/** The migrations of `dialect`, in the order they apply. */
export function migrationsFor(dialect: Dialect): readonly Migration[] {
  return Object.freeze(RENDERERS[dialect](authSchema));
}
