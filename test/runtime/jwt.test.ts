/**
 * JWT helpers (`@gatehouse/runtime/jwt`): encode/decode/getToken, the JWE header,
 * interop with Auth.js in both directions, rotation, and bad tokens; then each bad
 * token as the session cookie of the handler: `null` and the cookie cleared.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { decode as authDecode, encode as authEncode, getToken as authGetToken } from "@auth/core/jwt";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { decode, encode, getToken, type JWT } from "@gatehouse/runtime/jwt";
import {
  CookieJar,
  OLD_SECRET,
  SECRET,
  USER,
  call,
  captureLogger,
  credentialsConfig,
  isCleared,
  request,
  setCookies,
  signInWithCredentials,
} from "../helpers.js";


const NEW_SECRET = "new-secret-new-secret-new-secret-0123456789zz";
const FOREIGN_SECRET = "foreign-secret-foreign-secret-foreign-secret-00";
const SALT = "authjs.session-token";
const SECURE_SALT = "__Secure-authjs.session-token";
const CLAIMS: JWT = { name: USER.name, email: USER.email, picture: USER.image, sub: USER.id, role: "admin" };

function b64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** Flips one character of the JWE's ciphertext (the 4th part). */
function tamper(token: string): string {
  const parts = token.split(".");
  const ct = parts[3]!;
  const i = Math.floor(ct.length / 2);
  parts[3] = ct.slice(0, i) + (ct[i] === "A" ? "B" : "A") + ct.slice(i + 1);
  return parts.join(".");
}

function tamperTag(token: string): string {
  const parts = token.split(".");
  const tag = parts[4]!;
  parts[4] = (tag[0] === "A" ? "B" : "A") + tag.slice(1);
  return parts.join(".");
}

function tamperHeader(token: string): string {
  const parts = token.split(".");
  const header = b64urlJson(parts[0]!);
  parts[0] = Buffer.from(JSON.stringify({ ...header, enc: "A256GCM" })).toString("base64url");
  return parts.join(".");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("encode / decode", () => {
  it("round-trips the claims and adds iat, exp (30 days by default) and jti", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    expect(token.split(".")).toHaveLength(5);
    expect(token).not.toContain(USER.email);
    const payload = (await decode({ token, secret: SECRET, salt: SALT }))!;
    expect(payload).toMatchObject(CLAIMS);
    expect(payload.iat).toBeGreaterThanOrEqual(now);
    expect(payload.iat).toBeLessThanOrEqual(now + 5);
    expect(payload.exp! - payload.iat!).toBe(30 * 24 * 60 * 60);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("maxAge sets exp", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: 60 });
    const payload = (await decode({ token, secret: SECRET, salt: SALT }))!;
    expect(payload.exp! - payload.iat!).toBe(60);
  });

  it("two encodings of the same claims differ (fresh IV and jti)", async () => {
    const a = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const b = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    expect(a).not.toBe(b);
  });

  it("the protected header is alg dir, enc A256CBC-HS512, with a kid", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const header = b64urlJson(token.split(".")[0]!);
    expect(header.alg).toBe("dir");
    expect(header.enc).toBe("A256CBC-HS512");
    expect(typeof header.kid).toBe("string");
    expect((header.kid as string).length).toBeGreaterThan(20);
    // dir: no encrypted key part.
    expect(token.split(".")[1]).toBe("");
  });

  it("the kid depends on the secret and on the salt", async () => {
    const kid = async (secret: string, salt: string) =>
      b64urlJson((await encode({ token: {}, secret, salt })).split(".")[0]!).kid;
    const base = await kid(SECRET, SALT);
    expect(await kid(SECRET, SALT)).toBe(base);
    expect(await kid(OLD_SECRET, SALT)).not.toBe(base);
    expect(await kid(SECRET, SECURE_SALT)).not.toBe(base);
  });

  it("decode of an empty token is null", async () => {
    expect(await decode({ token: "", secret: SECRET, salt: SALT })).toBeNull();
    expect(await decode({ token: undefined, secret: SECRET, salt: SALT })).toBeNull();
  });

  it("another salt does not decode", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    await expect(decode({ token, secret: SECRET, salt: SECURE_SALT })).rejects.toThrow();
  });
});

describe("interop with Auth.js (@auth/core/jwt)", () => {
  it("a token made by Auth.js decodes with ours", async () => {
    const token = await authEncode({ token: CLAIMS, secret: SECRET, salt: SALT });
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
  });

  it("a token made by ours decodes with Auth.js", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    expect(await authDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
  });

  it("the headers are identical (same kid for the same secret and salt)", async () => {
    const ours = b64urlJson((await encode({ token: CLAIMS, secret: SECRET, salt: SECURE_SALT })).split(".")[0]!);
    const theirs = b64urlJson((await authEncode({ token: CLAIMS, secret: SECRET, salt: SECURE_SALT })).split(".")[0]!);
    expect(ours).toEqual(theirs);
  });

  it("rotation arrays interoperate: Auth.js [NEW, OLD] reads ours made with OLD, ours [NEW, OLD] reads Auth.js OLD", async () => {
    const oursOld = await encode({ token: CLAIMS, secret: OLD_SECRET, salt: SALT });
    expect(await authDecode({ token: oursOld, secret: [NEW_SECRET, OLD_SECRET], salt: SALT })).toMatchObject(CLAIMS);
    const theirsOld = await authEncode({ token: CLAIMS, secret: OLD_SECRET, salt: SALT });
    expect(await decode({ token: theirsOld, secret: [NEW_SECRET, OLD_SECRET], salt: SALT })).toMatchObject(CLAIMS);
  });

  it("an Auth.js session cookie is a session for the handler", async () => {
    const token = await authEncode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const res = await Auth(request("/auth/session", { headers: { cookie: `${SALT}=${token}` } }), credentialsConfig());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { name: string; email: string; image: string } };
    expect(body.user).toEqual({ name: USER.name, email: USER.email, image: USER.image });
  });

  it("a handler session cookie decodes with Auth.js", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const payload = await authDecode({ token: jar.get(SALT)!, secret: SECRET, salt: SALT });
    expect(payload).toMatchObject({ name: USER.name, email: USER.email, picture: USER.image, sub: USER.id });
  });
});

describe("rotation", () => {
  it("encoded with OLD: decodes with [NEW, OLD], throws with [NEW]", async () => {
    const token = await encode({ token: CLAIMS, secret: OLD_SECRET, salt: SALT });
    expect(await decode({ token, secret: [NEW_SECRET, OLD_SECRET], salt: SALT })).toMatchObject(CLAIMS);
    await expect(decode({ token, secret: [NEW_SECRET], salt: SALT })).rejects.toThrow();
    await expect(decode({ token, secret: NEW_SECRET, salt: SALT })).rejects.toThrow();
  });

  it("with an array, the first (newest) secret encrypts", async () => {
    const token = await encode({ token: CLAIMS, secret: [NEW_SECRET, OLD_SECRET], salt: SALT });
    expect(await decode({ token, secret: NEW_SECRET, salt: SALT })).toMatchObject(CLAIMS);
    await expect(decode({ token, secret: OLD_SECRET, salt: SALT })).rejects.toThrow();
  });

  it("the handler with [NEW, OLD] reads an OLD session and re-issues it under NEW on update", async () => {
    const oldConfig = credentialsConfig({ secret: OLD_SECRET });
    const rotated = credentialsConfig({ secret: [NEW_SECRET, OLD_SECRET] });
    const jar = new CookieJar();
    await signInWithCredentials(oldConfig, jar);
    const res = await call(rotated, "/auth/session", { jar });
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe(USER.name);

    const csrf = ((await (await call(rotated, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken;
    await call(rotated, "/auth/session", { jar, json: { csrfToken: csrf } });
    expect(await decode({ token: jar.get(SALT)!, secret: NEW_SECRET, salt: SALT })).toMatchObject({ name: USER.name });
  });
});

describe("bad tokens: decode throws, getToken answers null", () => {
  const cases: [string, () => Promise<string>][] = [
    ["tampered ciphertext", async () => tamper(await encode({ token: CLAIMS, secret: SECRET, salt: SALT }))],
    ["tampered tag", async () => tamperTag(await encode({ token: CLAIMS, secret: SECRET, salt: SALT }))],
    ["tampered header", async () => tamperHeader(await encode({ token: CLAIMS, secret: SECRET, salt: SALT }))],
    [
      "truncated",
      async () => {
        const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
        return token.slice(0, token.length - 20);
      },
    ],
    [
      "missing a part",
      async () => (await encode({ token: CLAIMS, secret: SECRET, salt: SALT })).split(".").slice(0, 4).join("."),
    ],
    ["made with a foreign secret", async () => encode({ token: CLAIMS, secret: FOREIGN_SECRET, salt: SALT })],
    ["expired (maxAge -100)", async () => encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: -100 })],
    ["not a JWE", async () => "not-a-token"],
    [
      "an unencrypted JWT",
      async () =>
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(CLAIMS)).toString("base64url")}.`,
    ],
  ];

  it.each(cases)("%s", async (_, make) => {
    const token = await make();
    await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow();
    const req = new Request("http://localhost/api", { headers: { cookie: `${SALT}=${token}` } });
    expect(await getToken({ req, secret: SECRET })).toBeNull();
    const bearer = new Request("http://localhost/api", { headers: { authorization: `Bearer ${token}` } });
    expect(await getToken({ req: bearer, secret: SECRET })).toBeNull();
  });

  it("expired by the passage of time (fake clock): decode throws, getToken null", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: 60 });
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    vi.setSystemTime(new Date("2030-01-01T01:00:00Z"));
    await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow();
    const req = new Request("http://localhost/api", { headers: { cookie: `${SALT}=${token}` } });
    expect(await getToken({ req, secret: SECRET })).toBeNull();
  });
});

describe("bad tokens as the session cookie: GET session answers null and clears the cookie", () => {
  const cases: [string, () => Promise<string>][] = [
    ["tampered", async () => tamper(await encode({ token: CLAIMS, secret: SECRET, salt: SALT }))],
    [
      "truncated",
      async () => {
        const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
        return token.slice(0, Math.floor(token.length / 2));
      },
    ],
    ["made with a foreign secret", async () => encode({ token: CLAIMS, secret: FOREIGN_SECRET, salt: SALT })],
    ["made with another salt (cookie name)", async () => encode({ token: CLAIMS, secret: SECRET, salt: "authjs.callback-url" })],
    ["expired", async () => encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: -100 })],
    ["garbage", async () => "garbage"],
  ];

  async function expectNullAndCleared(res: Response, name = SALT) {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toBeNull();
    const cleared = setCookies(res).find((c) => c.name === name);
    expect(cleared).toBeDefined();
    expect(isCleared(cleared!)).toBe(true);
    expect(cleared!.attributes["max-age"]).toBe("0");
    expect(cleared!.attributes.path).toBe("/");
    expect(setCookies(res).filter((c) => c.name.includes("session-token") && c.value !== "")).toEqual([]);
  }

  it.each(cases)("%s", async (_, make) => {
    const logs = captureLogger();
    const config = credentialsConfig({ logger: logs.logger });
    const token = await make();
    const res = await Auth(request("/auth/session", { headers: { cookie: `${SALT}=${token}` } }), config);
    await expectNullAndCleared(res);
  });

  it.each(cases)("%s: on https (__Secure- cookie)", async (_, make) => {
    const logs = captureLogger();
    const config = credentialsConfig({ logger: logs.logger });
    const token = await make();
    const res = await Auth(
      request("/auth/session", { origin: "https://app.example.com", headers: { cookie: `${SECURE_SALT}=${token}` } }),
      config,
    );
    await expectNullAndCleared(res, SECURE_SALT);
    expect(setCookies(res).find((c) => c.name === SECURE_SALT)!.attributes.secure).toBe(true);
  });

  it.each(cases)("%s: POST signout still signs out (redirect, cookie cleared, no error page)", async (_, make) => {
    const logs = captureLogger();
    const config = credentialsConfig({ logger: logs.logger });
    const jar = new CookieJar();
    const csrf = ((await (await call(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken;
    jar.cookies.set(SALT, await make());
    const res = await call(config, "/auth/signout", { jar, form: { csrfToken: csrf } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("error")).toBeNull();
    expect(jar.get(SALT)).toBeUndefined();
  });

  it("a session that expires while cached: first read works, after the clock moves it is null and cleared", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-06-01T00:00:00Z"));
    const logs = captureLogger();
    const config: AuthConfig = credentialsConfig({ logger: logs.logger, session: { maxAge: 120 } });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const first = await call(config, "/auth/session", { jar });
    expect(((await first.json()) as { user: { name: string } }).user.name).toBe(USER.name);

    vi.setSystemTime(new Date("2031-06-01T02:00:00Z"));
    const res = await call(config, "/auth/session", { jar });
    await expectNullAndCleared(res);
    expect(jar.get(SALT)).toBeUndefined();
  });

  it("a tampered cookie is reported through logger.error (not an error page)", async () => {
    const logs = captureLogger();
    const config = credentialsConfig({ logger: logs.logger });
    const token = tamper(await encode({ token: CLAIMS, secret: SECRET, salt: SALT }));
    const res = await Auth(request("/auth/session", { headers: { cookie: `${SALT}=${token}` } }), config);
    expect(res.status).toBe(200);
    expect(logs.errors.length).toBeGreaterThanOrEqual(1);
    expect(logs.errors.map((e) => e.message).join("\n")).not.toContain(token);
  });
});

describe("getToken", () => {
  it("reads the session cookie of a request", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const req = new Request("http://localhost/api", { headers: { cookie: `other=1; ${SALT}=${token}` } });
    expect(await getToken({ req, secret: SECRET })).toMatchObject(CLAIMS);
  });

  it("returns null without a cookie or Authorization header", async () => {
    expect(await getToken({ req: new Request("http://localhost/api"), secret: SECRET })).toBeNull();
  });

  it("reads Authorization: Bearer", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const req = new Request("http://localhost/api", { headers: { authorization: `Bearer ${token}` } });
    expect(await getToken({ req, secret: SECRET })).toMatchObject(CLAIMS);
  });

  it("ignores other Authorization schemes", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const req = new Request("http://localhost/api", { headers: { authorization: `Basic ${token}` } });
    expect(await getToken({ req, secret: SECRET })).toBeNull();
  });

  it("reads the __Secure- cookie for an https request (and not the plain one)", async () => {
    const secureToken = await encode({ token: { ...CLAIMS, name: "secure" }, secret: SECRET, salt: SECURE_SALT });
    const plainToken = await encode({ token: { ...CLAIMS, name: "plain" }, secret: SECRET, salt: SALT });
    const both = `${SALT}=${plainToken}; ${SECURE_SALT}=${secureToken}`;
    const https = new Request("https://app.example.com/api", { headers: { cookie: both } });
    expect((await getToken({ req: https, secret: SECRET }))?.name).toBe("secure");
    const http = new Request("http://app.example.com/api", { headers: { cookie: both } });
    expect((await getToken({ req: http, secret: SECRET }))?.name).toBe("plain");
    const onlyPlain = new Request("https://app.example.com/api", { headers: { cookie: `${SALT}=${plainToken}` } });
    expect(await getToken({ req: onlyPlain, secret: SECRET })).toBeNull();
  });

  it("secureCookie and cookieName override the defaults", async () => {
    const secureToken = await encode({ token: CLAIMS, secret: SECRET, salt: SECURE_SALT });
    const req = new Request("http://localhost/api", { headers: { cookie: `${SECURE_SALT}=${secureToken}` } });
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject(CLAIMS);

    const custom = await encode({ token: CLAIMS, secret: SECRET, salt: "my-app.sid" });
    const req2 = new Request("http://localhost/api", { headers: { cookie: `my-app.sid=${custom}` } });
    expect(await getToken({ req: req2, secret: SECRET, cookieName: "my-app.sid" })).toMatchObject(CLAIMS);
  });

  it("reads chunked cookies", async () => {
    const token = await encode({ token: { ...CLAIMS, blob: "x".repeat(9000) }, secret: SECRET, salt: SALT });
    const size = Math.ceil(token.length / 3);
    const chunks = [0, 1, 2].map((i) => `${SALT}.${i}=${token.slice(i * size, (i + 1) * size)}`);
    const req = new Request("http://localhost/api", { headers: { cookie: [chunks[2], chunks[0], chunks[1]].join("; ") } });
    const payload = await getToken({ req, secret: SECRET });
    expect(payload).toMatchObject(CLAIMS);
    expect((payload!.blob as string).length).toBe(9000);
  });

  it("reads the chunked session cookie the handler sets", async () => {
    const config = credentialsConfig({
      callbacks: { jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, blob: "y".repeat(12_000) } : token) },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    expect(jar.get(`${SALT}.1`)).toBeDefined();
    const req = new Request("http://localhost/api", { headers: { cookie: jar.header() } });
    const payload = await getToken({ req, secret: SECRET });
    expect(payload).toMatchObject({ name: USER.name, email: USER.email });
    expect((payload!.blob as string).length).toBe(12_000);
  });

  it("raw: true returns the encrypted string", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const req = new Request("http://localhost/api", { headers: { cookie: `${SALT}=${token}` } });
    const raw = await getToken({ req, secret: SECRET, raw: true });
    expect(raw).toBe(token);
    const bearer = new Request("http://localhost/api", { headers: { authorization: `Bearer ${token}` } });
    expect(await getToken({ req: bearer, secret: SECRET, raw: true })).toBe(token);
  });

  it("accepts a plain headers record and a rotation array", async () => {
    const token = await encode({ token: CLAIMS, secret: OLD_SECRET, salt: SALT });
    const payload = await getToken({ req: { headers: { cookie: `${SALT}=${token}` } }, secret: [NEW_SECRET, OLD_SECRET] });
    expect(payload).toMatchObject(CLAIMS);
    expect(await getToken({ req: { headers: { cookie: `${SALT}=${token}` } }, secret: NEW_SECRET })).toBeNull();
  });

  it("reads a token made by Auth.js", async () => {
    const token = await authEncode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const req = new Request("http://localhost/api", { headers: { cookie: `${SALT}=${token}` } });
    expect(await getToken({ req, secret: SECRET })).toMatchObject(CLAIMS);
  });
});

describe("getToken with a malformed token, side by side with Auth.js", () => {
  const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(CLAIMS)).toString("base64url")}.`;
  const notJsonHeader = "bm90IGpzb24.x.y.z.w";
  const get = (headers: Record<string, string>, raw: boolean) => ({
    ours: getToken({ req: { headers }, secret: SECRET, raw }),
    theirs: authGetToken({ req: { headers }, secret: SECRET, raw }) as Promise<unknown>,
  });

  // [case, headers, what Auth.js's raw: true returns ("garbage" = the input as sent)]
  const cases: [string, (token: string) => Record<string, string>, "garbage" | null][] = [
    ["a bearer that is not a token", () => ({ authorization: "Bearer garbage" }), "garbage"],
    ["a bearer of five parts with no JSON header", () => ({ authorization: `Bearer ${notJsonHeader}` }), "garbage"],
    ["an unencrypted JWT as the bearer", () => ({ authorization: `Bearer ${unsigned}` }), "garbage"],
    ["a bearer with broken percent-encoding", () => ({ authorization: "Bearer %E0%A4%A" }), null],
    ["a session cookie that is not a token", () => ({ cookie: `${SALT}=not-a-token` }), "garbage"],
    ["a session cookie with a tampered header", (token) => ({ cookie: `${SALT}=${tamperHeader(token).replace(/^[^.]+/, "e30")}` }), "garbage"],
  ];

  it.each(cases)("%s: raw is null (Auth.js: the garbage), decoded is null on both", async (_, make, authJsRaw) => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const headers = make(token);
    const raw = get(headers, true);
    expect(await raw.ours).toBeNull();
    const theirs = await raw.theirs;
    if (authJsRaw === null) expect(theirs).toBeNull();
    else expect(typeof theirs === "string" && theirs !== token).toBe(true);
    const decoded = get(headers, false);
    expect([await decoded.ours, await decoded.theirs]).toEqual([null, null]);
  });

  it("an Authorization header with two credentials is no token (Auth.js reads the first; a proxy may read the other)", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const headers = { authorization: `Bearer ${token} ${FOREIGN_SECRET}` };
    expect([await get(headers, true).ours, await get(headers, false).ours]).toEqual([null, null]);
    expect(await get(headers, true).theirs).toBe(token);
  });

  it("the scheme is read in any case (RFC 9110), where Auth.js reads only \"Bearer\"", async () => {
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT });
    const headers = { authorization: `bearer ${token}` };
    expect(await get(headers, true).ours).toBe(token);
    expect(await get(headers, true).theirs).toBeNull();
  });

  it("a well-formed token, ours or Auth.js's, is returned raw by both, from the cookie and the bearer", async () => {
    for (const token of [await encode({ token: CLAIMS, secret: SECRET, salt: SALT }), await authEncode({ token: CLAIMS, secret: SECRET, salt: SALT })]) {
      for (const headers of [{ cookie: `${SALT}=${token}` }, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
        const raw = get(headers, true);
        expect([await raw.ours, await raw.theirs]).toEqual([token, token]);
      }
    }
  });

  it("a well-formed token that does not decrypt (expired, foreign secret) is still returned raw, as by Auth.js: raw does not verify", async () => {
    const foreign = await encode({ token: CLAIMS, secret: FOREIGN_SECRET, salt: SALT });
    const raw = get({ authorization: `Bearer ${foreign}` }, true);
    expect([await raw.ours, await raw.theirs]).toEqual([foreign, foreign]);
    const decoded = get({ authorization: `Bearer ${foreign}` }, false);
    expect([await decoded.ours, await decoded.theirs]).toEqual([null, null]);
  });

  it("with a custom decode (a format of the app's), raw takes any compact JWS or JWE, and still no garbage", async () => {
    const jws = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const decodeJws = async () => ({ sub: "1" });
    const raw = (authorization: string) => getToken({ req: { headers: { authorization } }, secret: SECRET, raw: true, decode: decodeJws });
    expect(await raw(`Bearer ${jws}`)).toBe(jws);
    expect(await raw("Bearer garbage")).toBeNull();
    expect(await raw(`Bearer ${notJsonHeader}`)).toBeNull();
  });
});
