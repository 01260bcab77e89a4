/**
 * Database sessions through the handler, for any adapter: the same behaviour on
 * the memory adapter, PGlite and a PostgreSQL server. Each test file calls
 * `runDatabaseSessionTests` with a way to get a fresh adapter.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AdapterUser, AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import {
  CookieJar,
  recordAdapterCalls,
  SECRET,
  call,
  captureLogger,
  csrfToken,
  isCleared,
  sessionSetCookies,
  setCookies,
  signInWithCredentials,
} from "../helpers.js";

export interface DatabaseTarget {
  name: string;
  /** Once per file. */
  setup(): Promise<Adapter> | Adapter;
  /** Before each test: empty the store. */
  reset(): Promise<void> | void;
  teardown?(): Promise<void> | void;
  /** What the adapter lacks (an Auth.js adapter); the tests that need it are skipped with this reason, or assert the fallback. */
  limits?: {
    /** Sessions keep no `createdAt`: `session.absoluteMaxAge` cannot be enforced (documented: bound by `maxAge` alone). */
    noSessionStart?: string;
    /** `deleteSession` returns nothing (the contract allows it): the `signOut` event gets no session, as in Auth.js. */
    deleteSessionReturnsNothing?: string;
  };
}

const COOKIE = "authjs.session-token";
const DAY = 24 * 60 * 60;


export function runDatabaseSessionTests(target: DatabaseTarget): void {
  describe(`database sessions on ${target.name}`, () => {
    let base: Adapter;
    let ada: AdapterUser;

    beforeAll(async () => {
      base = await target.setup();
    }, 120_000);
    afterAll(async () => {
      await target.teardown?.();
    });
    beforeEach(async () => {
      await target.reset();
      ada = await base.createUser!({ id: "", email: "ada@example.com", emailVerified: null, name: "Ada Lovelace", image: null });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Credentials that look the user up in the adapter, as an app with a users table does. */
    function config(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
      return {
        secret: SECRET,
        trustHost: true,
        adapter,
        logger: captureLogger().logger,
        providers: [
          Credentials({
            credentials: { username: {}, password: {} },
            authorize: async (c) => {
              if (c.password !== "correct horse") return null;
              const email = c.username === "ada" ? "ada@example.com" : String(c.username);
              return (await adapter.getUserByEmail!(email)) ?? { id: "no-such-user", email };
            },
          }),
        ],
        ...overrides,
      };
    }

    /** The session-version lookup, made only when the adapter has the method (a gatehouse extension; Auth.js adapters lack it). */
    const versionCalls = () => (typeof base.getUserSessionVersion === "function" ? ["getUserSessionVersion"] : []);

    async function signedIn(cfg: AuthConfig) {
      const jar = new CookieJar();
      const response = await signInWithCredentials(cfg, jar);
      return { jar, response };
    }

    it("is the default strategy with an adapter: the cookie holds only a token, stored as a session row", async () => {
      const { adapter } = recordAdapterCalls(base);
      const { jar, response } = await signedIn(config(adapter));
      expect(response.status).toBe(302);
      const cookie = setCookies(response).find((c) => c.name === COOKIE)!;
      expect(cookie.value).not.toContain("."); // not a JWE
      expect(cookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
      const stored = await base.getSessionAndUser!(jar.get(COOKIE)!);
      expect(stored?.user.id).toBe(ada.id);
      expect(stored?.session.expires).toBeInstanceOf(Date);
      expect(new Date(String(cookie.attributes.expires)).valueOf()).toBeCloseTo(stored!.session.expires.valueOf(), -4);
    });

    it("on https the cookie is __Secure- and Secure", async () => {
      const cfg = config(base);
      const jar = new CookieJar();
      const token = (await (await call(cfg, "/auth/csrf", { jar, origin: "https://app.example" })).json()).csrfToken;
      const response = await call(cfg, "/auth/callback/credentials", {
        jar,
        origin: "https://app.example",
        form: { username: "ada", password: "correct horse", csrfToken: token },
      });
      const cookie = setCookies(response).find((c) => c.name === `__Secure-${COOKIE}`)!;
      expect(cookie.attributes.secure).toBe(true);
    });

    it("reads the session in one adapter call when no extension is due", async () => {
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter);
      const { jar } = await signedIn(cfg);
      calls.length = 0;
      const response = await call(cfg, "/auth/session", { jar });
      const body = await response.json();
      expect(body).toEqual({ user: { name: "Ada Lovelace", email: "ada@example.com", image: null }, expires: expect.any(String) });
      expect(calls).toEqual(["getSessionAndUser"]);
      expect(setCookies(response)).toEqual([]);
    });

    it("the session callback gets the stored session and the whole user, as Auth.js gives them; the client gets what it returns but the sessionToken; events.session fires", async () => {
      const seen: { session: Record<string, unknown> }[] = [];
      const args: any[] = [];
      const cfg = config(base, {
        callbacks: {
          // The pattern of Auth.js's documentation: it returns the stored session, token included.
          session: (params: any) => {
            args.push(structuredClone(params));
            params.session.user.id = params.user.id;
            return params.session;
          },
        },
        events: { session: (message) => void seen.push(message as unknown as { session: Record<string, unknown> }) },
      });
      const { jar } = await signedIn(cfg);
      const token = jar.get(COOKIE)!;
      const body = await (await call(cfg, "/auth/session", { jar })).json();
      const stored = (await base.getSessionAndUser!(token))!;

      expect(args).toHaveLength(1);
      const [{ session, user, ...rest }] = args;
      expect(rest).toEqual({ newSession: undefined });
      expect(user).toEqual(stored.user);
      expect(session).toEqual({ ...stored.session, user: stored.user });
      expect(session).toMatchObject({ sessionToken: token, userId: ada.id });
      expect(session.expires).toBeInstanceOf(Date);

      expect(body).not.toHaveProperty("sessionToken");
      expect(body).toMatchObject({ userId: ada.id, user: { id: ada.id, email: "ada@example.com" }, expires: stored.session.expires.toISOString() });
      expect(JSON.stringify(body)).not.toContain(token);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.session).not.toHaveProperty("sessionToken");
      expect(JSON.parse(JSON.stringify(seen[0]!.session))).toEqual(body);
    });

    const noSessionStart = target.limits?.noSessionStart;
    (noSessionStart ? it.skip : it)(`attack: a stolen session kept busy slides no further than session.absoluteMaxAge after its sign-in, then ends (row deleted, cookie cleared)${noSessionStart ? ` (skipped: ${noSessionStart})` : ""}`, async () => {
      const cfg = config(base, { session: { updateAge: 0, maxAge: 3600, absoluteMaxAge: 7200 } });
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      const { jar } = await signedIn(cfg);
      const token = jar.get(COOKIE)!;
      for (const minutes of [50, 100]) {
        vi.setSystemTime(start + minutes * 60_000);
        const body = await (await call(cfg, "/auth/session", { jar })).json();
        expect(body?.user?.email).toBe("ada@example.com");
        const expires = (await base.getSessionAndUser!(token))!.session.expires.valueOf();
        expect(expires).toBeLessThanOrEqual(start + 7200_000 + 1000);
        expect(expires).toBeGreaterThan(start + minutes * 60_000);
      }
      vi.setSystemTime(start + 7201_000);
      const response = await call(cfg, "/auth/session", { jar });
      expect(await response.json()).toBeNull();
      expect(setCookies(response).some((c) => c.name === COOKIE && isCleared(c))).toBe(true);
      expect(await base.getSessionAndUser!(token)).toBeNull();
    });

    it("updateAge 0 extends the session on every access and shows the new expires", async () => {
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter, { session: { updateAge: 0, maxAge: 3600 } });
      const { jar } = await signedIn(cfg);
      const token = jar.get(COOKIE)!;
      const before = (await base.getSessionAndUser!(token))!.session.expires;
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 60_000);
      calls.length = 0;
      const response = await call(cfg, "/auth/session", { jar });
      const body = await response.json();
      expect(calls).toEqual(["getSessionAndUser", "updateSession"]);
      const after = (await base.getSessionAndUser!(token))!.session.expires;
      expect(after.valueOf() - before.valueOf()).toBeGreaterThanOrEqual(59_000);
      expect(new Date(body.expires).valueOf()).toBe(after.valueOf());
      expect(setCookies(response).find((c) => c.name === COOKIE)?.value).toBe(token);
    });

    it("with the default updateAge the session is extended only once a day has passed", async () => {
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter);
      const { jar } = await signedIn(cfg);
      calls.length = 0;
      await call(cfg, "/auth/session", { jar });
      expect(calls).not.toContain("updateSession");
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + DAY * 1000 + 1000);
      calls.length = 0;
      const response = await call(cfg, "/auth/session", { jar });
      expect(calls).toEqual(["getSessionAndUser", "updateSession"]);
      const expires = new Date((await response.json()).expires).valueOf();
      expect(expires).toBeGreaterThan(Date.now() + 29 * DAY * 1000);
    });

    it("past expires the row is deleted, the cookie cleared and the session null", async () => {
      const cfg = config(base, { session: { maxAge: 60 } });
      const { jar } = await signedIn(cfg);
      const token = jar.get(COOKIE)!;
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 61_000);
      const response = await call(cfg, "/auth/session", { jar: new CookieJar() }); // no cookie: nothing happens
      expect(await response.json()).toBeNull();
      const expired = await call(cfg, "/auth/session", { jar });
      expect(await expired.json()).toBeNull();
      expect(setCookies(expired).some((c) => c.name === COOKIE && isCleared(c))).toBe(true);
      vi.useRealTimers();
      expect(await base.getSessionAndUser!(token)).toBeNull();
    });

    it("sign-out deletes the row, fires signOut with the session, clears the cookie", async () => {
      const events: unknown[] = [];
      const cfg = config(base, { events: { signOut: (message) => void events.push(message) } });
      const { jar } = await signedIn(cfg);
      const token = jar.get(COOKIE)!;
      const csrf = await csrfToken(cfg, jar);
      const response = await call(cfg, "/auth/signout", { jar, form: { csrfToken: csrf } });
      expect(response.status).toBe(302);
      expect(setCookies(response).some((c) => c.name === COOKIE && isCleared(c))).toBe(true);
      expect(await base.getSessionAndUser!(token)).toBeNull();
      // An adapter whose deleteSession returns nothing has no session to hand over (Auth.js passes its answer on too).
      const deleted = target.limits?.deleteSessionReturnsNothing ? null : expect.objectContaining({ sessionToken: token, userId: ada.id });
      expect(events).toEqual([{ session: deleted }]);
    });

    it("POST session gives the session callback the client's data with trigger update", async () => {
      const seen: unknown[] = [];
      const cfg = config(base, {
        callbacks: {
          session: ({ session, trigger, newSession }: any) => {
            seen.push({ trigger, newSession });
            return session;
          },
        },
      });
      const { jar } = await signedIn(cfg);
      const csrf = await csrfToken(cfg, jar);
      const response = await call(cfg, "/auth/session", { jar, json: { csrfToken: csrf, data: { theme: "dark" } } });
      expect(response.status).toBe(200);
      expect(seen).toEqual([{ trigger: "update", newSession: { theme: "dark" } }]);
    });

    it("credentials whose user the adapter does not have: generic error page, no session row, no cookie", async () => {
      const cfg = config(base);
      const jar = new CookieJar();
      const response = await signInWithCredentials(cfg, jar, { username: "ghost@example.com", password: "correct horse" });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(location.pathname).toBe("/auth/error");
      expect(setCookies(response).some((c) => c.name === COOKIE && !isCleared(c))).toBe(false);
    });

    it("garbage and oversized tokens are a null session and the cookie is cleared", async () => {
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter);
      for (const value of ["not-a-session", "x".repeat(5000)]) {
        calls.length = 0;
        const response = await call(cfg, "/auth/session", { headers: { cookie: `${COOKIE}=${value}` } });
        expect(await response.json()).toBeNull();
        expect(setCookies(response).some((c) => c.name === COOKIE && isCleared(c))).toBe(true);
        if (value.length > 1024) expect(calls).toEqual([]);
      }
    });

    it("an adapter that throws: 500 Configuration, the cause logged, the cookie kept", async () => {
      const log = captureLogger();
      const { jar } = await signedIn(config(base));
      const failing: Adapter = {
        ...base,
        getSessionAndUser: () => {
          throw new Error("connection refused");
        },
      };
      const response = await call(config(failing, { logger: log.logger }), "/auth/session", { jar });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error: "Configuration" });
      expect(setCookies(response)).toEqual([]);
      const logged = log.errors.find((e) => e.name === "AdapterError")!;
      expect(logged.message).toContain("getSessionAndUser");
      expect(((logged as { cause?: { err?: Error } }).cause?.err as Error).message).toBe("connection refused");
    });

    it("a sign-in while createSession fails: the Configuration error page, the cause logged, no cookie", async () => {
      const log = captureLogger();
      const failing: Adapter = {
        ...base,
        createSession: () => {
          throw new Error("database is down");
        },
      };
      const response = await signInWithCredentials(config(failing, { logger: log.logger }), new CookieJar());
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect([location.pathname, location.searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
      expect(setCookies(response).some((c) => c.name === COOKIE && !isCleared(c))).toBe(false);
      expect(log.errors.some((e) => e.name === "AdapterError" && e.message.includes("createSession"))).toBe(true);
    });

    it("a sign-out while deleteSession fails answers the error page, keeps the cookie (the session still lives), and logs the cause", async () => {
      const log = captureLogger();
      const events: unknown[] = [];
      const { jar } = await signedIn(config(base));
      const failing: Adapter = {
        ...base,
        deleteSession: () => {
          throw new Error("database is down");
        },
      };
      const cfg = config(failing, { logger: log.logger, events: { signOut: (m) => void events.push(m) } });
      const csrf = await csrfToken(cfg, jar);
      const response = await call(cfg, "/auth/signout", { jar, form: { csrfToken: csrf } });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect([location.pathname, location.searchParams.get("error")]).toEqual(["/auth/error", "Configuration"]);
      // Clearing the cookie alone would end nothing; see test/faults/database-sessions-down.test.ts.
      expect(setCookies(response).some((c) => c.name === COOKIE)).toBe(false);
      expect(events).toEqual([]);
      expect(log.errors.some((e) => e.name === "AdapterError" && e.message.includes("deleteSession"))).toBe(true);
    });

    it("an adapter without the session methods is a configuration error naming them", async () => {
      const log = captureLogger();
      const { getSessionAndUser: _g, updateSession: _u, ...partial } = base;
      const response = await call(config(partial, { logger: log.logger }), "/auth/session");
      expect(response.status).toBe(500);
      const error = log.errors.find((e) => e.name === "MissingAdapterMethods")!;
      expect(error.message).toContain("getSessionAndUser");
      expect(error.message).toContain("updateSession");
    });

    it("the jwt strategy with an adapter still keeps the session in the cookie: a user with a proven address costs no lookup while the version its sign-in read is fresh (session.revocationDelay, 5 s), then one", async () => {
      await base.updateUser!({ id: ada.id, emailVerified: new Date() });
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter, { session: { strategy: "jwt" } });
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      const { jar } = await signedIn(cfg);
      expect(jar.get(COOKIE)!.split(".")).toHaveLength(5);
      calls.length = 0;
      const read = async () => (await (await call(cfg, "/auth/session", { jar })).json()).user.email;
      expect(await read()).toBe("ada@example.com");
      expect(calls).toEqual([]);
      vi.advanceTimersByTime(5_000);
      expect(await read()).toBe("ada@example.com");
      expect(calls).toEqual(versionCalls());
    });

    it("the jwt strategy: a user whose address is unproven is looked up on each read, and the session ends once the address is proven", async () => {
      const { adapter, calls } = recordAdapterCalls(base);
      const cfg = config(adapter, { session: { strategy: "jwt", revocationDelay: 0 } });
      const { jar } = await signedIn(cfg);
      calls.length = 0;
      expect((await (await call(cfg, "/auth/session", { jar })).json()).user.email).toBe("ada@example.com");
      expect(calls).toEqual(["getUser", ...versionCalls()]);
      // Its owner proved the address elsewhere (the user was handed over): this claimer's session is over.
      await base.updateUser!({ id: ada.id, emailVerified: new Date() });
      const ended = await call(cfg, "/auth/session", { jar });
      expect(await ended.json()).toBeNull();
      expect(sessionSetCookies(ended).every(isCleared)).toBe(true);
      expect(sessionSetCookies(ended)).not.toHaveLength(0);
    });

    it("a JWT session cookie given to the database strategy is a null session and is cleared", async () => {
      const { jar } = await signedIn(config(base, { session: { strategy: "jwt" } }));
      const response = await call(config(base), "/auth/session", { jar });
      expect(await response.json()).toBeNull();
      expect(setCookies(response).some((c) => c.name === COOKIE && isCleared(c))).toBe(true);
    });
  });
}
