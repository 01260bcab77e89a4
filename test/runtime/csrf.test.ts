/**
 * Double-submit CSRF: the token and its `token|hash` cookie, its attributes, and
 * every state-changing POST refusing a missing, wrong or foreign token.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Auth, skipCSRFCheck, type AuthConfig } from "@gatehouse/runtime";
import {
  CookieJar,
  OLD_SECRET,
  ORIGIN,
  SECRET,
  USER,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  request,
  setCookies,
  signInWithCredentials,
  type ParsedSetCookie,
} from "../helpers.js";


const NEW_SECRET = "new-secret-new-secret-new-secret-0123456789zz";
const HTTPS = "https://app.example.com";
const GOOD = { username: "ada", password: "correct horse" };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function quiet(overrides: Partial<AuthConfig> = {}) {
  const logs = captureLogger();
  return { logs, config: credentialsConfig({ logger: logs.logger, ...overrides }) };
}

function cookieNamed(response: Response, name: string): ParsedSetCookie | undefined {
  return setCookies(response).find((c) => c.name === name);
}

function sessionCookiesSet(response: Response): string[] {
  return setCookies(response)
    .filter((c) => c.name.includes("session-token") && c.value !== "")
    .map((c) => c.name);
}

function expectMissingCsrfRedirect(response: Response, basePath = "/auth") {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  expect(location.origin).toBe(ORIGIN);
  expect(location.pathname).toBe(`${basePath}/signin`);
  expect(location.searchParams.get("error")).toBe("MissingCSRF");
  expect(sessionCookiesSet(response)).toEqual([]);
}

describe("GET csrf", () => {
  it("returns {csrfToken} and sets authjs.csrf-token = token|sha256(token + secret)", async () => {
    const { config } = quiet();
    const res = await call(config, "/auth/csrf");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["csrfToken"]);
    const token = body.csrfToken as string;
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    const cookies = setCookies(res);
    expect(cookies).toHaveLength(1);
    const cookie = cookies[0]!;
    expect(cookie.name).toBe("authjs.csrf-token");
    expect(cookie.value).toBe(`${token}|${sha256(`${token}${SECRET}`)}`);
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie.attributes.path).toBe("/");
    expect(cookie.attributes.secure).toBeUndefined();
    expect(cookie.attributes.domain).toBeUndefined();
  });

  it("is not cacheable", async () => {
    const res = await call(quiet().config, "/auth/csrf");
    const cacheControl = res.headers.get("cache-control") ?? "";
    expect(cacheControl).toContain("no-store");
    expect(cacheControl).toContain("private");
  });

  it("gives a new token to each new visitor", async () => {
    const { config } = quiet();
    const a = await csrfToken(config, new CookieJar());
    const b = await csrfToken(config, new CookieJar());
    expect(a).not.toBe(b);
  });

  it("a second GET with the cookie returns the same token and sets no new cookie", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const first = await csrfToken(config, jar);
    const res = await call(config, "/auth/csrf", { jar });
    expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(first);
    expect(setCookies(res)).toEqual([]);
  });

  it("the sign-in page uses the same token as GET csrf", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const page = await call(config, "/auth/signin", { jar });
    expect(await page.text()).toContain(token);
    expect(setCookies(page).filter((c) => c.name.includes("csrf"))).toEqual([]);
  });

  it("on https the cookie is __Host-authjs.csrf-token, Secure, Path=/, no Domain", async () => {
    const { config } = quiet();
    const res = await call(config, "/auth/csrf", { origin: HTTPS });
    const token = ((await res.json()) as { csrfToken: string }).csrfToken;
    const cookies = setCookies(res);
    expect(cookies.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token"]);
    const cookie = cookies[0]!;
    expect(cookie.value).toBe(`${token}|${sha256(`${token}${SECRET}`)}`);
    expect(cookie.attributes.secure).toBe(true);
    expect(cookie.attributes.path).toBe("/");
    expect(cookie.attributes.domain).toBeUndefined();
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
  });

  it("on https the __Host- cookie verifies a POST", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const res = await call(config, "/auth/csrf", { jar, origin: HTTPS });
    const token = ((await res.json()) as { csrfToken: string }).csrfToken;
    const signIn = await call(config, "/auth/callback/credentials", { jar, origin: HTTPS, form: { ...GOOD, csrfToken: token } });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe(`${HTTPS}/`);
    expect(sessionCookiesSet(signIn)).toEqual(["__Secure-authjs.session-token"]);
  });

  it("the plain-http cookie name is not read on https", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar); // authjs.csrf-token, over http
    const res = await call(config, "/auth/callback/credentials", { jar, origin: HTTPS, form: { ...GOOD, csrfToken: token } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("useSecureCookies: false on https disables the prefixes and Secure", async () => {
    const { config } = quiet({ useSecureCookies: false });
    const res = await call(config, "/auth/csrf", { origin: HTTPS });
    const cookies = setCookies(res);
    expect(cookies.map((c) => c.name)).toEqual(["authjs.csrf-token"]);
    expect(cookies[0]!.attributes.secure).toBeUndefined();
  });

  it("useSecureCookies: true on http uses the prefixes and Secure", async () => {
    const { config } = quiet({ useSecureCookies: true });
    const res = await call(config, "/auth/csrf");
    const cookies = setCookies(res);
    expect(cookies.map((c) => c.name)).toEqual(["__Host-authjs.csrf-token"]);
    expect(cookies[0]!.attributes.secure).toBe(true);
  });

  it.each([
    ["a forged hash", (token: string) => `${token}|${"0".repeat(64)}`],
    ["a hash made with another secret", (token: string) => `${token}|${sha256(`${token}another-secret-another-secret-another-secret`)}`],
    ["a hash without the secret", (token: string) => `${token}|${sha256(token)}`],
    ["no hash", (token: string) => token],
    ["garbage", () => "not|a|cookie"],
  ])("a cookie with %s is replaced by a new token", async (_, forge) => {
    const { config } = quiet();
    const planted = "a".repeat(64);
    const res = await Auth(request("/auth/csrf", { headers: { cookie: `authjs.csrf-token=${encodeURIComponent(forge(planted))}` } }), config);
    expect(res.status).toBe(200);
    const token = ((await res.json()) as { csrfToken: string }).csrfToken;
    expect(token).not.toBe(planted);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const cookie = cookieNamed(res, "authjs.csrf-token");
    expect(cookie?.value).toBe(`${token}|${sha256(`${token}${SECRET}`)}`);
  });

  it("a forged cookie cannot be used for a POST (attacker plants token|hash without the secret)", async () => {
    const { config } = quiet();
    const planted = "b".repeat(64);
    const res = await Auth(
      request("/auth/callback/credentials", {
        headers: { cookie: `authjs.csrf-token=${encodeURIComponent(`${planted}|${sha256(planted)}`)}` },
        form: { ...GOOD, csrfToken: planted },
      }),
      config,
    );
    expectMissingCsrfRedirect(res);
  });
});

describe("state-changing POSTs without a valid token", () => {
  type Case = (config: AuthConfig) => Promise<{ cookie?: string; token?: string }>;

  const cases: [string, Case][] = [
    ["no cookie and no token", async () => ({})],
    [
      "a cookie but no token",
      async (config) => {
        const jar = new CookieJar();
        await csrfToken(config, jar);
        return { cookie: jar.header() };
      },
    ],
    [
      "a wrong token",
      async (config) => {
        const jar = new CookieJar();
        const token = await csrfToken(config, jar);
        const wrong = (token[0] === "0" ? "1" : "0") + token.slice(1);
        return { cookie: jar.header(), token: wrong };
      },
    ],
    [
      "an empty token",
      async (config) => {
        const jar = new CookieJar();
        await csrfToken(config, jar);
        return { cookie: jar.header(), token: "" };
      },
    ],
    [
      "a token without its cookie",
      async (config) => ({ token: await csrfToken(config, new CookieJar()) }),
    ],
    [
      "a token from another session's cookie (foreign)",
      async (config) => {
        const mine = new CookieJar();
        await csrfToken(config, mine);
        const theirs = await csrfToken(config, new CookieJar());
        return { cookie: mine.header(), token: theirs };
      },
    ],
    [
      "the cookie value itself as the token",
      async (config) => {
        const jar = new CookieJar();
        await csrfToken(config, jar);
        return { cookie: jar.header(), token: jar.get("authjs.csrf-token")! };
      },
    ],
  ];

  const body = (token: string | undefined, extra: Record<string, string> = {}) =>
    token === undefined ? extra : { ...extra, csrfToken: token };

  it.each(cases)("POST callback/credentials with %s: redirect to signin?error=MissingCSRF, no session", async (_, make) => {
    const { config, logs } = quiet();
    const { cookie, token } = await make(config);
    const res = await Auth(
      request("/auth/callback/credentials", { headers: cookie ? { cookie } : {}, form: body(token, GOOD) }),
      config,
    );
    expectMissingCsrfRedirect(res);
    expect(logs.errors.map((e) => e.name)).toContain("MissingCSRF");
  });

  it.each(cases)("POST signin/credentials with %s: redirect to signin?error=MissingCSRF", async (_, make) => {
    const { config } = quiet();
    const { cookie, token } = await make(config);
    const res = await Auth(request("/auth/signin/credentials", { headers: cookie ? { cookie } : {}, form: body(token) }), config);
    expectMissingCsrfRedirect(res);
  });

  it.each(cases)("POST signout with %s: redirect to signin?error=MissingCSRF and the session survives", async (_, make) => {
    const { config } = quiet();
    const session = new CookieJar();
    await signInWithCredentials(config, session);
    const sessionCookie = `authjs.session-token=${encodeURIComponent(session.get("authjs.session-token")!)}`;
    const { cookie, token } = await make(config);
    const res = await Auth(
      request("/auth/signout", { headers: { cookie: [cookie, sessionCookie].filter(Boolean).join("; ") }, form: body(token) }),
      config,
    );
    expectMissingCsrfRedirect(res);
    // Nothing about the session changed: not cleared, not re-issued.
    expect(setCookies(res).filter((c) => c.name.includes("session-token"))).toEqual([]);
    const after = await Auth(request("/auth/session", { headers: { cookie: sessionCookie } }), config);
    expect(((await after.json()) as { user: { name: string } }).user.name).toBe(USER.name);
  });

  it.each(cases)("POST session with %s: 400 JSON MissingCSRF, the session is not updated", async (_, make) => {
    const { config } = quiet({
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: String(session?.name) } : token),
      },
    });
    const session = new CookieJar();
    await signInWithCredentials(config, session);
    const sessionCookie = `authjs.session-token=${encodeURIComponent(session.get("authjs.session-token")!)}`;
    const { cookie, token } = await make(config);
    const res = await Auth(
      request("/auth/session", {
        headers: { cookie: [cookie, sessionCookie].filter(Boolean).join("; ") },
        json: { ...body(token), data: { name: "Mallory" } },
      }),
      config,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const json = (await res.json()) as { error: string; message: string };
    expect(json.error).toBe("MissingCSRF");
    expect(json.message).toContain("csrf");
    expect(setCookies(res).filter((c) => c.name.includes("session-token"))).toEqual([]);
    const after = await Auth(request("/auth/session", { headers: { cookie: sessionCookie } }), config);
    expect(((await after.json()) as { user: { name: string } }).user.name).toBe(USER.name);
  });

  it("the token is accepted in a JSON body as well as a form", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/callback/credentials", { jar, json: { ...GOOD, csrfToken: token } });
    expect(res.status).toBe(302);
    expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"]);
  });

  it("the token is not read from the query string", async () => {
    const { config } = quiet();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, `/auth/callback/credentials?csrfToken=${token}`, { jar, form: GOOD });
    expectMissingCsrfRedirect(res);
  });

  it("a custom pages.signIn receives the MissingCSRF redirect", async () => {
    const { config } = quiet({ pages: { signIn: "/login" } });
    const res = await call(config, "/auth/signout", { form: { csrfToken: "nope" } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("error")).toBe("MissingCSRF");
  });
});

describe("a non-string csrfToken in a JSON body is a 400", () => {
  it.each(["/auth/callback/credentials", "/auth/signin/credentials", "/auth/signout", "/auth/session"])(
    "POST %s with {csrfToken: 123}",
    async (path) => {
      const { config } = quiet();
      const jar = new CookieJar();
      await csrfToken(config, jar);
      const res = await call(config, path, { jar, json: { ...GOOD, csrfToken: 123 } });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.message).toContain("csrfToken");
      expect(sessionCookiesSet(res)).toEqual([]);
    },
  );

  it.each([[["a"]], [{ token: "a" }], [null], [true]])("POST session with {csrfToken: %j} is a 400", async (value) => {
    const { config } = quiet();
    const jar = new CookieJar();
    await csrfToken(config, jar);
    const res = await call(config, "/auth/session", { jar, json: { csrfToken: value } });
    expect(res.status).toBe(400);
    expect(sessionCookiesSet(res)).toEqual([]);
  });
});

describe("secret rotation", () => {
  it("a CSRF cookie made under OLD verifies a POST under [NEW, OLD]", async () => {
    const old = quiet({ secret: OLD_SECRET }).config;
    const rotated = quiet({ secret: [NEW_SECRET, OLD_SECRET] }).config;
    const jar = new CookieJar();
    const token = await csrfToken(old, jar);
    expect(jar.get("authjs.csrf-token")).toBe(`${token}|${sha256(`${token}${OLD_SECRET}`)}`);

    const res = await call(rotated, "/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: token } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"]);
  });

  it("the POST verified with an OLD cookie re-issues it under NEW, so [NEW] alone keeps the token", async () => {
    const old = quiet({ secret: OLD_SECRET }).config;
    const rotated = quiet({ secret: [NEW_SECRET, OLD_SECRET] }).config;
    const newOnly = quiet({ secret: NEW_SECRET }).config;
    const jar = new CookieJar();
    const token = await csrfToken(old, jar);
    await call(rotated, "/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: token } });
    expect(jar.get("authjs.csrf-token")).toBe(`${token}|${sha256(`${token}${NEW_SECRET}`)}`);

    const res = await call(newOnly, "/auth/csrf", { jar });
    expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(token);
  });

  it("GET csrf under [NEW, OLD] keeps the token and re-issues the cookie under NEW; [NEW] alone then verifies a POST", async () => {
    const old = quiet({ secret: OLD_SECRET }).config;
    const rotated = quiet({ secret: [NEW_SECRET, OLD_SECRET] }).config;
    const newOnly = quiet({ secret: NEW_SECRET }).config;
    const jar = new CookieJar();
    const token = await csrfToken(old, jar);

    const reissue = await call(rotated, "/auth/csrf", { jar });
    expect(((await reissue.json()) as { csrfToken: string }).csrfToken).toBe(token);
    expect(cookieNamed(reissue, "authjs.csrf-token")?.value).toBe(`${token}|${sha256(`${token}${NEW_SECRET}`)}`);

    const again = await call(newOnly, "/auth/csrf", { jar });
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(token);
    expect(setCookies(again)).toEqual([]);

    const res = await call(newOnly, "/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: token } });
    expect(res.status).toBe(302);
    expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"]);
  });

  it("a cookie made under OLD is refused once OLD is dropped from the list", async () => {
    const old = quiet({ secret: OLD_SECRET }).config;
    const newOnly = quiet({ secret: NEW_SECRET }).config;
    const jar = new CookieJar();
    const token = await csrfToken(old, jar);
    const res = await call(newOnly, "/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: token } });
    expectMissingCsrfRedirect(res);
  });
});

describe("skipCSRFCheck", () => {
  it("POSTs work without a token", async () => {
    const { config, logs } = quiet({ skipCSRFCheck });
    const jar = new CookieJar();
    const signIn = await call(config, "/auth/callback/credentials", { jar, form: GOOD });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(sessionCookiesSet(signIn)).toEqual(["authjs.session-token"]);

    const update = await call(config, "/auth/session", { jar, json: {} });
    expect(update.status).toBe(200);
    expect(((await update.json()) as { user: { name: string } }).user.name).toBe(USER.name);

    const signOut = await call(config, "/auth/signout", { jar, form: {} });
    expect(signOut.status).toBe(302);
    expect(new URL(signOut.headers.get("location")!).searchParams.get("error")).toBeNull();
    expect(jar.get("authjs.session-token")).toBeUndefined();
    expect(logs.warnings).toContain("csrf-disabled");
  });

  it("GET csrf is a 404 and sets no cookie", async () => {
    const { config } = quiet({ skipCSRFCheck });
    const res = await call(config, "/auth/csrf");
    expect(res.status).toBe(404);
    expect(setCookies(res)).toEqual([]);
  });

  it("a symbol other than the exported one does not disable the check", async () => {
    const { config } = quiet({ skipCSRFCheck: Symbol("skip-csrf-check") as typeof skipCSRFCheck });
    const res = await call(config, "/auth/callback/credentials", { form: GOOD });
    expectMissingCsrfRedirect(res);
    expect((await call(config, "/auth/csrf")).status).toBe(200);
  });
});
