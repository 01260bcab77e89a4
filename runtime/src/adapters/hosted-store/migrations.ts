import type { Migration } from "../sql/migrations.js";
import { authSchema } from "../../schema/auth-schema.js";
import { hostedStoreMigrations } from "../../schema/render/hosted-store.js";
import { asMigrations } from "../../schema/render/sql.js";

/** The schema's migrations, in order, rendered from the one schema definition: the same SQL as `migrations/hosted-store/*.sql` in this package. */
export const migrations: readonly Migration[] = asMigrations(hostedStoreMigrations(authSchema));
