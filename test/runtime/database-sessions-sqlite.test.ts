/**
 * Database sessions through the handler on the SQLite adapter: better-sqlite3,
 * and node:sqlite where this Node has it (Node >= 22.5). A driver that does not
 * load is skipped with the reason.
 */
import { describe, it } from "vitest";
import { SqliteAdapter, migrate } from "@gatehouse/runtime/adapters/sqlite";
import type { DatabaseSyncLike } from "@gatehouse/runtime/adapters/sqlite/node-sqlite";
import { runDatabaseSessionTests } from "./database-sessions.js";

type Connection = DatabaseSyncLike & { close(): void };

async function openBetterSqlite3(): Promise<(() => Connection) | string> {
  try {
    const { default: Database } = await import("better-sqlite3");
    new Database(":memory:").close();
    return () => new Database(":memory:");
  } catch (error) {
    return `better-sqlite3 does not load on Node ${process.version}: ${(error as Error).message.replace(/\s+/g, " ")}`;
  }
}

async function openNodeSqlite(): Promise<(() => Connection) | string> {
  try {
    const specifier = "node:sqlite";
    const { DatabaseSync } = (process.getBuiltinModule?.(specifier) ?? (await import(/* @vite-ignore */ specifier))) as {
      DatabaseSync: new (path: string) => Connection;
    };
    new DatabaseSync(":memory:").close();
    return () => new DatabaseSync(":memory:");
  } catch (error) {
    return `node:sqlite is not in Node ${process.version} (it is from Node 22.5): ${(error as Error).message.replace(/\s+/g, " ")}`;
  }
}

const targets = [
  { name: "SQLite (better-sqlite3, :memory:)", open: await openBetterSqlite3() },
  { name: "SQLite (node:sqlite, :memory:)", open: await openNodeSqlite() },
];

for (const { name, open } of targets) {
  if (typeof open === "string") {
    describe.skip(`database sessions on ${name} (skipped: ${open})`, () => {
      it.todo("runs where the driver loads");
    });
    continue;
  }
  let db: Connection;
  runDatabaseSessionTests({
    name,
    async setup() {
      db = open();
      await migrate(db);
      return SqliteAdapter(db);
    },
    reset() {
      db.exec(`DELETE FROM authenticators; DELETE FROM sessions; DELETE FROM accounts;
        DELETE FROM verification_token; DELETE FROM users;`);
    },
    teardown() {
      db?.close();
    },
  });
}
