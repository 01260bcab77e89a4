/**
 * `fromPg` on workerd (Cloudflare Workers): a client serves the request of its
 * first query, and in any later request fails at once with
 * `CrossRequestConnectionError` before anything reaches the connection, where
 * pg would wait forever on a socket workerd refuses to use. Off workerd nothing
 * changes. workerd's request binding is played here by a stream that refuses
 * I/O outside the request it was made in, as workerd's streams and sockets do;
 * test/runtimes/workerd.test.ts proves the same in workerd itself.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
// Relative imports: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import { CrossRequestConnectionError, fromPg, type PgNamedQuery } from "../../runtime/src/adapters/postgres/pg.js";

const WORKERD_REFUSAL = "Cannot perform I/O on behalf of a different request. I/O objects (such as streams, request/response bodies, and others) created in the context of one request handler cannot be accessed from a different request's handler.";

/** A pg Pool stand-in that records the text of every query sent to it. */
function recordingPool() {
  const sent: string[] = [];
  const connection = {
    query: async (query: string | PgNamedQuery, _values?: unknown[]) => {
      sent.push(typeof query === "string" ? query : query.text);
      return { rows: [{ answered: true }] };
    },
    release: () => {},
  };
  return { sent, pool: { ...connection, connect: async () => connection, totalCount: 1, idleCount: 1 } };
}

/** The request being served; a stream made in one refuses I/O in another, as workerd's do. */
let currentRequest = 1;
class RequestBoundStream {
  readonly madeIn = currentRequest;
  readonly writable = { getWriter: () => ({ write: async () => this.#inItsRequest() }) };
  readonly readable = { getReader: () => ({ read: async () => (this.#inItsRequest(), { done: false, value: new Uint8Array(1) }) }) };
  #inItsRequest(): void {
    if (currentRequest !== this.madeIn) throw new Error(WORKERD_REFUSAL);
  }
}

function onWorkerd(): void {
  vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
  vi.stubGlobal("TransformStream", RequestBoundStream);
  currentRequest = 1;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fromPg on workerd", () => {
  it("serves the request of its first query: queries and transactions go through", async () => {
    onWorkerd();
    const { pool, sent } = recordingPool();
    const db = fromPg(pool);
    expect(await db.query("SELECT $1::int AS n", [1])).toEqual({ rows: [{ answered: true }] });
    await db.transaction((tx) => tx.query("SELECT 2"));
    expect(sent).toEqual(["SELECT $1::int AS n", "BEGIN", "SELECT 2", "COMMIT"]);
  });

  it("in a later request, fails at once with CrossRequestConnectionError, which says what to do, and sends nothing", async () => {
    onWorkerd();
    const { pool, sent } = recordingPool();
    const db = fromPg(pool);
    await db.query("SELECT 1");
    currentRequest = 2;
    const refusal = await db.query("SELECT 2").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CrossRequestConnectionError);
    expect(refusal).toMatchObject({
      name: "CrossRequestConnectionError",
      code: "cross_request_connection",
      message: expect.stringMatching(/first used while serving another request\. On Cloudflare Workers \(workerd\).*inside the request handler, once per request\.$/),
      cause: new Error(WORKERD_REFUSAL),
    });
    await expect(db.transaction((tx) => tx.query("SELECT 3"))).rejects.toBeInstanceOf(CrossRequestConnectionError);
    expect(sent).toEqual(["SELECT 1"]);
  });

  it("is bound at its first query, not where it was made (a module's top level is no request)", async () => {
    onWorkerd();
    const { pool, sent } = recordingPool();
    currentRequest = 0;
    const db = fromPg(pool);
    currentRequest = 1;
    await db.query("SELECT 1");
    expect(sent).toEqual(["SELECT 1"]);
  });
});

describe("fromPg off workerd", () => {
  it("keeps one pool for every request: no probe at all", async () => {
    vi.stubGlobal("TransformStream", class {
      constructor() {
        throw new Error("no stream should be made off workerd");
      }
    });
    const { pool, sent } = recordingPool();
    const db = fromPg(pool);
    await db.query("SELECT 1");
    await db.transaction((tx) => tx.query("SELECT 2"));
    expect(sent).toEqual(["SELECT 1", "BEGIN", "SELECT 2", "COMMIT"]);
  });
});
