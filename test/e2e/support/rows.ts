/**
 * Reading what a running app stored, beside it: rows of its SQLite file
 * (opened read-only) or of its database on the PostgreSQL server.
 */
import Database from "better-sqlite3";
import pg from "pg";

export async function sqliteRows<Row>(file: string, sql: string): Promise<Row[]> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}

export async function serverRows<Row extends Record<string, unknown>>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}
