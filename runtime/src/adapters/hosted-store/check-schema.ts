/**
 * `checkSchema()` for the hosted store: how the client's branch stands against
 * the svc_ tables this runtime expects (see `adapters/postgres/check-schema.ts`).
 */
import { authSchema } from "../../schema/auth-schema.js";
import { readSchemaReport, type CheckSchemaOptions, type SchemaReader, type SchemaReport } from "../../schema/check.js";
import { inspectPostgres } from "../../schema/inspect/postgres.js";
import { hostedStoreShape } from "../../schema/render/hosted-store.js";
import type { SqlClient } from "../postgres/client.js";
import { schemaOf, type HostedStoreClient } from "./client.js";
import { migrations as bundled } from "./migrations.js";

export const HOSTED_STORE_SHAPE = hostedStoreShape(authSchema);

export async function checkSchema(client: HostedStoreClient, options: CheckSchemaOptions = {}): Promise<SchemaReport> {
  const { branch } = await client.getConfig();
  return readSchemaReport(hostedStoreReader(await client.connection(), branch), HOSTED_STORE_SHAPE, options.migrations ?? bundled, options);
}

/** The branch's ledger (svc_migrations) and catalog. */
export function hostedStoreReader(db: SqlClient, branch: string): SchemaReader {
  return {
    async ledger() {
      const { rows } = await db.query<{ ledger: string | null }>("SELECT to_regclass(format('%I.svc_migrations', $1::text))::text AS ledger", [branch]);
      if (!rows[0]?.ledger) return [];
      return (await db.query<{ name: string }>(`SELECT name FROM ${schemaOf(branch)}.svc_migrations`)).rows.map((row) => row.name);
    },
    catalog: (tables) => inspectPostgres(db, { schema: branch, tables }),
  };
}
