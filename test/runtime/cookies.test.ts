/**
 * Cookies: the session cookie's name and attributes, the `cookies` option, chunking
 * of large sessions (and clearing stale chunks), and malformed Cookie headers.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import {
  CookieJar,
  ORIGIN,
  USER,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  isCleared,
  request,
  setCookies,
  signInWithCredentials,
} from "../helpers.js";


const HTTPS = "https://app.example.com";
const DAY = 24 * 60 * 60 * 1000;

function quiet(overrides: Partial<AuthConfig> = {}) {
  const logs = captureLogger();
  return { logs, config: credentialsConfig({ logger: logs.logger, ...overrides }) };
}

async function sessionOf(config: AuthConfig, jar: CookieJar, origin = ORIGIN) {
  const res = await call(config, "/auth/session", { jar, origin });
  expect(res.status).toBe(200);
  return (await res.json()) as { user: { name: string; email: string }; expires: string } | null;
}

async function signInAt(config: AuthConfig, jar: CookieJar, origin: string) {
  const res = await call(config, "/auth/csrf", { jar, origin });
  const { csrfToken: token } = (await res.json()) as { csrfToken: string };
  return call(config, "/auth/callback/credentials", {
    jar,
    origin,
    form: { username: "ada", password: "correct horse", csrfToken: token },
  });
}

describe("the session cookie", () => {
  it("is authjs.session-token, HttpOnly, SameSite=Lax, Path=/, expiring in about 30 days", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const before = Date.now();
    const res = await signInWithCredentials(config, jar);
    const cookies = setCookies(res).filter((c) => c.name.includes("session-token"));
    expect(cookies.map((c) => c.name)).toEqual(["authjs.session-token"]);
    const cookie = cookies[0]!;
    expect(cookie.value.split(".")).toHaveLength(5); // a compact JWE
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie.attributes.path).toBe("/");
    expect(cookie.attributes.secure).toBeUndefined();
    expect(cookie.attributes.domain).toBeUndefined();
    const expires = Date.parse(String(cookie.attributes.expires));
    expect(Number.isNaN(expires)).toBe(false);
    expect(expires).toBeGreaterThan(before + 30 * DAY - 60_000);
    expect(expires).toBeLessThan(Date.now() + 30 * DAY + 60_000);
  });

  it("the session's expires matches the cookie (about 30 days ahead)", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const session = await sessionOf(config, jar);
    const expires = Date.parse(session!.expires);
    expect(Math.abs(expires - (Date.now() + 30 * DAY))).toBeLessThan(2 * 60_000);
  });

  it("session.maxAge sets the cookie expiry", async () => {
    const { config } = quiet({ session: { maxAge: 3600 } });
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    const cookie = setCookies(res).find((c) => c.name === "authjs.session-token")!;
    const expires = Date.parse(String(cookie.attributes.expires));
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
  });

  it("on https it is __Secure-authjs.session-token with Secure, and is read back", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const res = await signInAt(config, jar, HTTPS);
    expect(res.status).toBe(302);
    const cookies = setCookies(res).filter((c) => c.name.includes("session-token"));
    expect(cookies.map((c) => c.name)).toEqual(["__Secure-authjs.session-token"]);
    expect(cookies[0]!.attributes.secure).toBe(true);
    expect(cookies[0]!.attributes.httponly).toBe(true);
    expect(cookies[0]!.attributes.path).toBe("/");
    expect((await sessionOf(config, jar, HTTPS))?.user.name).toBe(USER.name);
  });

  it("an https session cookie is not read over http (different name)", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    await signInAt(config, jar, HTTPS);
    expect(await sessionOf(config, jar, ORIGIN)).toBeNull();
  });

  it("useSecureCookies: false on https uses the plain name without Secure", async () => {
    const { config } = quiet({ useSecureCookies: false });
    const jar = new CookieJar();
    const res = await signInAt(config, jar, HTTPS);
    const cookies = setCookies(res).filter((c) => c.name.includes("session-token"));
    expect(cookies.map((c) => c.name)).toEqual(["authjs.session-token"]);
    expect(cookies[0]!.attributes.secure).toBeUndefined();
    expect((await sessionOf(config, jar, HTTPS))?.user.name).toBe(USER.name);
  });

  it("sign-out clears it with the same attributes", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    await signInAt(config, jar, HTTPS);
    const token = ((await (await call(config, "/auth/csrf", { jar, origin: HTTPS })).json()) as { csrfToken: string }).csrfToken;
    const res = await call(config, "/auth/signout", { jar, origin: HTTPS, form: { csrfToken: token } });
    const cleared = setCookies(res).find((c) => c.name === "__Secure-authjs.session-token")!;
    expect(isCleared(cleared)).toBe(true);
    expect(cleared.attributes["max-age"]).toBe("0");
    expect(cleared.attributes.path).toBe("/");
    expect(cleared.attributes.secure).toBe(true);
  });
});

describe("the cookies option", () => {
  it("overrides the session cookie's name and options, for set and for read", async () => {
    const { config } = quiet({
      cookies: { sessionToken: { name: "my-app.sid", options: { sameSite: "strict", path: "/app", httpOnly: true } } },
    });
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    const names = setCookies(res).map((c) => c.name);
    expect(names).toContain("my-app.sid");
    expect(names).not.toContain("authjs.session-token");
    const cookie = setCookies(res).find((c) => c.name === "my-app.sid")!;
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("strict");
    expect(cookie.attributes.path).toBe("/app");
    expect(cookie.attributes.httponly).toBe(true);

    expect((await sessionOf(config, jar))?.user.name).toBe(USER.name);

    // The default name is not read any more.
    const value = jar.get("my-app.sid")!;
    const viaDefault = await Auth(
      request("/auth/session", { headers: { cookie: `authjs.session-token=${encodeURIComponent(value)}` } }),
      config,
    );
    expect(await viaDefault.json()).toBeNull();
  });

  it("an overridden name keeps exactly that name on https (no prefix added)", async () => {
    const { config } = quiet({ cookies: { sessionToken: { name: "my-app.sid" } } });
    const jar = new CookieJar();
    const res = await signInAt(config, jar, HTTPS);
    expect(setCookies(res).some((c) => c.name === "my-app.sid")).toBe(true);
    expect(setCookies(res).some((c) => c.name.includes("authjs.session-token"))).toBe(false);
    expect((await sessionOf(config, jar, HTTPS))?.user.name).toBe(USER.name);
  });

  it("overrides the CSRF cookie name", async () => {
    const { config } = quiet({ cookies: { csrfToken: { name: "my-csrf" } } });
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    expect(jar.get("my-csrf")).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/);
    expect(jar.get("authjs.csrf-token")).toBeUndefined();
    expect(res.status).toBe(302);
    expect(jar.get("authjs.session-token")).toBeDefined();
  });

  it("a Domain on a __Host- cookie of ours (browsers would drop it) turns the default name to __Secure-", async () => {
    const { config } = quiet({ cookies: { csrfToken: { options: { domain: "app.example.com" } } } });
    const jar = new CookieJar();
    const res = await call(config, "/auth/csrf", { jar, origin: HTTPS });
    const cookie = setCookies(res).find((c) => c.name.endsWith("authjs.csrf-token"))!;
    expect(cookie.name).toBe("__Secure-authjs.csrf-token");
    expect(cookie.attributes.domain).toBe("app.example.com");
  });

  it("a __Host- name the user chose with a Domain is a configuration error, not a cookie browsers drop", async () => {
    const { config, logs } = quiet({ cookies: { state: { name: "__Host-my-state", options: { domain: "example.com" } } } });
    const res = await call(config, "/auth/csrf", { origin: HTTPS });
    expect(res.status).toBe(500);
    expect(setCookies(res)).toEqual([]);
    expect(logs.errors.map((e) => e.message).join("\n")).toMatch(/cookies\.state\.name is "__Host-my-state", but a __Host- cookie must have Path "\/" and no Domain/);
  });

  it("a __Host- session cookie name of the user's own (SECURITY.md's advice) works on https", async () => {
    const { config } = quiet({ cookies: { sessionToken: { name: "__Host-my-app.sid" } } });
    const jar = new CookieJar();
    const res = await signInAt(config, jar, HTTPS);
    const cookie = setCookies(res).find((c) => c.name === "__Host-my-app.sid")!;
    expect(cookie.attributes.secure).toBe(true);
    expect(cookie.attributes.domain).toBeUndefined();
    expect((await sessionOf(config, jar, HTTPS))?.user.name).toBe(USER.name);
  });
});

describe("chunked sessions", () => {
  const BIG = 10 * 1024;

  /** A config whose jwt callback adds ~10 KB of random data on sign-in and drops it on `update({drop: true})`. */
  function bigConfig() {
    const blob = randomBytes(BIG / 2).toString("hex");
    const { config, logs } = quiet({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          if (trigger === "signIn") return { ...token, blob };
          if (trigger === "update" && session?.drop) {
            const { blob: _dropped, ...rest } = token;
            return rest;
          }
          return token;
        },
        session: ({ session, token }) => ({ ...session, blobLength: typeof token.blob === "string" ? token.blob.length : 0 }),
      },
    });
    return { config, logs, blob };
  }

  it("a session larger than one cookie is split into .0, .1, ... each under 4096 bytes", async () => {
    const { config } = bigConfig();
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    expect(res.status).toBe(302);
    const raw = res.headers.getSetCookie().filter((h) => h.startsWith("authjs.session-token"));
    const names = raw.map((h) => h.slice(0, h.indexOf("=")));
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(names).toEqual(names.map((_, i) => `authjs.session-token.${i}`));
    for (const header of raw) {
      expect(new TextEncoder().encode(header).length).toBeLessThan(4096);
      expect(header).toMatch(/HttpOnly/i);
      expect(header).toMatch(/Path=\//);
      expect(header).toMatch(/SameSite=Lax/i);
    }
    // No unchunked cookie next to the chunks.
    expect(jar.get("authjs.session-token")).toBeUndefined();
  });

  it("reading with all chunks returns the session", async () => {
    const { config, blob } = bigConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const session = (await sessionOf(config, jar)) as { user: { name: string }; blobLength: number } | null;
    expect(session?.user.name).toBe(USER.name);
    expect(session?.blobLength).toBe(blob.length);
  });

  it("chunks are read in numeric order (.10 after .9), whatever their order in the header", async () => {
    const { config } = quiet({
      callbacks: {
        jwt: ({ token, trigger }) => (trigger === "signIn" ? { ...token, blob: randomBytes(20 * 1024).toString("hex") } : token),
      },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const chunks = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    expect(chunks.length).toBeGreaterThan(10);
    const reversed = [...jar.cookies].reverse().map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("; ");
    const res = await Auth(request("/auth/session", { headers: { cookie: reversed } }), config);
    expect(((await res.json()) as { user: { name: string } } | null)?.user.name).toBe(USER.name);
  });

  it("when the token shrinks, the stale chunks are cleared and one authjs.session-token is set", async () => {
    const { config } = bigConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    expect(chunkNames.length).toBeGreaterThanOrEqual(3);

    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: { drop: true } } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { name: string }; blobLength: number };
    expect(body.user.name).toBe(USER.name);
    expect(body.blobLength).toBe(0);

    const cookies = setCookies(res).filter((c) => c.name.startsWith("authjs.session-token"));
    const single = cookies.filter((c) => c.name === "authjs.session-token");
    expect(single).toHaveLength(1);
    expect(single[0]!.value.length).toBeGreaterThan(0);
    for (const name of chunkNames) {
      const cleared = cookies.find((c) => c.name === name);
      expect(cleared, name).toBeDefined();
      expect(isCleared(cleared!)).toBe(true);
      expect(cleared!.attributes["max-age"]).toBe("0");
      expect(cleared!.attributes.path).toBe("/");
    }
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token"))).toEqual(["authjs.session-token"]);
    const after = (await sessionOf(config, jar)) as { user: { name: string }; blobLength: number } | null;
    expect(after?.user.name).toBe(USER.name);
    expect(after?.blobLength).toBe(0);
  });

  it("when a single cookie grows into chunks, the old single cookie is cleared", async () => {
    const blob = randomBytes(BIG / 2).toString("hex");
    const { config } = quiet({
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" && session?.grow ? { ...token, blob } : token) },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    expect(jar.get("authjs.session-token")).toBeDefined();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/session", { jar, json: { csrfToken: token, data: { grow: true } } });
    const cookies = setCookies(res).filter((c) => c.name.startsWith("authjs.session-token"));
    const single = cookies.find((c) => c.name === "authjs.session-token");
    expect(single && isCleared(single)).toBe(true);
    expect(cookies.filter((c) => /\.\d+$/.test(c.name) && c.value !== "").length).toBeGreaterThanOrEqual(3);
    expect((await sessionOf(config, jar))?.user.name).toBe(USER.name);
  });

  it("a missing middle chunk: session null and all chunks cleared", async () => {
    const { config } = bigConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    expect(chunkNames.length).toBeGreaterThanOrEqual(3);
    jar.cookies.delete("authjs.session-token.1");

    const res = await call(config, "/auth/session", { jar });
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    const cookies = setCookies(res);
    for (const name of chunkNames.filter((n) => n !== "authjs.session-token.1")) {
      const cleared = cookies.find((c) => c.name === name);
      expect(cleared, name).toBeDefined();
      expect(isCleared(cleared!)).toBe(true);
    }
    expect(cookies.filter((c) => c.name.startsWith("authjs.session-token") && c.value !== "")).toEqual([]);
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token"))).toEqual([]);
  });

  it("a missing last chunk: session null and the chunks cleared", async () => {
    const { config } = bigConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    jar.cookies.delete(chunkNames[chunkNames.length - 1]!);
    const res = await call(config, "/auth/session", { jar });
    expect(await res.json()).toBeNull();
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token"))).toEqual([]);
  });

  it("sign-out clears every chunk", async () => {
    const { config } = bigConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/signout", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    const cleared = setCookies(res).filter((c) => c.name.startsWith("authjs.session-token") && isCleared(c)).map((c) => c.name);
    for (const name of chunkNames) expect(cleared).toContain(name);
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token"))).toEqual([]);
  });
});

describe("malformed Cookie headers never cause a 500", () => {
  const garbage = Array.from({ length: 40_000 }, (_, i) => "abc=;%\"\\, =x;;"[i % 15]).join("");
  const headers = [
    ";;==;",
    "a=%E0%A4%A",
    "authjs.session-token=%E0%A4%A",
    "authjs.csrf-token=%E0%A4%A",
    "authjs.session-token=",
    "authjs.session-token",
    "=",
    "authjs.session-token.0=abc; authjs.session-token.1=def",
    "authjs.session-token.x=abc; authjs.session-token.-1=def",
    "authjs.session-token=a.b.c.d.e",
    `authjs.session-token=${"A".repeat(8000)}`,
    "__proto__=1; constructor=2; toString=3",
    garbage,
  ];

  it.each(headers.map((h) => [h.length > 60 ? `${h.slice(0, 40)}... (${h.length} chars)` : h, h]))(
    "Cookie: %s",
    async (_, header) => {
      const { config } = quiet();
      for (const path of ["/auth/session", "/auth/csrf", "/auth/signin", "/auth/providers"]) {
        const res = await Auth(request(path, { headers: { cookie: header } }), config);
        expect(res.status, path).toBe(200);
        if (path === "/auth/session") expect(await res.json()).toBeNull();
      }
      const post = await Auth(
        request("/auth/callback/credentials", {
          headers: { cookie: header },
          form: { username: "ada", password: "correct horse", csrfToken: "x" },
        }),
        config,
      );
      expect(post.status).toBe(302);
      expect(new URL(post.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    },
  );

  it("a valid session next to garbage pairs is still read", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const header = `;;==; a=%E0%A4%A; ${jar.header()}; junk`;
    const res = await Auth(request("/auth/session", { headers: { cookie: header } }), config);
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe(USER.name);
  });
});
