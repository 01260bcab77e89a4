/**
 * The conformance suite's `addedColumns` for the SQL targets: columns an app adds
 * to the schema (the `role` of role-based access on users, a `device` on
 * sessions), written straight to the tables as the app's own code would.
 */
import type { AddedColumns } from "../conformance-added-columns.js";

/** What the statements need of a connection: run a script, run one statement with parameters. */
interface Db {
  script(sql: string): Promise<unknown> | unknown;
  run(sql: string, params: string[]): Promise<unknown> | unknown;
}

interface Tables {
  users: string;
  sessions: string;
  /** The n-th placeholder (from 1): `$n`, or `?`. */
  placeholder(n: number): string;
}

function addedColumns(db: () => Db, { users, sessions, placeholder: p }: Tables): AddedColumns {
  return {
    add: async () => {
      await db().script(`ALTER TABLE ${users} ADD COLUMN role TEXT; ALTER TABLE ${sessions} ADD COLUMN device TEXT;`);
    },
    setRole: async (userId, role) => {
      await db().run(`UPDATE ${users} SET role = ${p(1)} WHERE id = ${p(2)}`, [role, userId]);
    },
    setDevice: async (sessionToken, device) => {
      await db().run(`UPDATE ${sessions} SET device = ${p(1)} WHERE "sessionToken" = ${p(2)}`, [device, sessionToken]);
    },
    drop: async () => {
      await db().script(`ALTER TABLE ${users} DROP COLUMN role; ALTER TABLE ${sessions} DROP COLUMN device;`);
    },
  };
}

/** On PostgreSQL through a `SqlClient` (ours: `users`, `sessions`; the hosted store's svc_ tables with `tables`). */
export function postgresAddedColumns(
  client: () => { query(text: string, params?: unknown[]): Promise<unknown> },
  tables: { users: string; sessions: string } = { users: "users", sessions: "sessions" },
): AddedColumns {
  return addedColumns(() => ({ script: (sql) => client().query(sql), run: (sql, params) => client().query(sql, params) }), {
    ...tables,
    placeholder: (n) => `$${n}`,
  });
}

/** On a better-sqlite3 or node:sqlite connection. */
export function sqliteAddedColumns(connection: () => { exec(sql: string): unknown; prepare(sql: string): unknown }): AddedColumns {
  // Both drivers' statements have `run(...params)`; their types differ in what else they take.
  const run = (sql: string, params: string[]) => (connection().prepare(sql) as { run(...values: string[]): unknown }).run(...params);
  return addedColumns(() => ({ script: (sql) => connection().exec(sql), run }), {
    users: "users",
    sessions: "sessions",
    placeholder: () => "?",
  });
}
