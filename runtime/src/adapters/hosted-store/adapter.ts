/**
 * `HostedStoreAdapter`: the SQL adapter core (`../sql/adapter.ts`) on the
 * hosted store's svc_ records (see `runtime/migrations/hosted-store`):
 * PostgreSQL (`../postgres/dialect.ts`) on other tables, in the branch's
 * schema, with the link to a user as the `"user"` field, the record's
 * `created_at` and `updated_at` as a row's times, and a join record written
 * beside each account and session, by the same statement (a data-modifying
 * WITH), so never one without the other.
 *
 * Reads go through the direct `user` links, the simplest query; the join
 * tables are kept for the schema's other readers and match the links always
 * (the migration's composite foreign keys guarantee it; a session moved to
 * another user moves its join record along, as its link cascades on update).
 */
import type { Table } from "../../schema/model.js";
import { RECORD_BOOKKEEPING, recordFieldOf } from "../../schema/render/hosted-store.js";
import { postgresDialect } from "../postgres/dialect.js";
import { sqlAdapter } from "../sql/adapter.js";
import { quote, type SqlNaming } from "../sql/dialect.js";
import type { Adapter } from "../types.js";
import { requireHostedStoreClient, schemaOf, type HostedStoreClient } from "./client.js";
import { HostedStoreError } from "./errors.js";

/**
 * The adapter for a hosted store migrated with `migrate()` (or the SQL files in
 * `@gatehouse/runtime/migrations/hosted-store`, applied in the branch's schema).
 *
 * Connects on first use, through `client.connection()`. Fields beyond the
 * schema's (e.g. extra user profile fields, `expires_in` of an account) are
 * not stored.
 *
 * @example
 * ```ts
 * const store = new HostedStoreClient({ env: process.env, connect: (url) => fromPg(new pg.Pool({ connectionString: url })) });
 * await migrate(store);
 * const config = { adapter: HostedStoreAdapter(store), providers: [...] };
 * ```
 */
export function HostedStoreAdapter(client: HostedStoreClient): Required<Adapter> {
  requireHostedStoreClient(client, "HostedStoreAdapter");
  return sqlAdapter(async () => {
    const [{ branch }, db] = await Promise.all([client.getConfig(), client.connection()]);
    return { db, dialect: postgresDialect(namingIn(branch), (message) => new HostedStoreError("not_found", message)) };
  });
}

/**
 * The svc_ records of `branch` (which `getConfig()` has validated),
 * schema-qualified: queries name the schema instead of relying on
 * `search_path`, which is per connection (with a pool, setting it would mean
 * an extra statement, and a transaction, per query).
 */
function namingIn(branch: string): SqlNaming {
  const schema = schemaOf(branch);
  const record = (name: string) => `${schema}.${quote(name)}`;
  return {
    table: (table) => record(hostedStoreOf(table).name),
    column: (_table, column) => recordFieldOf(column),
    join: (table) => {
      const join = hostedStoreOf(table).join;
      return join && { table: record(join.table), field: join.field };
    },
    // Not the user's or the session's, so never returned.
    recordColumns: RECORD_BOOKKEEPING,
  };
}

function hostedStoreOf(table: Table): NonNullable<Table["hostedStore"]> {
  if (!table.hostedStore) throw new Error(`The hosted store has no ${table.name} table.`);
  return table.hostedStore;
}
