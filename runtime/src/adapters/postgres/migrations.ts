import type { Migration } from "../sql/migrations.js";
import { authSchema } from "../../schema/auth-schema.js";
import { postgresMigrations } from "../../schema/render/postgres.js";
import { asMigrations } from "../../schema/render/sql.js";

/** The schema's migrations, in order, rendered from the one schema definition: the same SQL as `migrations/postgres/*.sql` in this package. */
export const migrations: readonly Migration[] = asMigrations(postgresMigrations(authSchema));
