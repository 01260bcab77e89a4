/**
 * `fromPGlite` runs queries with parameters as named prepared statements over
 * PGlite's wire protocol (parsed and planned once): the rows and errors are the
 * ones PGlite's own `query` gives, and the statements survive what can happen to
 * them on a live database (deallocated, a failed bind, a migration that changes
 * a result type, queries and transactions at the same time).
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SqlClient } from "../../runtime/src/adapters/postgres/index.js";
import { fromPGlite, type PGliteLike } from "../../runtime/src/adapters/postgres/pglite.js";
import { statementName } from "../../runtime/src/adapters/postgres/statement-name.js";
import { openPGlite } from "./support/pglite.js";

let pglite: PGlite;
let prepared: SqlClient;
let plain: SqlClient;

beforeAll(async () => {
  pglite = await openPGlite();
  prepared = fromPGlite(pglite);
  plain = fromPGlite(pglite, { preparedStatements: false });
}, 60_000);
afterAll(async () => {
  await pglite?.close();
});
beforeEach(async () => {
  await pglite.exec(`
    DEALLOCATE ALL;
    DROP TABLE IF EXISTS things;
    CREATE TABLE things (id text PRIMARY KEY, n integer, big bigint, ok boolean, at timestamptz, doc jsonb, note text);
    INSERT INTO things VALUES ('a', 1, 9007199254740993, true, '2026-11-22T07:00:00.123Z', '{"k": [1, 2]}', NULL);`);
});

const SELECT = "SELECT id, n, big, ok, at, doc, note FROM things WHERE id = $1";

async function preparedNames(): Promise<string[]> {
  return (await pglite.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map((row) => row.name);
}

describe("fromPGlite with prepared statements", () => {
  it("answers the rows PGlite's own query answers, every type parsed the same way", async () => {
    const ours = await prepared.query(SELECT, ["a"]);
    const theirs = await plain.query(SELECT, ["a"]);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows[0]).toMatchObject({ id: "a", n: 1, ok: true, doc: { k: [1, 2] }, note: null });
    expect(ours.rows[0]!.at).toEqual(new Date("2026-11-22T07:00:00.123Z"));
    expect((await prepared.query(SELECT, ["none"])).rows).toEqual([]);
  });

  it("parses each text once: the statement is named after its text and kept; without the option, nothing is prepared", async () => {
    await plain.query(SELECT, ["a"]);
    expect(await preparedNames()).toEqual([]);
    for (let i = 0; i < 3; i++) await prepared.query(SELECT, ["a"]);
    expect(await preparedNames()).toEqual([statementName(SELECT)]);
  });

  it("writes with parameters, and reports a database error with its code", async () => {
    await prepared.query("INSERT INTO things (id, n) VALUES ($1, $2)", ["b", 2]);
    expect((await plain.query("SELECT n FROM things WHERE id = 'b'")).rows).toEqual([{ n: 2 }]);
    await expect(prepared.query("INSERT INTO things (id, n) VALUES ($1, $2)", ["b", 3])).rejects.toMatchObject({ code: "23505" });
  });

  it("a value the statement cannot take fails alone: the next call with a good value works", async () => {
    const byTime = "SELECT id FROM things WHERE at = $1";
    await expect(prepared.query(byTime, ["not a time"])).rejects.toMatchObject({ code: "22007" });
    expect((await prepared.query(byTime, [new Date("2026-11-22T07:00:00.123Z")])).rows).toEqual([{ id: "a" }]);
  });

  it("parses again after the app deallocated its statements", async () => {
    await prepared.query(SELECT, ["a"]);
    await pglite.exec("DEALLOCATE ALL");
    expect((await prepared.query(SELECT, ["a"])).rows).toHaveLength(1);
  });

  it("parses again after a migration changed a result type (a cached plan must not change it)", async () => {
    await prepared.query(SELECT, ["a"]);
    await pglite.exec("ALTER TABLE things ALTER COLUMN n TYPE text");
    expect((await prepared.query(SELECT, ["a"])).rows[0]).toMatchObject({ n: "1" });
  });

  it("a syntax error is the error PGlite reports, and leaves the connection usable", async () => {
    await expect(prepared.query("SELEC id FROM things WHERE id = $1", ["a"])).rejects.toMatchObject({ code: "42601" });
    expect((await prepared.query(SELECT, ["a"])).rows).toHaveLength(1);
  });

  it("never runs inside someone else's transaction: queries at the same time wait for it, and see its outcome", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("UPDATE things SET n = 42 WHERE id = 'a'");
      await held;
      await tx.rollback();
    });
    const reads = Array.from({ length: 20 }, () => prepared.query<{ n: number }>(SELECT, ["a"]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    // Had a read joined the open transaction, it would have seen 42.
    for (const { rows } of await Promise.all(reads)) expect(rows[0]!.n).toBe(1);
  });

  it("inside a transaction of its own client, queries go the ordinary way (and commit with it)", async () => {
    await prepared.transaction(async (tx) => {
      await tx.query("UPDATE things SET n = $1 WHERE id = $2", [7, "a"]);
      expect((await tx.query<{ n: number }>(SELECT, ["a"])).rows[0]!.n).toBe(7);
    });
    expect((await prepared.query<{ n: number }>(SELECT, ["a"])).rows[0]!.n).toBe(7);
  });

  it("a PGlite-like object without the wire protocol gets ordinary queries", async () => {
    const { query, exec, transaction, waitReady } = pglite;
    const withoutProtocol: PGliteLike = { query: query.bind(pglite), exec: exec.bind(pglite), transaction: transaction.bind(pglite), waitReady };
    expect((await fromPGlite(withoutProtocol).query(SELECT, ["a"])).rows).toHaveLength(1);
    expect(await preparedNames()).toEqual([]);
  });
});
