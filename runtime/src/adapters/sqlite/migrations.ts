import type { Migration } from "../sql/migrations.js";
import { authSchema } from "../../schema/auth-schema.js";
import { sqliteMigrations } from "../../schema/render/sqlite.js";
import { asMigrations } from "../../schema/render/sql.js";

/** The schema's migrations, in order, rendered from the one schema definition: the same SQL as `migrations/sqlite/*.sql` in this package. */
export const migrations: readonly Migration[] = asMigrations(sqliteMigrations(authSchema));
