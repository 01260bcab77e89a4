/**
 * Against Better Auth (`better-auth`, a devDependency used only as the
 * reference), in process on memory adapters, on PGlite and (with
 * DATABASE_URL) on the PostgreSQL server, on the same work: a signed-in session
 * read (ours a JWT against Better Auth's signed cookie cache, ours a database
 * session against its session lookup), email + password sign-in with
 * the same fast password hash function on both sides (a real hash, scrypt at
 * N = 2^15, is most of a sign-in's cost on either side and would hide the
 * handlers: both use the same one, so with it the two are equal), and sign-out
 * of a database session (each a fresh session, made through the adapter rather
 * than by a sign-in, which would bring the hash back in). Ours signs in through
 * a Credentials `authorize` that looks the user up and checks the hash, the
 * way an app's own password check does; Better Auth through its email and
 * password sign-in with `password: { hash, verify }`.
 *
 * Each implementation is `{ name, call(request), state }` as measure.mjs
 * takes them; `state` holds the implementation's own requests, since the two
 * handlers differ in paths, bodies and cookies.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { getMigrations } from "better-auth/db/migration";
import { PGlite } from "@electric-sql/pglite";
import { PGliteDialect } from "kysely";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { Credentials } from "@gatehouse/runtime/providers";
import { cookiePairs } from "./measure.mjs";
import { ORIGIN, SECRET, quiet } from "./core.mjs";
import { FLOOR_QUERY, scratchDatabase, tokenOf } from "./database.mjs";

const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery staple";
const NAME = "Ada Lovelace";
const DAY = 86_400_000;
/** Better Auth's routes live under /api/auth by default; the same on both sides would change nothing measured. */
const BA = `${ORIGIN}/api/auth`;

/** The one password hash function of both sides: salted SHA-256, fast on purpose (see above). */
const fastHash = {
  hash(password) {
    const salt = randomUUID();
    return `${salt}:${createHash("sha256").update(`${salt}:${password}`).digest("hex")}`;
  },
  verify(password, stored) {
    const [salt, digest] = stored.split(":");
    return timingSafeEqual(Buffer.from(digest, "hex"), createHash("sha256").update(`${salt}:${password}`).digest());
  },
};

const post = (url, { json, form, cookie }) =>
  new Request(url, {
    method: "POST",
    headers: {
      "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
    },
    body: json ? JSON.stringify(json) : new URLSearchParams(form).toString(),
  });

/** Ours on `adapter` (the memory adapter unless given), one user and its password hash (kept as an app keeps it); `strategy` of the session. */
async function gatehouse(strategy, adapter = MemoryAdapter()) {
  const user = await adapter.createUser({ email: EMAIL, emailVerified: new Date(), name: NAME, image: null });
  const hashes = new Map([[EMAIL, fastHash.hash(PASSWORD)]]);
  const authorize = ({ email, password }) => {
    const stored = hashes.get(String(email));
    return stored && fastHash.verify(String(password), stored) ? { id: user.id, email: user.email, name: user.name } : null;
  };
  const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize });
  // Credentials sign-ins make JWT sessions; the database sessions of the sign-out are made through the adapter.
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet, adapter, session: { strategy }, providers: [credentials] };
  const call = (request) => GatehouseAuth(request, config);
  const csrf = await call(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrf.json();
  const csrfCookie = cookiePairs(csrf).find((c) => c.includes("csrf-token"));
  const signIn = () => post(`${ORIGIN}/auth/callback/credentials`, { form: { email: EMAIL, password: PASSWORD, csrfToken }, cookie: csrfCookie });
  const signedIn = await call(signIn());
  if (signedIn.status !== 302 || !cookiePairs(signedIn).some((c) => c.includes("session-token"))) throw new Error(`gatehouse: sign-in failed (${signedIn.status})`);
  // The signed-in session read: the JWT of a sign-in, or a database session made for it.
  const sessionCookie = strategy === "jwt" ? cookiePairs(signedIn).find((c) => c.includes("session-token")) : (await databaseSessions(adapter, user.id, 1))[0];
  return {
    name: "gatehouse",
    call,
    state: {
      sessionRead: () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: sessionCookie } }),
      signIn,
      sessions: async (count) => (await databaseSessions(adapter, user.id, count)).map((cookie) => `${cookie}; ${csrfCookie}`),
      signOut: (cookie) => post(`${ORIGIN}/auth/signout`, { form: { csrfToken }, cookie }),
    },
  };
}

/** `count` database sessions of the user, as the cookies that carry them. */
function databaseSessions(adapter, userId, count) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const sessionToken = randomUUID();
      await adapter.createSession({ sessionToken, userId, expires: new Date(Date.now() + 30 * DAY) });
      return `authjs.session-token=${sessionToken}`;
    }),
  );
}

/**
 * Better Auth with email + password, hashing with the same function; the cookie
 * cache on or off; on its memory adapter, or on `database` (a `pg` pool, or a
 * Kysely dialect as `{ dialect, type }`), with its own tables made by its
 * migrations.
 */
async function betterAuthImpl(cookieCache, database) {
  const options = {
    secret: SECRET,
    baseURL: ORIGIN,
    database: database ?? memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true, password: { hash: async (password) => fastHash.hash(password), verify: async ({ hash, password }) => fastHash.verify(password, hash) } },
    session: { cookieCache: { enabled: cookieCache } },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    telemetry: { enabled: false },
  };
  if (database) await (await getMigrations(options)).runMigrations();
  const auth = betterAuth(options);
  const call = (request) => auth.handler(request);
  const signUp = await call(post(`${BA}/sign-up/email`, { json: { email: EMAIL, password: PASSWORD, name: NAME } }));
  if (signUp.status !== 200) throw new Error(`better-auth: sign-up failed (${signUp.status}): ${await signUp.text()}`);
  const signIn = () => post(`${BA}/sign-in/email`, { json: { email: EMAIL, password: PASSWORD } });
  const signedIn = await call(signIn());
  const cookies = cookiePairs(signedIn).join("; ");
  if (signedIn.status !== 200 || !cookies.includes("session_token=")) throw new Error(`better-auth: sign-in failed (${signedIn.status})`);
  const { user } = await signedIn.json();
  const context = await auth.$context;
  return {
    name: "better-auth",
    call,
    state: {
      sessionRead: () => new Request(`${BA}/get-session`, { headers: { cookie: cookies } }),
      signIn,
      async sessions(count) {
        return Promise.all(
          Array.from({ length: count }, async () => {
            const { token } = await context.internalAdapter.createSession(user.id);
            return `better-auth.session_token=${signedCookieValue(token)}`;
          }),
        );
      },
      signOut: (cookie) => post(`${BA}/sign-out`, { json: {}, cookie }),
    },
  };
}

/** A session token as Better Auth's signed cookie carries it: `token.signature`, HMAC-SHA256 with the secret, base64, URL-encoded. */
function signedCookieValue(token) {
  return encodeURIComponent(`${token}.${createHmac("sha256", SECRET).update(token).digest("base64")}`);
}

/**
 * The floor of each scenario on a database: the queries its work needs, on our
 * tables through the client our adapter uses (`client`), and nothing else, on
 * our requests: the read one query (the session joined to its user), the
 * sign-out one (the session deleted), the sign-in two (the user by email, its
 * password checked with the same hash function, then a new session row). No
 * cookie, form or JSON parsing beyond the token, no `Response`: work no handler
 * can skip, so Better Auth's rate against it is the most any handler could be
 * ahead of Better Auth on that database, and each side's time above it is its
 * own work.
 */
function databaseFloor(client) {
  const stored = fastHash.hash(PASSWORD);
  const ok = { status: 200 };
  const found = (rows) => (rows.length === 1 ? ok : { status: 404 });
  const routes = {
    "/auth/session": async (request) =>
      found((await client.query(FLOOR_QUERY.text, [tokenOf(request)])).rows),
    "/auth/signout": async (request) => found((await client.query('DELETE FROM sessions WHERE "sessionToken" = $1 RETURNING id', [tokenOf(request)])).rows),
    "/auth/callback/credentials": async () => {
      const [user] = (await client.query("SELECT * FROM users WHERE email = $1", [EMAIL])).rows;
      if (!user || !fastHash.verify(PASSWORD, stored)) return { status: 401 };
      await client.query('INSERT INTO sessions ("sessionToken", "userId", expires) VALUES ($1, $2, $3)', [randomUUID(), user.id, new Date(Date.now() + 30 * DAY)]);
      return ok;
    },
  };
  return { name: "floor (its queries)", call: (request) => routes[new URL(request.url).pathname](request) };
}

/** Checks once, before measuring, that each side's session read answers its signed-in user (a wrong cookie answers 200 with null on both). */
async function expectSignedIn(impls) {
  for (const impl of impls) {
    const body = await (await impl.call(impl.state.sessionRead())).json();
    if (body?.user?.email !== EMAIL) throw new Error(`${impl.name}: the session read answers no signed-in user: ${JSON.stringify(body)}`);
  }
  return impls;
}

const sessionRead = (label, more = {}) => ({ [label]: { status: 200, reusable: true, request: (s) => s.sessionRead(), ...more } });
/** Ours redirects a form post (302), Better Auth answers JSON (200). */
const answered = (impl) => (impl.name === "gatehouse" ? 302 : 200);

/**
 * Both sides on PGlite, each in an in-memory database of its own (so neither
 * waits on the other's queries: a PGlite runs one query at a time): ours through
 * `fromPGlite` as an app uses it, Better Auth through Kysely's own
 * `PGliteDialect` (part of kysely 0.29, which Better Auth is built on: no
 * community dialect package needed).
 * `transaction: true` as Better Auth sets for itself on a `pg` pool; none of the
 * measured routes opens one, only the untimed sign-up does.
 */
async function pgliteImpls() {
  const [ours, theirs] = [new PGlite(), new PGlite()];
  const client = fromPGlite(ours);
  await migrate(client);
  const impls = [
    await gatehouse("database", PostgresAdapter(client)),
    await betterAuthImpl(false, { dialect: new PGliteDialect({ pglite: theirs }), type: "postgres", transaction: true }),
  ];
  return { impls, client, close: () => Promise.all([ours.close(), theirs.close()]) };
}

/**
 * `kind`: `cookie-cache` (ours JWT against its cookie cache, memory adapters),
 * `database` (database sessions on memory adapters, its cache off), `pglite`
 * (the same, each side on a PGlite database of its own), or `postgres` (the
 * same on the PostgreSQL server of `serverUrl`: each side a database of its
 * own with its own tables and its own pool).
 */
export async function betterAuthSuite(kind, serverUrl) {
  if (kind === "cookie-cache") {
    return { impls: await expectSignedIn([await gatehouse("jwt"), await betterAuthImpl(true)]), scenarios: sessionRead("session read (ours JWT, theirs cookie cache)") };
  }
  const label = { database: "memory", pglite: "PGlite", postgres: "PostgreSQL" }[kind];
  let close;
  let impls;
  // On a database, our client: the floor's queries run on our tables through it (see `databaseFloor`).
  let client;
  if (kind === "postgres") {
    const [ours, theirs] = [await scratchDatabase(serverUrl), await scratchDatabase(serverUrl)];
    close = () => Promise.all([ours.close(), theirs.close()]);
    client = fromPg(ours.pool);
    await migrate(client);
    impls = [await gatehouse("database", PostgresAdapter(client)), await betterAuthImpl(false, theirs.pool)];
  } else if (kind === "pglite") {
    ({ impls, client, close } = await pgliteImpls());
  } else {
    impls = [await gatehouse("database"), await betterAuthImpl(false)];
  }
  await expectSignedIn(impls);
  if (client) impls.push({ ...databaseFloor(client), state: impls[0].state });
  // Better Auth answers about 100 requests a second on PGlite: a sample of 64 takes most of a second,
  // and tinybench's 64 samples per round would make a round a minute. As the OIDC suite's, 8 are enough.
  const more = kind === "pglite" ? { samples: 8 } : {};
  return {
    impls,
    scenarios: {
      ...sessionRead(`session read (database session, ${label}, no cookie cache)`, more),
      [`sign-out (database session, ${label})`]: { status: answered, prepare: async (s, count) => (await s.sessions(count)).map((cookie) => s.signOut(cookie)), ...more },
      [`email + password sign-in (${label}, same hash both sides)`]: { status: answered, request: (s) => s.signIn(), ...more },
    },
    close,
  };
}
