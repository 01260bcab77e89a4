/**
 * A `pg` connection on workerd (Cloudflare Workers) belongs to one request.
 *
 * workerd ties every I/O object, a TCP socket included, to the request being
 * served when it was made: in any other request it refuses to be used. `pg`
 * does not see that refusal (its socket write fails where nothing looks), so a
 * Pool kept across requests (made at module scope, or in a config built once)
 * sends its query into a dead socket and waits forever, until workerd cancels
 * the request as hung, with no word of why. So on workerd, `fromPg` checks
 * before each query and transaction that it still serves the request of its
 * first one, and otherwise fails at once with `CrossRequestConnectionError`,
 * which says what to do.
 */
import type { SqlClient } from "./client.js";

/** What workerd answers to `navigator.userAgent` (and what `pg` itself checks to pick workerd's sockets). */
const WORKERD_USER_AGENT = "Cloudflare-Workers";

/** A `fromPg` client used in another request than its first one, on Cloudflare Workers (workerd). */
export class CrossRequestConnectionError extends Error {
  override name = "CrossRequestConnectionError";
  readonly code = "cross_request_connection";
}

const MESSAGE =
  "This pg Pool or Client was first used while serving another request. On Cloudflare Workers (workerd) a " +
  "database connection belongs to the request that opened it: in any other request its queries would never " +
  "answer. Make the pool (and the adapter and auth config that use it) inside the request handler, once per request.";

export function onWorkerd(): boolean {
  return globalThis.navigator?.userAgent === WORKERD_USER_AGENT;
}

/** `client`, refusing with `CrossRequestConnectionError` when used in another request than its first query's. */
export function boundToFirstRequest(client: SqlClient): SqlClient {
  let sameRequest: (() => Promise<void>) | undefined;
  async function check(): Promise<void> {
    // Made at the first query, not when the client is wrapped: that may be at module scope, outside any request.
    sameRequest ??= requestProbe();
    try {
      await sameRequest();
    } catch (error) {
      throw new CrossRequestConnectionError(MESSAGE, { cause: error });
    }
  }
  return {
    async query(text, params) {
      await check();
      return client.query(text, params);
    },
    async transaction(fn) {
      await check();
      return client.transaction(fn);
    },
  };
}

const BYTE = new Uint8Array(1);

/**
 * A probe of the current request: a stream made now, which one byte passes
 * through at once in this request and which workerd refuses to touch in any
 * other ("Cannot perform I/O on behalf of a different request"), as it does the
 * connection's socket.
 */
function requestProbe(): () => Promise<void> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const reader = readable.getReader();
  return async () => {
    await Promise.all([writer.write(BYTE), reader.read()]);
  };
}
