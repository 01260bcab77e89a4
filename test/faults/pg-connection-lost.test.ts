/**
 * `fromPg(pool).transaction()` when the connection is lost mid-transaction: the
 * call rejects, and the "error" event pg emits on the checked-out client has a
 * listener. Without one (pg-pool listens only while a client is idle) the event
 * is an uncaught exception that ends a Node server: a database outage during a
 * first sign-in used to take the whole app down. The broken connection is
 * dropped and the same pool serves the next transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { NEEDS_POSTGRES, openOutageDatabase, type OutageDatabase } from "./support/outage-database.js";

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)(`a pg transaction whose connection is lost ${NEEDS_POSTGRES}`, () => {
  let db: OutageDatabase;

  beforeAll(async () => {
    db = await openOutageDatabase(serverUrl!, "faults_pg");
  });
  afterAll(async () => {
    db?.restore();
    await db?.close();
  });

  it("rejects, the client's error event is handled, and the pool recovers", async () => {
    // For each "error" a checked-out client emits: did anyone listen? (EventEmitter throws when not.)
    const errorEventsHeard: boolean[] = [];
    const watch = (client: pg.PoolClient) => {
      const emit = client.emit.bind(client);
      client.emit = (event: string | symbol, ...args: unknown[]) => {
        if (event === "error") errorEventsHeard.push(client.listenerCount("error") > 0);
        return emit(event, ...args);
      };
    };
    db.pool.on("acquire", watch);
    const sql = fromPg(db.pool);
    try {
      const held = sql.transaction((tx) => tx.query(`SELECT pg_sleep(1), 'held-transaction'`));
      await db.waitForStatement(/held-transaction/);
      db.cut();
      await expect(held).rejects.toThrow(/terminated|ECONNRESET|not queryable/i);
      expect(errorEventsHeard).toEqual([true]);
    } finally {
      db.pool.off("acquire", watch);
      db.restore();
    }
    const { rows } = await sql.transaction((tx) => tx.query<{ ok: number }>(`SELECT 1 AS ok`));
    expect(rows).toEqual([{ ok: 1 }]);
  });
});
