/**
 * Database sessions while the PostgreSQL server is unreachable (the adapter's
 * connections cut by a proxy, then restored): reading the session, signing in
 * with credentials and signing out each answer an error instead of pretending,
 * leave the browser's session cookie as it was (an outage must not sign anyone
 * out, nor in), write nothing, and the same pool serves the next request once
 * the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, fetchSession, locationOf, SECRET, sessionSetCookies, signInWithCredentials, storesSession } from "../helpers.js";
import { NEEDS_POSTGRES, openOutageDatabase, type OutageDatabase } from "./support/outage-database.js";

const serverUrl = process.env.DATABASE_URL;
const COOKIE = "authjs.session-token";
const ADA = { id: "ada-id", name: "Ada", email: "ada@example.com" };

describe.skipIf(!serverUrl)(`database sessions while the database is down ${NEEDS_POSTGRES}`, () => {
  let db: OutageDatabase;
  let config: AuthConfig;
  let log: ReturnType<typeof captureLogger>;

  beforeAll(async () => {
    db = await openOutageDatabase(serverUrl!, "faults_sessions");
    await db.rows(`INSERT INTO users (id, name, email) VALUES ($1, $2, $3)`, [ADA.id, ADA.name, ADA.email]);
    log = captureLogger();
    config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter: db.adapter,
      session: { strategy: "database" },
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          // The application's own check; with database sessions it returns a user of the users table.
          authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...ADA } : null),
        }),
      ],
    };
  });
  afterAll(async () => {
    db?.restore();
    await db?.close();
  });

  async function signedIn(): Promise<CookieJar> {
    const jar = new CookieJar();
    expect(storesSession(await signInWithCredentials(config, jar))).toBe(true);
    return jar;
  }

  const sessionRows = () => db.rows<{ sessionToken: string }>(`SELECT "sessionToken" FROM sessions WHERE "userId" = $1`, [ADA.id]);

  /** The logged AdapterError of the last request, naming the method, with the driver's error as its cause. */
  function loggedAdapterFailure(method: string): string {
    const error = log.errors.findLast((e) => e.name === "AdapterError")!;
    expect(error.message).toContain(method);
    return String((error.cause as { err?: Error }).err);
  }

  it("reading the session: 500 Configuration (not a 200 with no session), the cookie kept; once back, the same cookie works", async () => {
    const jar = await signedIn();
    const token = jar.get(COOKIE)!;

    db.cut();
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(500);
    expect(body).toMatchObject({ error: "Configuration" });
    // No Set-Cookie at all for the session: the browser keeps its cookie through the outage.
    expect(sessionSetCookies(response)).toEqual([]);
    expect(jar.get(COOKIE)).toBe(token);
    expect(loggedAdapterFailure("getSessionAndUser")).toMatch(/ECONNRESET|terminated|connect/i);

    db.restore();
    const after = await fetchSession(config, jar);
    expect(after.response.status).toBe(200);
    expect(after.body.user).toMatchObject({ email: ADA.email });
    expect((await sessionRows()).map((r) => r.sessionToken)).toContain(token);
  });

  it("signing in with credentials: the Configuration error page, no session cookie, no session row; once back, the sign-in works", async () => {
    const before = await sessionRows();
    const jar = new CookieJar();
    const csrf = await csrfToken(config, jar);

    db.cut();
    const response = await call(config, "/auth/callback/credentials", { jar, form: { username: "ada", password: "correct horse", csrfToken: csrf } });
    expect(response.status).toBe(302);
    expect([locationOf(response).pathname, locationOf(response).searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
    expect(storesSession(response)).toBe(false);
    expect(jar.get(COOKIE)).toBeUndefined();
    // The user lookup is the first database call of this sign-in; nothing after it ran.
    loggedAdapterFailure("getUser");

    db.restore();
    expect(await sessionRows()).toEqual(before);
    expect(storesSession(await signInWithCredentials(config, jar))).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe(ADA.email);
  });

  it("signing out: the Configuration error page instead of a pretended success; the cookie and the row stay, so a retry once back ends the session", async () => {
    const jar = await signedIn();
    const token = jar.get(COOKIE)!;
    const signOuts: unknown[] = [];
    const withEvents: AuthConfig = { ...config, events: { signOut: (message) => void signOuts.push(message) } };
    const csrf = await csrfToken(withEvents, jar);

    db.cut();
    const response = await call(withEvents, "/auth/signout", { jar, form: { csrfToken: csrf } });
    expect(response.status).toBe(302);
    expect([locationOf(response).pathname, locationOf(response).searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
    // Clearing the cookie while the row lives on would end nothing: the session (and any copy of its
    // token) would stay valid, and this browser could no longer end it. So the cookie is kept, the
    // user is told, and signing out again once the database is back does the whole job.
    expect(sessionSetCookies(response)).toEqual([]);
    expect(jar.get(COOKIE)).toBe(token);
    expect(signOuts).toEqual([]);
    loggedAdapterFailure("deleteSession");

    db.restore();
    expect((await sessionRows()).map((r) => r.sessionToken)).toContain(token);
    const retry = await call(withEvents, "/auth/signout", { jar, form: { csrfToken: await csrfToken(withEvents, jar) } });
    expect(locationOf(retry).pathname).toBe("/");
    expect(jar.get(COOKIE)).toBeUndefined();
    expect((await sessionRows()).map((r) => r.sessionToken)).not.toContain(token);
    expect(signOuts).toHaveLength(1);
  });
});
