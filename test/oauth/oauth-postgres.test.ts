/**
 * OAuth sign-in on a real PostgreSQL server through the postgres adapter: users
 * and accounts as rows, and many first sign-ins of the same new person at once
 * (double clicks, several tabs) ending in one user and one account.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { OIDC } from "@gatehouse/runtime/providers";
import { createTestDatabase, droppablePool, type TestDatabase } from "../adapters/support/postgres-server.js";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET } from "../helpers.js";
import { returnToCallback, signInThroughProvider, startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { authorize } from "./support/user-agent.js";

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl)("OAuth sign-in on a PostgreSQL server (needs DATABASE_URL: test/adapters/support/start-postgres.sh)", () => {
  let server: OidcServer;
  let database: TestDatabase;
  let pool: pg.Pool;
  let config: AuthConfig;

  beforeAll(async () => {
    server = await startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`] });
    database = await createTestDatabase(serverUrl!, "oauth");
    pool = droppablePool({ connectionString: database.url, max: 10 });
    const client = fromPg(pool);
    await migrate(client);
    config = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      adapter: PostgresAdapter(client),
      providers: [OIDC({ id: "oidc", name: "IdP", issuer: server.issuer, clientId: server.clients.basic.client_id, clientSecret: server.clients.basic.client_secret })],
    };
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
    await server?.close();
  });

  it("the first sign-in stores one user and one account row with the tokens; the session works", async () => {
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "pia" });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    const { rows } = await pool.query(
      `SELECT u.email, a.provider, a."providerAccountId", a.token_type, a.expires_at, a.refresh_token IS NOT NULL AS has_refresh
         FROM users u JOIN accounts a ON a."userId" = u.id WHERE u.email = $1`,
      ["pia@example.test"],
    );
    expect(rows).toEqual([{ email: "pia@example.test", provider: "oidc", providerAccountId: "pia", token_type: "bearer", expires_at: expect.anything(), has_refresh: true }]);
    expect((await fetchSession(config, jar)).body.user.email).toBe("pia@example.test");
  });

  it("ten first sign-ins of the same new person at once end in one user and one account, and all of them signed in", async () => {
    // Ten browsers each go through the provider; the callbacks then arrive together.
    const pending = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const jar = new CookieJar();
        const { authorizationUrl } = await startSignIn(config, jar, "oidc");
        return { jar, result: await authorize(authorizationUrl, { login: "quade" }) };
      }),
    );
    const callbacks = await Promise.all(pending.map(({ jar, result }) => returnToCallback(config, jar, result)));
    for (const callback of callbacks) expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    const users = await pool.query(`SELECT id FROM users WHERE email = $1`, ["quade@example.test"]);
    expect(users.rowCount).toBe(1);
    const accounts = await pool.query(`SELECT "userId" FROM accounts WHERE provider = 'oidc' AND "providerAccountId" = 'quade'`);
    expect(accounts.rows).toEqual([{ userId: users.rows[0].id }]);
    for (const { jar } of pending) expect((await fetchSession(config, jar)).body?.user?.email).toBe("quade@example.test");
  });
});
