/**
 * `@gatehouse/runtime/solid-start` without SolidStart: its handlers, `getSession`
 * and the middleware take plain events (`{ request, response?, locals? }`), so they
 * are driven here with `Request`s. test/e2e/solid-start.test.ts runs them in real apps.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionUnavailable, type AuthConfig } from "@gatehouse/runtime";
import { SolidAuth, authMiddleware, getSession, signInUrl, type SolidAuthConfig } from "@gatehouse/runtime/solid-start";
import { CookieJar, SECRET, captureLogger, credentialsConfig, request, setCookies } from "../helpers.js";

const GOOD = { username: "ada", password: "correct horse" };

/** A fresh config per test: derived configs are cached per object. */
function solidConfig(overrides: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  const { secret: _secret, trustHost: _trust, ...rest } = credentialsConfig() as AuthConfig;
  return { ...rest, ...overrides } as SolidAuthConfig;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

async function signIn(config: SolidAuthConfig, jar: CookieJar, prefix = "/api/auth"): Promise<Response> {
  const { GET, POST } = SolidAuth(config);
  const csrf = await GET({ request: request(`${prefix}/csrf`, { jar }) });
  jar.store(csrf);
  const { csrfToken } = await csrf.json();
  return jar.store(await POST({ request: request(`${prefix}/callback/credentials`, { jar, form: { ...GOOD, csrfToken } }) }));
}

describe("SolidAuth handlers", () => {
  it("serve the handler under /api/auth with AUTH_SECRET and AUTH_URL from process.env; the CSRF token check stays on", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig();
    const { GET, POST } = SolidAuth(config);
    const providers = await (await GET({ request: request("/api/auth/providers") })).json();
    expect(providers.credentials.callbackUrl).toBe("http://localhost:3000/api/auth/callback/credentials");

    const jar = new CookieJar();
    const noToken = await POST({ request: request("/api/auth/callback/credentials", { jar, form: GOOD }) });
    expect(noToken.headers.get("location")).toMatch(/error=MissingCSRF/);
    expect(jar.get("authjs.session-token")).toBeUndefined();

    const signedIn = await signIn(config, jar);
    expect(signedIn.status).toBe(302);
    expect(jar.get("authjs.session-token")).toBeTruthy();
  });

  it.each([["é".repeat(64)], ["😀".repeat(32)], ["\u0000".repeat(64)], ["a".repeat(63) + "ā"]])("a CSRF token of 64 odd characters (%j) is refused as missing, never a 500", async (odd) => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig();
    const { GET, POST } = SolidAuth(config);
    const jar = new CookieJar();
    jar.store(await GET({ request: request("/api/auth/csrf", { jar }) }));
    const res = await POST({ request: request("/api/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: odd } }) });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/error=MissingCSRF/);
    expect(jar.get("authjs.session-token")).toBeUndefined();
  });

  // The forms of the app auth-init writes post straight to this catch-all route: the handler's origin rule is theirs.
  it("attack: a token/cookie pair from the server planted in the victim's browser, posted from another site, is refused", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const { GET, POST } = SolidAuth(solidConfig());
    const attacker = new CookieJar();
    attacker.store(await GET({ request: request("/api/auth/csrf", { jar: attacker }) }));
    const { csrfToken } = await (await GET({ request: request("/api/auth/csrf", { jar: attacker }) })).json();
    const victim = new CookieJar();
    victim.cookies.set("authjs.csrf-token", attacker.get("authjs.csrf-token")!);
    for (const headers of [{ origin: "http://evil.example", "sec-fetch-site": "cross-site" }, { origin: "http://evil.localhost:3000", "sec-fetch-site": "same-site" }]) {
      const res = await POST({ request: request("/api/auth/callback/credentials", { jar: victim, headers, form: { ...GOOD, csrfToken } }) });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/error=MissingCSRF/);
      expect(victim.store(res) && victim.get("authjs.session-token")).toBeUndefined();
    }
    // From the app's own page (AUTH_URL's origin) the same form signs in.
    const own = await POST({ request: request("/api/auth/callback/credentials", { jar: victim, headers: { origin: "http://localhost:3000", "sec-fetch-site": "same-origin" }, form: { ...GOOD, csrfToken } }) });
    expect(victim.store(own) && victim.get("authjs.session-token")).toBeTruthy();
  });

  it("honour a custom prefix, and answer unknown actions with a clear 400", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig({ prefix: "/auth-api" });
    const { GET } = SolidAuth(config);
    expect((await GET({ request: request("/auth-api/session") })).status).toBe(200);
    const unknown = await GET({ request: request("/auth-api/nope") });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain("nope");
  });

  it("trust the host only in development; in production an unset AUTH_URL is a logged configuration error", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("NODE_ENV", "development");
    expect((await SolidAuth(solidConfig()).GET({ request: request("/api/auth/providers") })).status).toBe(200);

    vi.stubEnv("NODE_ENV", "production");
    const log = captureLogger();
    const response = await SolidAuth(solidConfig({ logger: log.logger })).GET({ request: request("/api/auth/providers") });
    expect(response.status).toBe(500);
    expect(log.errors[0]?.message).toMatch(/AUTH_TRUST_HOST|AUTH_URL/);
  });

  it("never change the user's config object", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = Object.freeze(solidConfig({ prefix: "/api/auth" }));
    await SolidAuth(config).GET({ request: request("/api/auth/session") });
    expect(config.prefix).toBe("/api/auth");
    expect("basePath" in config).toBe(false);
  });
});

describe("getSession", () => {
  it("is null without a cookie, the session with one, and honours the prefix", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig({ prefix: "/auth-api" });
    expect(await getSession(request("/"), config)).toBeNull();
    const jar = new CookieJar();
    await signIn(config, jar, "/auth-api");
    expect((await getSession(request("/dashboard", { jar }), config))?.user?.email).toBe("ada@example.com");
  });

  it("given the event, sets the re-issued session cookie on its response (the expiry slides)", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig({ session: { updateAge: 0 } });
    const jar = new CookieJar();
    await signIn(config, jar);
    const response = { headers: new Headers() };
    const session = await getSession({ request: request("/", { jar }), response }, config);
    expect(session?.user?.name).toBe("Ada Lovelace");
    const reissued = setCookies(new Response(null, { headers: response.headers })).find((c) => c.name === "authjs.session-token");
    expect(reissued?.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" });
    expect(reissued?.value).not.toBe("");
  });

  it("reads the session once per request: middleware, page and server functions share it", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    let reads = 0;
    const config = solidConfig({ session: { updateAge: 0 }, events: { session: () => void (reads += 1) } });
    const jar = new CookieJar();
    await signIn(config, jar);
    const event = { request: request("/", { jar }), response: { headers: new Headers() } };
    const [a, b] = await Promise.all([getSession(event, config), getSession(event, config)]);
    expect(await getSession(event.request, config)).toBe(a);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    // The re-issued cookie is set once, not once per call.
    expect(event.response.headers.getSetCookie().filter((c) => c.startsWith("authjs.session-token="))).toHaveLength(1);
  });

  it("throws SessionUnavailable when the config is broken", async () => {
    vi.stubEnv("AUTH_SECRET", "too-short");
    await expect(getSession(request("/"), solidConfig({ logger: captureLogger().logger }))).rejects.toBeInstanceOf(SessionUnavailable);
  });
});

describe("authMiddleware", () => {
  it("sends a visitor of a protected path without a session to sign-in (303, with the page as callbackUrl)", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig();
    const middleware = authMiddleware(config, { protectedPaths: ["/account", /^\/admin(\/|$)/] });
    for (const path of ["/", "/accounting", "/public/account"]) {
      expect(await middleware({ request: request(path) })).toBeUndefined();
    }
    for (const [path, callbackUrl] of [["/account", "/account"], ["/account/settings?tab=2", "/account/settings?tab=2"], ["/admin", "/admin"]]) {
      const response = (await middleware({ request: request(path!) }))!;
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/api/auth/signin?${new URLSearchParams({ callbackUrl: callbackUrl! })}`);
    }
  });

  it("lets a signed-in visitor through and leaves the session on event.locals", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    const config = solidConfig();
    const jar = new CookieJar();
    await signIn(config, jar);
    const locals: Record<string, unknown> = {};
    const middleware = authMiddleware(config, { protectedPaths: (path) => path.startsWith("/account"), signInPage: "/login" });
    expect(await middleware({ request: request("/account", { jar }), locals })).toBeUndefined();
    expect((locals.session as { user: { email: string } }).user.email).toBe("ada@example.com");
    expect((await middleware({ request: request("/account") }))!.headers.get("location")).toBe("/login?callbackUrl=%2Faccount");
  });
});

describe("signInUrl", () => {
  it("is absolute on AUTH_URL's origin (the router would render a relative /api/... itself), with the callbackUrl", () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "https://app.example.com");
    const config = solidConfig();
    expect(signInUrl({ request: request("/protected") }, config, "/protected")).toBe("https://app.example.com/api/auth/signin?callbackUrl=%2Fprotected");
    expect(signInUrl(request("/x"), config)).toBe("https://app.example.com/api/auth/signin");
    expect(signInUrl(request("/x"), config, "/x", "/login")).toBe("https://app.example.com/login?callbackUrl=%2Fx");
  });

  it("uses the request's origin without AUTH_URL, and the prefix", () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", "");
    expect(signInUrl(request("/x"), solidConfig({ prefix: "/auth" }), "/x")).toBe("http://localhost:3000/auth/signin?callbackUrl=%2Fx");
  });
});
