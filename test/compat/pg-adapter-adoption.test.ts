/**
 * An app moving from Auth.js keeps its users signed in: on a real PostgreSQL
 * server (`DATABASE_URL`), `@auth/core` 0.41.3 with `@auth/pg-adapter` 1.11.3
 * on the official schema signs users in for real (email links, one OIDC
 * account), then our `migrate()` adopts that database and our handler, with our
 * PostgresAdapter and the same config, serves the browsers' old cookies.
 *
 * The tests run in order and share one database: each is a later moment of the
 * same migration.
 */
import AuthjsPostgresAdapter from "@auth/pg-adapter";
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { OIDC } from "@gatehouse/runtime/providers";
import type { AuthConfig } from "@gatehouse/runtime";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, droppablePool, type TestDatabase } from "../adapters/support/postgres-server.js";
import { AUTHJS_PG_SCHEMA } from "../adapters/support/authjs-schema.js";
import { CookieJar, ORIGIN, SECRET, request } from "../helpers.js";
import { ProviderUserAgent } from "../oauth/support/user-agent.js";
import { startOidcServer, type OidcServer } from "../oauth/support/oidc-server.js";
import { authJsHandler, ourHandler, type Handler } from "./support/driver.js";

const serverUrl = process.env.DATABASE_URL;
/** Production apps run on https, where both name the cookie `__Secure-authjs.session-token`. */
const SECURE_ORIGIN = ORIGIN.replace("http:", "https:");

/** A browser on one origin: its own cookie jar, sent with every request. */
class Browser {
  readonly jar = new CookieJar();
  constructor(readonly origin: string) {}

  async go(handler: Handler, config: AuthConfig, target: string, form?: Record<string, string>): Promise<Response> {
    const url = new URL(target, this.origin);
    const response = await handler(request(`${url.pathname}${url.search}`, { jar: this.jar, origin: this.origin, ...(form ? { form } : {}) }), config);
    this.jar.store(response);
    return response;
  }

  async csrf(handler: Handler, config: AuthConfig): Promise<string> {
    return ((await (await this.go(handler, config, "/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  }

  async session(handler: Handler, config: AuthConfig): Promise<{ user: { email: string; name: string | null }; expires: string } | null> {
    return (await this.go(handler, config, "/auth/session")).json();
  }

  /** The session cookie this browser holds, whatever its name. */
  sessionCookie(): [string, string] | undefined {
    return [...this.jar.cookies].find(([name]) => name.endsWith("authjs.session-token"));
  }
}

/** The names of the session cookies a response sets. */
const sessionCookieNames = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((header) => header.slice(0, header.indexOf("=")))
    .filter((name) => name.endsWith("session-token"));

/** The app's config, the same on both sides but for the adapter (as an app that switches writes it). */
function appConfig(adapter: AuthConfig["adapter"], mailbox: Map<string, string>, oidc: OidcServer): AuthConfig {
  const email = {
    id: "email",
    type: "email",
    name: "Email",
    from: "auth@example.com",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => void mailbox.set(identifier, url),
  } as unknown as AuthConfig["providers"][number];
  const { client_id, client_secret } = oidc.clients.basic;
  return {
    secret: SECRET,
    trustHost: true,
    logger: { error() {}, warn() {}, debug() {} },
    session: { strategy: "database" },
    adapter,
    providers: [email, OIDC({ id: "oidc", name: "Test IdP", issuer: oidc.issuer, clientId: client_id, clientSecret: client_secret })],
  };
}

/**
 * Asks for a link and opens it. Auth.js signs in on the link's GET; ours (by
 * default) shows a page whose button POSTs the link's fields. Returns the
 * answer that set the session cookie.
 */
async function emailSignIn(handler: Handler, config: AuthConfig, browser: Browser, mailbox: Map<string, string>, email: string): Promise<Response> {
  const csrfToken = await browser.csrf(handler, config);
  expect((await browser.go(handler, config, "/auth/signin/email", { csrfToken, email, callbackUrl: "/dashboard" })).status).toBe(302);
  return openLink(handler, config, browser, mailbox.get(email)!, csrfToken);
}

async function openLink(handler: Handler, config: AuthConfig, browser: Browser, link: string, csrfToken: string): Promise<Response> {
  const opened = await browser.go(handler, config, link);
  if (handler === authJsHandler) return opened;
  expect(opened.status).toBe(200);
  const field = (name: string) => new URL(link).searchParams.get(name)!;
  return browser.go(handler, config, "/auth/callback/email", { csrfToken, token: field("token"), email: field("email"), callbackUrl: field("callbackUrl") });
}

async function oidcSignIn(handler: Handler, config: AuthConfig, browser: Browser, login: string): Promise<Response> {
  const csrfToken = await browser.csrf(handler, config);
  const start = await browser.go(handler, config, "/auth/signin/oidc", { csrfToken, callbackUrl: "/dashboard" });
  const answer = await new ProviderUserAgent().authorize(start.headers.get("location")!, { login });
  return browser.go(handler, config, answer.callbackUrl!);
}

describe.skipIf(!serverUrl)(
  serverUrl
    ? "moving from Auth.js (@auth/pg-adapter) to our PostgreSQL adapter on a PostgreSQL server"
    : "moving from Auth.js to our PostgreSQL adapter (skipped: DATABASE_URL is not set; export DATABASE_URL=$(test/adapters/support/start-postgres.sh))",
  () => {
    let database: TestDatabase;
    let pool: pg.Pool;
    let oidc: OidcServer;
    const mailbox = new Map<string, string>();
    let theirs: AuthConfig;
    let ours: AuthConfig;
    const rows = async (sql: string) => (await pool.query(sql)).rows;
    const USERS = `SELECT id::text AS id, name, email, "emailVerified", image FROM users ORDER BY email`;
    const SESSIONS = `SELECT "sessionToken", "userId"::text AS "userId", expires FROM sessions ORDER BY "sessionToken"`;
    const ACCOUNTS = `SELECT "userId"::text AS "userId", type, provider, "providerAccountId", access_token, refresh_token, id_token, expires_at, scope, token_type FROM accounts`;

    // Browsers of the Auth.js era: Ada on http, Grace on https, Carol through the IdP; Dan asked for a link but has not opened it yet.
    const ada = new Browser(ORIGIN);
    const grace = new Browser(SECURE_ORIGIN);
    const carol = new Browser(ORIGIN);
    const dan = new Browser(ORIGIN);
    let danCsrf: string;
    const before: { users?: unknown[]; sessions?: Array<{ sessionToken: string; userId: string; expires: Date }>; accounts?: unknown[] } = {};
    const expiresBefore = new Map<Browser, string>();

    beforeAll(async () => {
      database = await createTestDatabase(serverUrl!, "authjs_adoption");
      pool = droppablePool({ connectionString: database.url, max: 5 });
      // The @auth/pg-adapter schema from nextauthjs/next-auth packages/adapter-pg/schema.sql
      // (same tables as AUTHJS_PG_SCHEMA, whose text matches it but for psql's `\set ON_ERROR_STOP`).
      await pool.query(AUTHJS_PG_SCHEMA);
      oidc = await startOidcServer();
      theirs = appConfig(AuthjsPostgresAdapter(pool), mailbox, oidc);
      ours = appConfig(PostgresAdapter(pool), mailbox, oidc);
    }, 60_000);
    afterAll(async () => {
      await oidc?.close();
      await pool?.end();
      await database?.drop();
    });

    it("Auth.js signs three users in (two email links, one OIDC account) and leaves a link unopened", async () => {
      expect(sessionCookieNames(await emailSignIn(authJsHandler, theirs, ada, mailbox, "ada@example.com"))).toEqual(["authjs.session-token"]);
      expect(sessionCookieNames(await emailSignIn(authJsHandler, theirs, grace, mailbox, "grace@example.com"))).toEqual(["__Secure-authjs.session-token"]);
      expect(sessionCookieNames(await oidcSignIn(authJsHandler, theirs, carol, "carol"))).toEqual(["authjs.session-token"]);
      danCsrf = await dan.csrf(authJsHandler, theirs);
      await dan.go(authJsHandler, theirs, "/auth/signin/email", { csrfToken: danCsrf, email: "dan@example.com", callbackUrl: "/dashboard" });

      for (const [browser, email] of [[ada, "ada@example.com"], [grace, "grace@example.com"], [carol, "carol@example.test"]] as const) {
        const session = await browser.session(authJsHandler, theirs);
        expect(session?.user.email).toBe(email);
        expiresBefore.set(browser, session!.expires);
      }
      before.users = await rows(USERS);
      before.sessions = (await rows(SESSIONS)) as typeof before.sessions;
      before.accounts = await rows(ACCOUNTS);
      expect(before.users.map((user: any) => [user.id, user.email])).toEqual([
        ["1", "ada@example.com"],
        ["3", "carol@example.test"],
        ["2", "grace@example.com"],
      ]);
      expect(before.sessions!.map((s) => s.sessionToken).sort()).toEqual([ada, grace, carol].map((b) => b.sessionCookie()![1]).sort());
      expect(before.accounts).toEqual([expect.objectContaining({ userId: "3", provider: "oidc", type: "oidc" })]);
    });

    it("migrate() adopts the database: users, sessions and the account keep their data", async () => {
      const { applied } = await migrate(pool);
      expect(applied.length).toBeGreaterThan(0);
      expect(await rows(USERS)).toEqual(before.users);
      expect(await rows(SESSIONS)).toEqual(before.sessions);
      expect(await rows(ACCOUNTS)).toEqual(before.accounts);
    });

    it("each old cookie reads its own user through our handler, its expiry not earlier", async () => {
      for (const [browser, email] of [[ada, "ada@example.com"], [grace, "grace@example.com"], [carol, "carol@example.test"]] as const) {
        const session = await browser.session(ourHandler, ours);
        expect(session?.user.email).toBe(email);
        expect(Date.parse(session!.expires)).toBeGreaterThanOrEqual(Date.parse(expiresBefore.get(browser)!));
        // Still signed in: no answer cleared or renamed the cookie.
        expect(browser.sessionCookie()).toBeDefined();
      }
      const stored = (await rows(SESSIONS)) as NonNullable<typeof before.sessions>;
      for (const old of before.sessions!) {
        const now = stored.find((s) => s.sessionToken === old.sessionToken);
        expect(now?.userId).toBe(old.userId);
        expect(now!.expires.getTime()).toBeGreaterThanOrEqual(old.expires.getTime());
      }
    });

    it("a link Auth.js mailed before the switch still signs in through our handler", async () => {
      const response = await openLink(ourHandler, ours, dan, mailbox.get("dan@example.com")!, danCsrf);
      expect(sessionCookieNames(response)).toEqual(["authjs.session-token"]);
      expect((await dan.session(ourHandler, ours))?.user.email).toBe("dan@example.com");
    });

    it("new sign-ins through our handler land on the old users, with Auth.js's cookie names", async () => {
      const adaLaptop = new Browser(ORIGIN);
      expect(sessionCookieNames(await emailSignIn(ourHandler, ours, adaLaptop, mailbox, "ada@example.com"))).toEqual(["authjs.session-token"]);
      const graceLaptop = new Browser(SECURE_ORIGIN);
      expect(sessionCookieNames(await emailSignIn(ourHandler, ours, graceLaptop, mailbox, "grace@example.com"))).toEqual(["__Secure-authjs.session-token"]);
      const carolLaptop = new Browser(ORIGIN);
      expect(sessionCookieNames(await oidcSignIn(ourHandler, ours, carolLaptop, "carol"))).toEqual(["authjs.session-token"]);

      const owner = async (browser: Browser) =>
        (await pool.query(`SELECT "userId" FROM sessions WHERE "sessionToken" = $1`, [browser.sessionCookie()![1]])).rows[0]?.userId;
      expect([await owner(adaLaptop), await owner(graceLaptop), await owner(carolLaptop)]).toEqual(["1", "2", "3"]);
      // No duplicates: the three old users, and Dan, new.
      expect((await rows(USERS)).map((user: any) => user.email)).toEqual(["ada@example.com", "carol@example.test", "dan@example.com", "grace@example.com"]);
      // Carol's OIDC account is the one Auth.js stored; ours also records an `email` account per email sign-in (runtime/src/core/email/user.ts), on the old ids.
      expect(await rows(`SELECT "userId", provider FROM accounts WHERE "userId" IN ('1', '2', '3') ORDER BY "userId"`)).toEqual([
        { userId: "1", provider: "email" },
        { userId: "2", provider: "email" },
        { userId: "3", provider: "oidc" },
      ]);
      expect((await adaLaptop.session(ourHandler, ours))?.user.email).toBe("ada@example.com");
    });

    it("sign-out through our handler deletes the old session row; the others still read", async () => {
      const adaToken = ada.sessionCookie()![1];
      const csrfToken = await ada.csrf(ourHandler, ours);
      const signedOut = await ada.go(ourHandler, ours, "/auth/signout", { csrfToken, callbackUrl: "/bye" });
      expect(signedOut.status).toBe(302);
      expect(ada.sessionCookie()).toBeUndefined();
      expect((await pool.query(`SELECT 1 FROM sessions WHERE "sessionToken" = $1`, [adaToken])).rows).toEqual([]);
      expect(await ada.session(ourHandler, ours)).toBeNull();

      expect((await grace.session(ourHandler, ours))?.user.email).toBe("grace@example.com");
      expect((await carol.session(ourHandler, ours))?.user.email).toBe("carol@example.test");
    });
  },
);
