/**
 * The session action: GET reads (jwt then session callback), POST updates
 * (CSRF-checked, jwt with trigger "update"), and the cookie's sliding expiry.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import {
  USER,
  CookieJar,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  fetchSession,
  isCleared,
  sessionSetCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);

afterEach(() => {
  vi.useRealTimers();
});

function freezeAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

async function signedIn(config: AuthConfig) {
  const jar = new CookieJar();
  const response = await signInWithCredentials(config, jar);
  expect(response.status).toBe(302);
  expect(storesSession(response)).toBe(true);
  return jar;
}

function cookieExpires(response: Response): number {
  const [cookie] = sessionSetCookies(response).filter((c) => !isCleared(c));
  expect(cookie).toBeDefined();
  return new Date(String(cookie!.attributes.expires)).getTime();
}

describe("GET /auth/session", () => {
  it("without a cookie: 200 null, not cacheable, no cookie set", async () => {
    const response = await call(credentialsConfig(), "/auth/session");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(await response.json()).toBeNull();
    expect(sessionSetCookies(response)).toEqual([]);
  });

  it("with a session: 200 {user, expires}, not cacheable", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(body).toEqual({ user: { name: USER.name, email: USER.email, image: USER.image }, expires: expect.any(String) });
  });

  it("a tampered or foreign cookie → null and the cookie is cleared", async () => {
    const log = captureLogger();
    const config = credentialsConfig({ logger: log.logger });
    const jar = new CookieJar();
    jar.cookies.set("authjs.session-token", "not-a-token");
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body).toBeNull();
    const cleared = sessionSetCookies(response);
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared.every(isCleared)).toBe(true);
  });

  it("calls jwt with the token, then session with {session, token}", async () => {
    const jwt = vi.fn(({ token }: any) => token);
    const session = vi.fn(({ session }: any) => session);
    const config = credentialsConfig({ callbacks: { jwt, session } });
    const jar = await signedIn(config);
    jwt.mockClear();
    session.mockClear();

    await fetchSession(config, jar);
    expect(jwt).toHaveBeenCalledTimes(1);
    const jwtArg = jwt.mock.calls[0]![0];
    expect(jwtArg.token).toMatchObject({ sub: USER.id, name: USER.name, email: USER.email, picture: USER.image });
    expect(typeof jwtArg.token.exp).toBe("number");
    expect(jwtArg.trigger).toBeUndefined();

    expect(session).toHaveBeenCalledTimes(1);
    const sessionArg = session.mock.calls[0]![0];
    expect(sessionArg.session).toEqual({
      user: { name: USER.name, email: USER.email, image: USER.image },
      expires: expect.any(String),
    });
    expect(sessionArg.token).toMatchObject({ sub: USER.id, email: USER.email });
    // jwt runs before session.
    expect(jwt.mock.invocationCallOrder[0]!).toBeLessThan(session.mock.invocationCallOrder[0]!);
  });

  it("fields added by the session callback appear in the body", async () => {
    const config = credentialsConfig({
      callbacks: {
        session: ({ session, token }: any) => {
          session.user.id = token.sub;
          session.role = "admin";
          return session;
        },
      },
    });
    const jar = await signedIn(config);
    const { body } = await fetchSession(config, jar);
    expect(body.user).toEqual({ id: USER.id, name: USER.name, email: USER.email, image: USER.image });
    expect(body.role).toBe("admin");
  });

  it("a jwt callback returning null ends the session: body null, cookie cleared", async () => {
    let allow = true;
    const config = credentialsConfig({ callbacks: { jwt: ({ token }: any) => (allow ? token : null) } });
    const jar = await signedIn(config);
    allow = false;

    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body).toBeNull();
    const cookies = sessionSetCookies(response);
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every(isCleared)).toBe(true);
    expect(jar.get("authjs.session-token")).toBeUndefined();
  });

  it("a session callback that throws ends the session, logged, never a 500", async () => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      callbacks: {
        session: () => {
          throw new Error("boom");
        },
      },
    });
    const jar = await signedIn(config);
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body).toBeNull();
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(log.errors.length).toBeGreaterThan(0);
  });

  it("fires events.session with {session, token}", async () => {
    const sessionEvent = vi.fn();
    const config = credentialsConfig({ events: { session: sessionEvent } });
    const jar = await signedIn(config);
    const { body } = await fetchSession(config, jar);

    expect(sessionEvent).toHaveBeenCalledTimes(1);
    const message = sessionEvent.mock.calls[0]![0];
    expect(message.session).toEqual(body);
    expect(message.token).toMatchObject({ sub: USER.id, email: USER.email });
  });

  it("events.session does not fire without a session", async () => {
    const sessionEvent = vi.fn();
    await call(credentialsConfig({ events: { session: sessionEvent } }), "/auth/session");
    expect(sessionEvent).not.toHaveBeenCalled();
  });
});

describe("POST /auth/session (update)", () => {
  function updatingConfig(extra: Partial<AuthConfig> = {}) {
    const jwt = vi.fn(({ token, trigger, session }: any) => {
      if (trigger === "update" && session?.name) token.name = session.name;
      return token;
    });
    const sessionCb = vi.fn(({ session }: any) => session);
    return { jwt, sessionCb, config: credentialsConfig({ callbacks: { jwt, session: sessionCb }, ...extra }) };
  }

  it("calls jwt with trigger update and the client data, returns the new session and re-issues the cookie", async () => {
    const { jwt, sessionCb, config } = updatingConfig();
    const jar = await signedIn(config);
    const before = jar.get("authjs.session-token");
    const token = await csrfToken(config, jar);
    jwt.mockClear();
    sessionCb.mockClear();

    const response = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: { name: "New" } } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const body = await response.json();
    expect(body.user).toEqual({ name: "New", email: USER.email, image: USER.image });

    expect(jwt).toHaveBeenCalledTimes(1);
    expect(jwt.mock.calls[0]![0]).toMatchObject({ trigger: "update", session: { name: "New" } });
    expect(sessionCb.mock.calls[0]![0]).toMatchObject({ trigger: "update", newSession: { name: "New" } });

    expect(storesSession(response)).toBe(true);
    expect(jar.get("authjs.session-token")).not.toBe(before);
    // The new cookie carries the update.
    const { body: again } = await fetchSession(config, jar);
    expect(again.user.name).toBe("New");
  });

  it("without a CSRF token: 400 JSON, jwt not called, cookie untouched", async () => {
    const { jwt, config } = updatingConfig();
    const jar = await signedIn(config);
    jwt.mockClear();

    const response = await call(config, "/auth/session", { jar, json: { data: { name: "Evil" } } });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ error: "MissingCSRF" });
    expect(jwt).not.toHaveBeenCalled();
    expect(sessionSetCookies(response)).toEqual([]);
    expect((await fetchSession(config, jar)).body.user.name).toBe(USER.name);
  });

  it("with a wrong CSRF token: 400", async () => {
    const { config } = updatingConfig();
    const jar = await signedIn(config);
    const response = await call(config, "/auth/session", { jar, json: { csrfToken: "f".repeat(64), data: { name: "Evil" } } });
    expect(response.status).toBe(400);
    expect(sessionSetCookies(response)).toEqual([]);
  });

  it("with a form body and CSRF it works too", async () => {
    const { config } = updatingConfig();
    const jar = await signedIn(config);
    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/session", { jar, form: { csrfToken: token } });
    expect(response.status).toBe(200);
    expect((await response.json()).user.email).toBe(USER.email);
  });

  it("without a session: 200 null, nothing stored", async () => {
    const { jwt, config } = updatingConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: { name: "New" } } });
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(storesSession(response)).toBe(false);
    expect(jwt).not.toHaveBeenCalled();
  });

  it("a jwt callback returning null on update ends the session", async () => {
    const config = credentialsConfig({ callbacks: { jwt: ({ token, trigger }: any) => (trigger === "update" ? null : token) } });
    const jar = await signedIn(config);
    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: {} } });
    expect(await response.json()).toBeNull();
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(sessionSetCookies(response).length).toBeGreaterThan(0);
  });
});

describe("chunked session cookies", () => {
  function noise(length: number): string {
    const bytes = crypto.getRandomValues(new Uint8Array(length / 2));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  it("a large session is split in chunks, read back whole, and stale chunks are cleared when it shrinks", async () => {
    const blob = noise(9000);
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token, trigger }: any) => {
          if (trigger === "signIn") return { ...token, blob };
          if (trigger === "update") {
            const { blob: _drop, ...rest } = token;
            return rest;
          }
          return token;
        },
        session: ({ session, token }: any) => ({ ...session, blobLength: typeof token.blob === "string" ? token.blob.length : 0 }),
      },
    });
    const jar = await signedIn(config);
    const chunks = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(jar.get("authjs.session-token")).toBeUndefined();
    for (const cookie of sessionSetCookies(await signInWithCredentials(config, new CookieJar()))) {
      expect(`${cookie.name}=${encodeURIComponent(cookie.value)}`.length).toBeLessThan(4096);
    }

    const { body } = await fetchSession(config, jar);
    expect(body.blobLength).toBe(9000);

    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: {} } });
    expect((await response.json()).blobLength).toBe(0);
    const set = sessionSetCookies(response);
    expect(set.find((c) => c.name === "authjs.session-token" && !isCleared(c))).toBeDefined();
    const cleared = new Set(set.filter(isCleared).map((c) => c.name));
    for (const name of chunks) expect(cleared.has(name)).toBe(true);
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."))).toEqual([]);
    expect((await fetchSession(config, jar)).body.user.email).toBe(USER.email);
  });

  it("an unreadable chunked cookie → null, and every chunk is cleared", async () => {
    const config = credentialsConfig({ logger: captureLogger().logger });
    const jar = new CookieJar();
    jar.cookies.set("authjs.session-token.0", "aaa");
    jar.cookies.set("authjs.session-token.1", "bbb");
    const { body, response } = await fetchSession(config, jar);
    expect(body).toBeNull();
    const cleared = new Set(sessionSetCookies(response).filter(isCleared).map((c) => c.name));
    expect(cleared.has("authjs.session-token.0")).toBe(true);
    expect(cleared.has("authjs.session-token.1")).toBe(true);
  });
});

describe("jwt callback failures", () => {
  it("a jwt callback that throws on GET ends the session, logged, no 500", async () => {
    const log = captureLogger();
    let fail = false;
    const config = credentialsConfig({
      logger: log.logger,
      callbacks: {
        jwt: ({ token }: any) => {
          if (fail) throw new Error("jwt exploded");
          return token;
        },
      },
    });
    const jar = await signedIn(config);
    fail = true;
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body).toBeNull();
    expect(sessionSetCookies(response).length).toBeGreaterThan(0);
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(log.errors.some((e) => (e as any).cause?.err?.message === "jwt exploded")).toBe(true);
  });
});

describe("session lifetime", () => {
  it("session.maxAge is reflected in the cookie Expires and in `expires`", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600 } });
    const jar = new CookieJar();
    const signIn = await signInWithCredentials(config, jar);
    expect(cookieExpires(signIn)).toBe(T0 + 3600 * 1000);

    const { body } = await fetchSession(config, jar);
    expect(body.expires).toBe(new Date(T0 + 3600 * 1000).toISOString());
  });

  it("the default lifetime is 30 days", async () => {
    freezeAt(T0);
    const config = credentialsConfig();
    const jar = new CookieJar();
    const signIn = await signInWithCredentials(config, jar);
    expect(cookieExpires(signIn)).toBe(T0 + 30 * 24 * 3600 * 1000);
    expect((await fetchSession(config, jar)).body.expires).toBe(new Date(T0 + 30 * 24 * 3600 * 1000).toISOString());
  });

  it("with the default updateAge a GET right after sign-in does not re-issue the cookie", async () => {
    freezeAt(T0);
    const config = credentialsConfig();
    const jar = await signedIn(config);
    vi.setSystemTime(T0 + 60_000);
    const { response, body } = await fetchSession(config, jar);
    expect(body.user.email).toBe(USER.email);
    expect(sessionSetCookies(response)).toEqual([]);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("with updateAge: 0 every GET re-issues the cookie", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { updateAge: 0, maxAge: 3600 } });
    const jar = await signedIn(config);
    for (const offset of [0, 1000, 2000]) {
      vi.setSystemTime(T0 + offset);
      const { response } = await fetchSession(config, jar);
      expect(storesSession(response)).toBe(true);
      expect(cookieExpires(response)).toBe(T0 + offset + 3600 * 1000);
    }
  });

  it("once updateAge has elapsed a GET re-issues the cookie with a later expiry", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600, updateAge: 600 } });
    const jar = new CookieJar();
    const signIn = await signInWithCredentials(config, jar);
    const first = cookieExpires(signIn);

    vi.setSystemTime(T0 + 599_000);
    const early = await fetchSession(config, jar);
    expect(sessionSetCookies(early.response)).toEqual([]);
    expect(early.body.expires).toBe(new Date(first).toISOString());

    vi.setSystemTime(T0 + 601_000);
    const late = await fetchSession(config, jar);
    expect(storesSession(late.response)).toBe(true);
    const second = cookieExpires(late.response);
    expect(second).toBe(T0 + 601_000 + 3600 * 1000);
    expect(second).toBeGreaterThan(first);
    expect(late.body.expires).toBe(new Date(second).toISOString());

    // The slid cookie keeps the user signed in past the first expiry.
    vi.setSystemTime(first + 60_000);
    expect((await fetchSession(config, jar)).body?.user?.email).toBe(USER.email);
  });

  it("attack: a stolen JWT kept busy slides no further than session.absoluteMaxAge after its sign-in, then is refused", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600, updateAge: 0, absoluteMaxAge: 7200 } });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    // Used every 50 minutes: each read slides the expiry, up to the absolute end and not past it.
    for (const minutes of [50, 100]) {
      vi.setSystemTime(T0 + minutes * 60_000);
      const read = await fetchSession(config, jar);
      expect(read.body?.user?.email).toBe(USER.email);
      expect(cookieExpires(read.response)).toBe(Math.min(T0 + minutes * 60_000 + 3600_000, T0 + 7200_000));
    }
    vi.setSystemTime(T0 + 7200_000);
    const ended = await fetchSession(config, jar);
    expect(ended.body).toBeNull();
    expect(sessionSetCookies(ended.response).every((cookie) => cookie.value === "")).toBe(true);
  });

  it("session.absoluteMaxAge defaults to 90 days, and must be a positive number of seconds", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { updateAge: 0 } });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    // Used every 20 days, it slides by its 30 days each time; the last slide stops at day 90.
    for (const day of [20, 40, 60, 80]) {
      vi.setSystemTime(T0 + day * 86_400_000);
      expect(cookieExpires((await fetchSession(config, jar)).response)).toBe(Math.min(T0 + (day + 30) * 86_400_000, T0 + 90 * 86_400_000));
    }
    vi.setSystemTime(T0 + 90 * 86_400_000);
    expect((await fetchSession(config, jar)).body).toBeNull();
    const logs = captureLogger();
    const bad = await call(credentialsConfig({ session: { absoluteMaxAge: -1 }, logger: logs.logger }), "/auth/session");
    expect(bad.status).toBe(500);
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("session.absoluteMaxAge is -1; it must be a positive number of seconds.");
  });

  it("a jwt callback that changes the token on GET re-issues the cookie", async () => {
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token }: any) => {
          token.visits = (typeof token.visits === "number" ? token.visits : 0) + 1;
          return token;
        },
      },
    });
    const jar = await signedIn(config);
    const before = jar.get("authjs.session-token");
    const { response } = await fetchSession(config, jar);
    expect(storesSession(response)).toBe(true);
    expect(jar.get("authjs.session-token")).not.toBe(before);

    const seen: number[] = [];
    const spy = credentialsConfig({
      callbacks: {
        jwt: ({ token }: any) => {
          seen.push(token.visits);
          return token;
        },
      },
    });
    // Same secret, so the spy config reads the cookie the first one re-issued.
    await fetchSession(spy, jar);
    expect(seen[0]).toBe(2);
  });

  it("an expired token → null and the cookie cleared", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600 } });
    const jar = await signedIn(config);
    vi.setSystemTime(T0 + 3600 * 1000 + 60_000);
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body).toBeNull();
    const cookies = sessionSetCookies(response);
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every(isCleared)).toBe(true);
  });

  it("an expired token already read once (cached) → null and cleared as well", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600 } });
    const jar = await signedIn(config);
    expect((await fetchSession(config, jar)).body).not.toBeNull();
    vi.setSystemTime(T0 + 3600 * 1000 + 1000);
    const { response, body } = await fetchSession(config, jar);
    expect(body).toBeNull();
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(sessionSetCookies(response).length).toBeGreaterThan(0);
  });

  it("a session cookie from another origin's scheme is not read (http cookie on https)", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const { body } = await fetchSession(config, jar, "https://localhost:3000");
    expect(body).toBeNull();
  });
});
