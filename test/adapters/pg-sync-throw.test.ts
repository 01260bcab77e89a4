/**
 * `fromPg` runs its queries as promise chains, not async functions (the session
 * read runs them on every request). A client that throws at once instead of
 * rejecting must still give a rejected promise, as an async function would:
 * a caller that attaches `.catch` to the query must see the error there, and
 * the adapter must answer an `AdapterError` through the handler, not crash.
 */
import { describe, expect, it } from "vitest";
// Relative imports: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import { fromPg } from "../../runtime/src/adapters/postgres/pg.js";
import { PostgresAdapter } from "../../runtime/src/adapters/postgres/index.js";

/** A pg Pool stand-in whose every query throws before returning a promise. */
function throwingPool(error: Error) {
  const connection = {
    query: (): Promise<never> => {
      throw error;
    },
    release: () => {},
  };
  return { ...connection, connect: async () => connection, totalCount: 1, idleCount: 1 };
}

describe("fromPg on a client that throws at once", () => {
  it.each([
    ["a prepared query with parameters", { preparedStatements: true }, ["SELECT $1::text", ["x"]]],
    ["an unprepared query with parameters", { preparedStatements: false }, ["SELECT $1::text", ["x"]]],
    ["a query without parameters", { preparedStatements: true }, ["SELECT 1", undefined]],
  ] as const)("%s rejects, it does not throw", async (_, options, [text, params]) => {
    const error = new Error("connection refused");
    const client = fromPg(throwingPool(error), options);
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = client.query(text, params as unknown[] | undefined);
    }).not.toThrow();
    await expect(pending).rejects.toBe(error);
  });

  it("getSessionAndUser rejects with the client's error", async () => {
    const error = new Error("connection refused");
    const adapter = PostgresAdapter(fromPg(throwingPool(error)));
    await expect(adapter.getSessionAndUser("token")).rejects.toBe(error);
  });
});
