/**
 * The decoded-session cache (`sessionCache` in the resolved config: an LRU of
 * decoded session tokens keyed by the token string, one per config). It must be
 * invisible: every answer is the one a cold decode would give, callbacks cannot
 * change what it holds, a config never sees another config's entries, expiry is
 * still enforced, custom codecs are never cached, and `updateAge` still slides.
 *
 * Reads here send the ORIGINAL cookie again on purpose (not the re-issued one a
 * browser would keep), so the second read of a token is served from the cache.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Auth, raw, type AuthConfig } from "@gatehouse/runtime";
import { decode, encode, type JWTDecodeParams, type JWTEncodeParams } from "@gatehouse/runtime/jwt";
import { resolveConfig } from "../../runtime/src/core/config/config.js";
import {
  CookieJar,
  OLD_SECRET,
  SECRET,
  USER,
  call,
  credentialsConfig,
  csrfToken,
  isCleared,
  request,
  sessionSetCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const NAME = "authjs.session-token";
const SECURE_NAME = "__Secure-authjs.session-token";
const T0 = Date.UTC(2032, 2, 1, 12, 0, 0);

afterEach(() => {
  vi.useRealTimers();
});

function freezeAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

/**
 * The config's decoded-session cache (the handler resolves each config object once;
 * the public `AuthConfig` type comes from the build, hence the cast to the source's).
 */
const cacheOf = (config: AuthConfig) => resolveConfig(config as Parameters<typeof resolveConfig>[0]).sessionCache;

/** Signs in and returns the session cookie's value. */
async function signIn(config: AuthConfig): Promise<string> {
  const jar = new CookieJar();
  const res = await signInWithCredentials(config, jar);
  expect(res.status).toBe(302);
  const token = jar.get(NAME);
  expect(token).toBeTruthy();
  return token!;
}

interface Read {
  response: Response;
  body: any;
  /** The non-cleared session cookie the response sets, if any. */
  reissued?: string;
  cleared: boolean;
}

/** `GET /auth/session` with exactly this session cookie (nothing is kept between reads). */
async function read(config: AuthConfig, token: string, options: { name?: string; origin?: string } = {}): Promise<Read> {
  const name = options.name ?? NAME;
  const response = await Auth(request("/auth/session", { origin: options.origin, headers: { cookie: `${name}=${token}` } }), config);
  expect(response.status).toBe(200);
  const cookies = sessionSetCookies(response, name);
  const kept = cookies.find((c) => !isCleared(c));
  return {
    response,
    body: await response.json(),
    reissued: kept?.value,
    cleared: cookies.length > 0 && cookies.every(isCleared),
  };
}

function expiresOf(response: Response): number {
  const cookie = sessionSetCookies(response).find((c) => !isCleared(c));
  expect(cookie).toBeDefined();
  return new Date(String(cookie!.attributes.expires)).getTime();
}

describe("callbacks cannot change the cached payload", () => {
  /** A jwt callback that adds a nested object on sign-in and mutates everything it gets afterwards. */
  function mutatingConfig() {
    const seen: { count: unknown; x: unknown; list: unknown; email: unknown; trigger: unknown }[] = [];
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token, user, trigger }: any) => {
          if (user) {
            token.nested = { x: "original", list: [1] };
            return token;
          }
          seen.push({ count: token.count, x: token.nested?.x, list: [...(token.nested?.list ?? [])], email: token.email, trigger });
          token.count = ((token.count as number | undefined) ?? 0) + 1;
          token.nested.x = "changed";
          token.nested.list.push(2);
          delete token.email;
          return token;
        },
      },
    });
    return { config, seen };
  }

  const ORIGINAL = { count: undefined, x: "original", list: [1], email: USER.email };

  it("a jwt callback that mutates its token sees the original values on every read of the same cookie", async () => {
    const { config, seen } = mutatingConfig();
    const token = await signIn(config);

    for (let i = 0; i < 3; i++) {
      const r = await read(config, token);
      expect(r.body.user.name).toBe(USER.name);
      // The token changed, so the cookie is re-issued with the change...
      expect(r.reissued).toBeDefined();
      const reissued = (await decode({ token: r.reissued!, secret: SECRET, salt: NAME }))!;
      expect(reissued).toMatchObject({ count: 1, nested: { x: "changed", list: [1, 2] } });
      expect(reissued.email).toBeUndefined();
    }
    // ...but each read of the original cookie started from the original payload.
    expect(seen).toEqual([ORIGINAL, ORIGINAL, ORIGINAL].map((o) => ({ ...o, trigger: undefined })));
    // The reads after the first were served from the cache, and it still holds the original.
    const cached = cacheOf(config).get(token);
    expect(cached?.payload).toMatchObject({ nested: { x: "original", list: [1] }, email: USER.email });
    expect(cached?.payload.count).toBeUndefined();
  });

  it("a session callback that mutates token and session does not leak into the next read", async () => {
    const seen: unknown[] = [];
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token, user }: any) => {
          if (user) token.nested = { x: "original" };
          else seen.push(token.nested.x);
          return token;
        },
        session: ({ session, token }: any) => {
          token.nested.x = "from-session";
          token.name = "Mallory";
          session.user.name = "Mallory";
          return session;
        },
      },
    });
    const token = await signIn(config);
    const first = await read(config, token);
    const second = await read(config, token);
    expect(first.body.user.name).toBe("Mallory");
    expect(second.body.user.name).toBe("Mallory");
    expect(seen).toEqual(["original", "original"]);
    // jwt returned the token unchanged, so nothing was re-issued.
    expect(first.reissued).toBeUndefined();
    expect(second.reissued).toBeUndefined();
    expect(cacheOf(config).get(token)?.payload).toMatchObject({ name: USER.name, nested: { x: "original" } });
  });

  it("a POST update whose jwt callback mutates the token leaves the original cookie reading as before", async () => {
    const { config, seen } = mutatingConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const original = jar.get(NAME)!;
    await read(config, original); // cached
    const csrf = await csrfToken(config, jar);
    const update = await call(config, "/auth/session", { jar, json: { csrfToken: csrf, data: { any: 1 } } });
    expect(update.status).toBe(200);
    expect(storesSession(update)).toBe(true);
    await read(config, original);
    expect(seen.map(({ trigger, ...rest }) => [trigger, rest])).toEqual([
      [undefined, ORIGINAL],
      ["update", ORIGINAL],
      [undefined, ORIGINAL],
    ]);
  });

  it("with the default callbacks and no session event the cached payload is served as is, and reads answer as a cold read", async () => {
    const config = credentialsConfig();
    const token = await signIn(config);
    const cold = await read(credentialsConfig(), token);
    for (let i = 0; i < 3; i++) {
      const warm = await read(config, token);
      expect(warm.body).toEqual(cold.body);
      expect(warm.reissued).toBeUndefined();
    }
    expect(cacheOf(config).get(token)?.payload).toMatchObject({ name: USER.name, email: USER.email });
  });

  it("an events.session that mutates the token (default callbacks otherwise) does not change what the next read sees", async () => {
    const seen: unknown[] = [];
    const config = credentialsConfig({
      events: {
        session: ({ token }: any) => {
          seen.push(token.name);
          token.name = "Mallory";
          token.email = "mallory@example.com";
        },
      },
    });
    const token = await signIn(config);
    for (let i = 0; i < 3; i++) {
      const r = await read(config, token);
      expect(r.body.user).toMatchObject({ name: USER.name, email: USER.email });
      expect(r.reissued).toBeUndefined();
    }
    expect(seen).toEqual([USER.name, USER.name, USER.name]);
    expect(cacheOf(config).get(token)?.payload).toMatchObject({ name: USER.name, email: USER.email });
  });

  it("an events.signOut that mutates the token does not change what the next read of that cookie sees", async () => {
    const seen: unknown[] = [];
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token, user }: any) => {
          if (user) token.nested = { x: "original" };
          else seen.push(token.nested.x);
          return token;
        },
      },
      events: {
        signOut: (message: any) => {
          message.token.nested.x = "from-signout";
          message.token.sub = "someone-else";
        },
      },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const original = jar.get(NAME)!;
    await read(config, original); // cached
    const csrf = await csrfToken(config, jar);
    const out = await call(config, "/auth/signout", { jar, form: { csrfToken: csrf } });
    expect(out.status).toBe(302);
    // A JWT session is not revoked by signing out: the same cookie still reads, unchanged.
    await read(config, original);
    expect(seen).toEqual(["original", "original"]);
    expect(cacheOf(config).get(original)?.payload).toMatchObject({ sub: USER.id, nested: { x: "original" } });
  });
});

describe("a cache per config", () => {
  it("a cookie cached by config A is null in config B (another secret), and B's refusal does not affect A", async () => {
    const a = credentialsConfig();
    const b = credentialsConfig({ secret: OLD_SECRET });
    const token = await signIn(a);
    expect((await read(a, token)).body.user.email).toBe(USER.email);
    expect((await read(a, token)).body.user.email).toBe(USER.email);
    expect(cacheOf(a).get(token)).toBeDefined();

    for (let i = 0; i < 2; i++) {
      const inB = await read(b, token);
      expect(inB.body).toBeNull();
      expect(inB.cleared).toBe(true);
    }
    expect(cacheOf(b).get(token)).toBeUndefined();
    expect((await read(a, token)).body.user.email).toBe(USER.email);
  });

  it("the other way round: B refuses first, then A reads it, then B still refuses", async () => {
    const a = credentialsConfig();
    const b = credentialsConfig({ secret: OLD_SECRET });
    const token = await signIn(a);
    expect((await read(b, token)).body).toBeNull();
    expect((await read(a, token)).body.user.email).toBe(USER.email);
    expect((await read(b, token)).body).toBeNull();
  });

  it("another config object with the same secret reads the cookie with its own cache", async () => {
    const a = credentialsConfig();
    const twin = credentialsConfig();
    const token = await signIn(a);
    await read(a, token);
    expect(cacheOf(twin).get(token)).toBeUndefined();
    expect((await read(twin, token)).body.user.email).toBe(USER.email);
    expect(cacheOf(twin).get(token)).toBeDefined();
  });

  it("a cached token is not accepted under another cookie name: an http cookie sent as __Secure- on https is null, cached or not", async () => {
    // The cookie name salts the key, so a cold decode refuses it; the cache must not change that.
    const cold = credentialsConfig();
    const token = await signIn(cold);
    const coldRead = await read(cold, token, { name: SECURE_NAME, origin: "https://localhost:3000" });
    expect(coldRead.body).toBeNull();

    const warm = credentialsConfig();
    expect((await read(warm, token)).body.user.email).toBe(USER.email); // now cached
    const warmRead = await read(warm, token, { name: SECURE_NAME, origin: "https://localhost:3000" });
    expect(warmRead.body).toBeNull();
    expect(warmRead.cleared).toBe(true);
  });

  it("a cached read answers exactly what a cold read answers", async () => {
    freezeAt(T0);
    const warm = credentialsConfig();
    const token = await signIn(warm);
    vi.setSystemTime(T0 + 5_000);
    await read(warm, token);
    await read(warm, token);
    const warmRead = await read(warm, token);
    const coldRead = await read(credentialsConfig(), token);
    expect(warmRead.body).toEqual(coldRead.body);
    expect(warmRead.reissued).toBe(coldRead.reissued); // both undefined: nothing to re-issue
    expect(warmRead.response.headers.getSetCookie()).toEqual(coldRead.response.headers.getSetCookie());
    // Every header, not only the cookies: a warm read is answered without waiting on anything (actions/session.ts), a cold one the whole way.
    expect([...warmRead.response.headers]).toEqual([...coldRead.response.headers]);
  });

  it("a warm read's body is a cold read's, byte for byte (the warm one sends the JSON it made on its first read)", async () => {
    freezeAt(T0);
    const warm = credentialsConfig();
    const token = await signIn(warm);
    const text = async (config: AuthConfig) => (await Auth(request("/auth/session", { headers: { cookie: `${NAME}=${token}` } }), config)).text();
    const cold = await text(credentialsConfig());
    expect(cold).toContain(`"email":"${USER.email}"`);
    for (let i = 0; i < 3; i++) expect(await text(warm)).toBe(cold);
  });

  it("with raw, a warm read's body is the session object (not its JSON), a fresh one each time", async () => {
    const config = credentialsConfig();
    const token = await signIn(config);
    const rawConfig = { ...config, raw } as AuthConfig & { raw: typeof raw };
    const readRaw = async () => {
      const result = await Auth(request("/auth/session", { headers: { cookie: `${NAME}=${token}` } }), rawConfig);
      expect(result.body).toMatchObject({ user: { name: USER.name, email: USER.email } });
      expect(typeof result.body.expires).toBe("string");
      return result.body;
    };
    const first = await readRaw();
    // A caller may change what it got without changing what the next read answers.
    first.user.email = "mallory@example.com";
    const second = await readRaw();
    expect(second).not.toBe(first);
    expect(second.user.email).toBe(USER.email);
  });

  it("more tokens than the cache holds: it stays bounded and an evicted token still reads", async () => {
    const config = credentialsConfig();
    const first = await signIn(config);
    await read(config, first);
    const claims = { name: USER.name, email: USER.email, picture: USER.image, sub: USER.id };
    for (let i = 0; i < 1000; i++) {
      const token = await encode({ token: { ...claims, i }, secret: SECRET, salt: NAME });
      expect((await read(config, token)).body.user.email).toBe(USER.email);
    }
    expect(cacheOf(config).size).toBeLessThanOrEqual(1000);
    expect(cacheOf(config).get(first)).toBeUndefined();
    expect((await read(config, first)).body.user.email).toBe(USER.email);
  });
});

describe("expiry is enforced for cached tokens", () => {
  it("read once (cached), then past exp: null, the cookie cleared, the entry dropped", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600 } });
    const token = await signIn(config);
    expect((await read(config, token)).body.user.email).toBe(USER.email);
    expect(cacheOf(config).get(token)).toBeDefined();

    vi.setSystemTime(T0 + 3600_000 + 1_000);
    const late = await read(config, token);
    expect(late.body).toBeNull();
    expect(late.cleared).toBe(true);
    expect(late.reissued).toBeUndefined();
    expect(cacheOf(config).get(token)).toBeUndefined();
    // And it stays refused.
    expect((await read(config, token)).body).toBeNull();
  });

  it("around exp, a warm cache and a cold one give the same answer second by second", async () => {
    freezeAt(T0);
    const warm = credentialsConfig({ session: { maxAge: 3600 } });
    const token = await signIn(warm);
    const exp = T0 + 3600_000;
    const answers: [number, boolean, boolean][] = [];
    for (let offset = -3; offset <= 20; offset++) {
      vi.setSystemTime(exp + offset * 1000);
      const cold = credentialsConfig({ session: { maxAge: 3600 } });
      answers.push([offset, (await read(warm, token)).body !== null, (await read(cold, token)).body !== null]);
    }
    for (const [, warmAnswer, coldAnswer] of answers) expect(warmAnswer).toBe(coldAnswer);
    expect(answers.find(([o]) => o === -1)![1]).toBe(true);
    expect(answers.find(([o]) => o === 0)![1]).toBe(false);
  });
});

describe("custom codecs are not cached", () => {
  function customCodec() {
    let revoked = false;
    const decodeSpy = vi.fn(async (params: JWTDecodeParams) => {
      const payload = await decode(params);
      return revoked ? null : payload;
    });
    const encodeSpy = vi.fn((params: JWTEncodeParams) => encode(params));
    return { decodeSpy, encodeSpy, revoke: () => void (revoked = true) };
  }

  it("a custom jwt.decode is called on every read, and what it answers counts every time", async () => {
    const { decodeSpy, encodeSpy, revoke } = customCodec();
    const config = credentialsConfig({ jwt: { encode: encodeSpy, decode: decodeSpy } });
    const token = await signIn(config);
    expect(decodeSpy).not.toHaveBeenCalled();
    for (let i = 1; i <= 3; i++) {
      expect((await read(config, token)).body.user.email).toBe(USER.email);
      expect(decodeSpy).toHaveBeenCalledTimes(i);
      expect(decodeSpy.mock.calls[i - 1]![0]).toMatchObject({ token, salt: NAME });
    }
    revoke();
    const after = await read(config, token);
    expect(decodeSpy).toHaveBeenCalledTimes(4);
    expect(after.body).toBeNull();
    expect(cacheOf(config).size).toBe(0);
  });

  it("a custom decode alone (default encode) is not cached either", async () => {
    const { decodeSpy, revoke } = customCodec();
    const config = credentialsConfig({ jwt: { decode: decodeSpy } });
    const token = await signIn(config);
    await read(config, token);
    await read(config, token);
    expect(decodeSpy).toHaveBeenCalledTimes(2);
    revoke();
    expect((await read(config, token)).body).toBeNull();
    expect(cacheOf(config).size).toBe(0);
  });

  it("a custom encode alone (default decode) is not cached either", async () => {
    const { encodeSpy } = customCodec();
    const config = credentialsConfig({ jwt: { encode: encodeSpy } });
    const token = await signIn(config);
    expect(encodeSpy).toHaveBeenCalledTimes(1);
    expect((await read(config, token)).body.user.email).toBe(USER.email);
    expect(cacheOf(config).size).toBe(0);
  });
});

describe("updateAge still slides the session for cached tokens", () => {
  it("with session.updateAge 0 every read re-issues the cookie (same cookie, same instant, so from the cache)", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { updateAge: 0, maxAge: 3600 } });
    const token = await signIn(config);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await read(config, token);
      expect(r.body.user.email).toBe(USER.email);
      expect(r.reissued).toBeDefined();
      expect(r.reissued).not.toBe(token);
      seen.add(r.reissued!);
      expect(expiresOf(r.response)).toBe(T0 + 3600_000);
    }
    expect(seen.size).toBe(3); // fresh IV and jti each time
    expect(cacheOf(config).get(token)).toBeDefined();
  });

  it("with the default updateAge, reads right after sign-in do not re-issue the cookie", async () => {
    freezeAt(T0);
    const config = credentialsConfig();
    const token = await signIn(config);
    vi.setSystemTime(T0 + 60_000);
    for (let i = 0; i < 2; i++) {
      const r = await read(config, token);
      expect(r.body.user.email).toBe(USER.email);
      expect(r.response.headers.getSetCookie()).toEqual([]);
    }
  });

  it("once updateAge has passed, a read of the cached cookie re-issues it with a later Expires", async () => {
    freezeAt(T0);
    const config = credentialsConfig({ session: { maxAge: 3600, updateAge: 600 } });
    const jar = new CookieJar();
    const signInResponse = await signInWithCredentials(config, jar);
    const token = jar.get(NAME)!;
    const firstExpires = expiresOf(signInResponse);
    expect(firstExpires).toBe(T0 + 3600_000);

    vi.setSystemTime(T0 + 599_000);
    const early = await read(config, token);
    expect(early.reissued).toBeUndefined();
    expect(early.body.expires).toBe(new Date(firstExpires).toISOString());
    expect(cacheOf(config).get(token)).toBeDefined();

    vi.setSystemTime(T0 + 600_000);
    const late = await read(config, token);
    expect(late.reissued).toBeDefined();
    const laterExpires = expiresOf(late.response);
    expect(laterExpires).toBe(T0 + 600_000 + 3600_000);
    expect(laterExpires).toBeGreaterThan(firstExpires);
    expect(late.body.expires).toBe(new Date(laterExpires).toISOString());
    const payload = (await decode({ token: late.reissued!, secret: SECRET, salt: NAME }))!;
    expect(payload.iat).toBe((T0 + 600_000) / 1000);
    expect(payload.exp).toBe((T0 + 600_000) / 1000 + 3600);

    // Every later read of the old cookie (still cached) keeps sliding.
    vi.setSystemTime(T0 + 700_000);
    expect(expiresOf((await read(config, token)).response)).toBe(T0 + 700_000 + 3600_000);
  });
});
