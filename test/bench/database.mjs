/**
 * Database sessions: session GET on PGlite and on a PostgreSQL server, ours
 * (`PostgresAdapter`) against `@auth/core` with `@auth/pg-adapter`, both reading
 * the same session row of the same database.
 */
import { PGlite } from "@electric-sql/pglite";
import { Auth as AuthJs } from "@auth/core";
import AuthJsPostgresAdapter from "@auth/pg-adapter";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import pg from "pg";
import { ORIGIN, SECRET, quiet } from "./core.mjs";
import { measure } from "./measure.mjs";

const COOKIE = "authjs.session-token";

/**
 * A user and a session row; both implementations read this one session.
 * `runtime` is the runtime's PostgreSQL entry (this checkout's unless another build's is given).
 */
export async function seed(client, runtime = { migrate, PostgresAdapter }) {
  await runtime.migrate(client);
  const adapter = runtime.PostgresAdapter(client);
  const user = await adapter.createUser({ email: "ada@example.com", emailVerified: null, name: "Ada Lovelace" });
  const sessionToken = crypto.randomUUID();
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86_400_000) });
  return { adapter, cookie: `${COOKIE}=${sessionToken}` };
}

/** A handler's config for database sessions on `adapter`: no provider, only the session read. */
export const databaseConfig = (adapter) => ({ secret: SECRET, trustHost: true, logger: quiet, providers: [], adapter, session: { strategy: "database" } });

function impls(ourAdapter, theirAdapter, cookie) {
  const ours = databaseConfig(ourAdapter);
  const theirs = databaseConfig(theirAdapter);
  return [
    { name: "gatehouse", state: { cookie }, call: (request) => GatehouseAuth(request, ours) },
    { name: "@auth/core", state: { cookie }, call: (request) => AuthJs(request, theirs) },
  ];
}

export const sessionGet = (label, suffix = "") => ({
  [`session GET (database, ${label})${suffix}`]: {
    status: 200,
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: s.cookie } }),
  },
});

export async function pgliteSuite() {
  const db = new PGlite();
  const { adapter, cookie } = await seed(fromPGlite(db));
  // @auth/pg-adapter reads `rowCount`, which pg results have and PGlite's do not.
  const asPgResult = {
    query: async (text, params) => {
      const result = await db.query(text, params);
      return { ...result, rowCount: result.affectedRows || result.rows.length };
    },
  };
  return { impls: impls(adapter, AuthJsPostgresAdapter(asPgResult), cookie), scenarios: sessionGet("PGlite"), close: () => db.close() };
}

/**
 * Why `fromPGlite` takes PGlite's two private locks (see pglite.ts): ours as
 * shipped (named prepared statements through PGlite's wire protocol, under the
 * locks its own `query` takes) against ours on PGlite's public `query` only
 * (`preparedStatements: false`, the path a PGlite without those methods gets),
 * on one database and one session row.
 */
export async function pglitePublicSuite() {
  const db = new PGlite();
  const { adapter, cookie } = await seed(fromPGlite(db));
  const publicOnly = PostgresAdapter(fromPGlite(db, { preparedStatements: false }));
  const shipped = databaseConfig(adapter);
  const fallback = databaseConfig(publicOnly);
  return {
    impls: [
      { name: "prepared (shipped)", state: { cookie }, call: (request) => GatehouseAuth(request, shipped) },
      { name: "public query only", state: { cookie }, call: (request) => GatehouseAuth(request, fallback) },
    ],
    scenarios: sessionGet("PGlite"),
    close: () => db.close(),
  };
}

/** A database of its own on the server, with a pool on it; `close` ends the pool and drops the database. */
export async function scratchDatabase(serverUrl) {
  const name = `gatehouse_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 16 });
  // DROP DATABASE ... WITH (FORCE) ends connections a finished run may still hold: not an error of the run.
  pool.on("error", () => {});
  return {
    pool,
    close: async () => {
      await pool.end();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** The one query a database session read needs: the session and its user, by the cookie's token. */
export const FLOOR_QUERY = {
  name: "bench-floor-session",
  text: 'SELECT u.*, s.expires FROM sessions s JOIN users u ON u.id = s."userId" WHERE s."sessionToken" = $1',
};

/** The token of the session cookie (up to the next cookie, if any), with nothing else parsed. */
export const tokenOf = (request) => request.headers.get("cookie").split(`${COOKIE}=`)[1].split(";")[0];

/**
 * The floor of a database session read on the PostgreSQL server: that query as
 * a named prepared statement on the same pool, one round trip, and nothing else:
 * no cookie parsing beyond the token, no expiry check, no JSON, no `Response`.
 */
function postgresFloorImpl(pool) {
  return {
    name: "floor (one prepared query)",
    call: async (request) => {
      const { rows } = await pool.query({ ...FLOOR_QUERY, values: [tokenOf(request)] });
      return { status: rows.length === 1 ? 200 : 404 };
    },
  };
}

/**
 * The least a web handler does around that query: the token from the cookie
 * header, the query, and the session's JSON (the body ours answers) in a
 * `Response` with `headers` (ours: its content type and no-store headers). No
 * expiry check, no callbacks, no routing: a bound no handler goes below,
 * against which ours is what it adds.
 */
function leastHandlerImpl(pool, headers) {
  return {
    name: "least handler (cookie, query, JSON Response)",
    call: async (request) => {
      const [row] = (await pool.query({ ...FLOOR_QUERY, values: [tokenOf(request)] })).rows;
      if (!row) return new Response(null, { status: 404 });
      const session = { user: { name: row.name, email: row.email, image: row.image }, expires: row.expires.toISOString() };
      return new Response(JSON.stringify(session), { headers });
    },
  };
}

/**
 * Ours, and the least handler, each against the floor of the PostgreSQL session
 * read, on one database, pool and session row (two measured pairs, each
 * alternating round by round). The bare query back to back runs with the CPU's
 * caches still warm from the one before; any work between two queries, a
 * handler's or not, makes the next one slower (CONTRIBUTING has the
 * measurement), which the least handler's row shows.
 */
export async function postgresFloorSuite(serverUrl) {
  const { pool, close } = await scratchDatabase(serverUrl);
  const { adapter, cookie } = await seed(fromPg(pool));
  const config = databaseConfig(adapter);
  const floor = { ...postgresFloorImpl(pool), state: { cookie } };
  const ours = { name: "gatehouse", state: { cookie }, call: (request) => GatehouseAuth(request, config) };
  const read = () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie } });
  // The least handler sends our answer's headers, and its body is held to ours byte for byte, or it would not be a bound.
  const answer = await ours.call(read());
  const least = { ...leastHandlerImpl(pool, Object.fromEntries(answer.headers)), state: { cookie } };
  const [oursBody, leastBody] = [await answer.text(), await (await least.call(read())).text()];
  if (oursBody !== leastBody) throw new Error(`The least handler answers ${leastBody} where ours answers ${oursBody}.`);
  const pairs = [
    [ours, "session GET (database, PostgreSQL) vs the floor"],
    [least, "the least handler vs the floor"],
  ];
  return {
    // Each pair's row under the same columns: "handler" is ours in the first, the least handler in the second.
    measure: async (mode) => {
      const rows = [];
      for (const [handler, label] of pairs) {
        const [row] = await measure(mode, [handler, floor], sessionGet("PostgreSQL", " vs the floor"));
        rows.push(Object.fromEntries(Object.entries(row).map(([key, value]) => [key.replace(handler.name, "handler"), key === "scenario" ? label : value])));
      }
      return rows;
    },
    close,
  };
}

export async function postgresSuite(serverUrl) {
  const { pool, close } = await scratchDatabase(serverUrl);
  const { adapter, cookie } = await seed(fromPg(pool));
  return { impls: impls(adapter, AuthJsPostgresAdapter(pool), cookie), scenarios: sessionGet("PostgreSQL"), close };
}
