/**
 * The pieces the framework integrations share, run without a framework: `Auth`
 * with `raw` (what server-side form actions use), the SvelteKit config
 * derivation, and the session read behind `locals.auth()` / `getSession`.
 * The integrations themselves run in real apps in test/e2e.
 */
import { describe, expect, it } from "vitest";
import { Auth, CredentialsSignin, SessionUnavailable, raw, type AccountBody, type AuthConfig, type Cookie, type ResponseInternal, type Session } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { authRaw as authRawSrc } from "../../runtime/src/core/auth.js";
import { isAuthPath } from "../../runtime/src/core/http/router.js";
import { readRequestAccount as readRequestAccountSrc, readRequestSession as readRequestSessionSrc } from "../../runtime/src/frameworks/session.js";
import { svelteKitConfig as svelteKitConfigSrc } from "../../runtime/src/frameworks/sveltekit/config.js";

// Internal modules come from the sources, while the helpers type configs by the
// package's declarations: the same types under two paths, hence these casts.
const authRaw = authRawSrc as unknown as (request: Request, config: AuthConfig, throwCredentialsErrors?: boolean) => Promise<ResponseInternal>;
const readRequestSession = readRequestSessionSrc as unknown as (
  request: Request,
  config: AuthConfig,
  basePath: string,
) => Promise<{ session: Session | null; cookies: Cookie[] }>;
const readRequestAccount = readRequestAccountSrc as unknown as (request: Request, config: AuthConfig, basePath: string) => Promise<AccountBody | null>;
const svelteKitConfig = svelteKitConfigSrc as unknown as (
  config: Omit<AuthConfig, "raw">,
  environment: { env: Record<string, string | undefined>; base: string; dev: boolean },
) => Omit<AuthConfig, "raw">;
import { CookieJar, SECRET, call, captureLogger, credentialsConfig, request, signInWithCredentials } from "../helpers.js";

const GOOD = { username: "ada", password: "correct horse" };

describe("the raw result for server-side form actions", () => {
  it("throws a refused credentials sign-in to the action, after logging it as a warning", async () => {
    const log = captureLogger();
    const config = credentialsConfig({ logger: log.logger });
    const jar = new CookieJar();
    const token = (await (await call(config, "/auth/csrf", { jar })).json()).csrfToken;
    const attempt = authRaw(request("/auth/callback/credentials", { jar, form: { username: "ada", password: "wrong", csrfToken: token } }), config, true);
    await expect(attempt).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(attempt).rejects.toMatchObject({ code: "credentials" });
    expect(log.warnings).toEqual(["credentials-signin-refused"]);
    expect(log.errors).toEqual([]);
  });

  it("returns the result value (redirect and cookies) for a successful sign-in, and errors other than refusals as results", async () => {
    const config = { ...credentialsConfig(), raw } as AuthConfig & { raw: typeof raw };
    const jar = new CookieJar();
    const token = (await (await call(credentialsConfig(), "/auth/csrf", { jar })).json()).csrfToken;
    const result = await Auth(request("/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: token, callbackUrl: "/done" } }), config);
    expect(result.redirect).toBe("http://localhost:3000/done");
    expect(result.cookies?.map((c) => c.name)).toContain("authjs.session-token");
    // No CSRF token: a client-safe error, answered as a redirect, not thrown.
    const missing = await Auth(request("/auth/callback/credentials", { form: GOOD }), config);
    expect(missing.redirect).toMatch(/error=MissingCSRF/);
  });
});

describe("SvelteKit config", () => {
  const env = { AUTH_SECRET: SECRET };

  it("is derived once per user config and env, and never changes the user's object", () => {
    const user = { providers: credentialsConfig().providers, logger: captureLogger().logger };
    const frozen = Object.freeze({ ...user });
    const environment = { env, base: "", dev: false };
    expect(svelteKitConfig(frozen, environment)).toBe(svelteKitConfig(frozen, environment));
    expect(svelteKitConfig(frozen, { ...environment, env: { ...env } })).not.toBe(svelteKitConfig(frozen, environment));
    expect(Object.keys(frozen)).toEqual(["providers", "logger"]);
  });

  it("puts the auth routes under paths.base, keeps an explicit basePath, and does not double the base", () => {
    const providers = credentialsConfig().providers;
    expect(svelteKitConfig({ providers }, { env, base: "/app", dev: false }).basePath).toBe("/app/auth");
    expect(svelteKitConfig({ providers, basePath: "/login" }, { env, base: "/app", dev: false }).basePath).toBe("/app/login");
    expect(svelteKitConfig({ providers, basePath: "/app/auth" }, { env, base: "/app", dev: false }).basePath).toBe("/app/auth");
    expect(svelteKitConfig({ providers }, { env, base: "", dev: false }).basePath).toBe("/auth");
  });

  it("trusts the host in dev only; in production adapter-node's ORIGIN (or AUTH_URL, which wins) is the public URL", async () => {
    const providers = credentialsConfig().providers;
    const quiet = { providers, logger: captureLogger().logger };
    const prod = svelteKitConfig(quiet, { env, base: "", dev: false });
    expect((await Auth(request("/auth/providers"), prod)).status).toBe(500);

    const dev = svelteKitConfig(quiet, { env, base: "", dev: true });
    expect((await Auth(request("/auth/providers"), dev)).status).toBe(200);

    const withOrigin = svelteKitConfig(quiet, { env: { ...env, ORIGIN: "https://app.example.com" }, base: "", dev: false });
    const providersBody = await (await Auth(request("/auth/providers"), withOrigin)).json();
    expect(providersBody.credentials.callbackUrl).toBe("https://app.example.com/auth/callback/credentials");

    const both = svelteKitConfig(quiet, { env: { ...env, ORIGIN: "https://origin.example.com", AUTH_URL: "https://auth.example.com" }, base: "", dev: false });
    expect((await (await Auth(request("/auth/providers"), both)).json()).credentials.signinUrl).toBe("https://auth.example.com/auth/signin/credentials");
  });

  it("hands CSRF to SvelteKit: csrf answers 404, posts need no token, and nothing is warned", async () => {
    const log = captureLogger();
    const config = svelteKitConfig({ providers: credentialsConfig().providers, logger: log.logger }, { env, base: "", dev: true });
    expect((await Auth(request("/auth/csrf"), config)).status).toBe(404);
    const jar = new CookieJar();
    const response = await call(config, "/auth/callback/credentials", { jar, form: GOOD });
    expect(response.status).toBe(302);
    expect(jar.get("authjs.session-token")).toBeTruthy();
    expect(log.warnings).not.toContain("csrf-disabled");
  });

  it("takes the request URL (SvelteKit's event.url) as the public origin and ignores X-Forwarded-Host", async () => {
    const config = svelteKitConfig({ providers: credentialsConfig().providers, logger: captureLogger().logger }, { env: { ...env, AUTH_TRUST_HOST: "true" }, base: "", dev: false });
    const response = await Auth(request("/auth/providers", { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } }), config);
    expect((await response.json()).credentials.callbackUrl).toBe("http://localhost:3000/auth/callback/credentials");
  });
});

describe("the session read behind locals.auth() and getSession", () => {
  it("is null without a cookie and the session with one", async () => {
    const config = credentialsConfig();
    expect(await readRequestSession(request("/dashboard"), config, "/auth")).toEqual({ session: null, cookies: [] });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const { session } = await readRequestSession(request("/dashboard", { jar }), config, "/auth");
    expect(session?.user).toEqual({ name: "Ada Lovelace", email: "ada@example.com", image: "https://example.com/ada.png" });
  });

  it("hands back the cookies to set: a garbage session cookie is cleared", async () => {
    const config = credentialsConfig();
    const result = await readRequestSession(request("/", { headers: { cookie: "authjs.session-token=garbage" } }), config, "/auth");
    expect(result.session).toBeNull();
    expect(result.cookies).toEqual([expect.objectContaining({ name: "authjs.session-token", value: "" })]);
  });

  it("throws SessionUnavailable when the session cannot be read (a broken config, a database that is down)", async () => {
    const broken = { ...credentialsConfig(), secret: "short" };
    await expect(readRequestSession(request("/"), broken, "/auth")).rejects.toBeInstanceOf(SessionUnavailable);

    const adapter = MemoryAdapter();
    const user = await adapter.createUser!({ id: "", email: "ada@example.com", emailVerified: null });
    await adapter.createSession!({ sessionToken: "tok", userId: user.id, expires: new Date(Date.now() + 60_000) });
    const down = { ...credentialsConfig(), adapter: { ...adapter, getSessionAndUser: async () => Promise.reject(new Error("connection refused")) } };
    await expect(readRequestSession(request("/", { headers: { cookie: "authjs.session-token=tok" } }), down, "/auth")).rejects.toBeInstanceOf(SessionUnavailable);
  });

  it("with database sessions: the callback gets the stored session and user as GET session gives them, and the page gets the same body (no sessionToken)", async () => {
    const adapter = MemoryAdapter();
    const user = await adapter.createUser!({ id: "", email: "ada@example.com", emailVerified: null, name: "Ada" });
    await adapter.updateUser!({ id: user.id, role: "admin" } as Parameters<NonNullable<typeof adapter.updateUser>>[0]);
    await adapter.createSession!({ sessionToken: "tok", userId: user.id, expires: new Date(Date.now() + 86_400_000) });
    const given: any[] = [];
    const config: AuthConfig = {
      ...credentialsConfig(),
      adapter,
      session: { strategy: "database" },
      callbacks: {
        session: (params: any) => {
          given.push(structuredClone(params));
          params.session.user.role = params.user.role;
          return params.session;
        },
      },
    };
    const headers = { cookie: "authjs.session-token=tok" };
    const { session } = await readRequestSession(request("/dashboard", { headers }), config, "/auth");
    const body = await (await call(config, "/auth/session", { headers })).json();
    expect(given).toHaveLength(2);
    expect(given[0]).toEqual(given[1]);
    expect(given[0].session).toMatchObject({ sessionToken: "tok", userId: user.id, user: { role: "admin" } });
    expect(session).toEqual(body);
    expect(session).toMatchObject({ userId: user.id, user: { email: "ada@example.com", role: "admin" } });
    expect(session).not.toHaveProperty("sessionToken");
  });
});

describe("the account read behind locals.account() and getAccount", () => {
  it("is null without a session; with one, the account with its sessions, the asking browser's marked current", async () => {
    const adapter = MemoryAdapter();
    const config = { ...credentialsConfig(), adapter, session: { strategy: "database" as const } };
    expect(await readRequestAccount(request("/account"), config, "/auth")).toBeNull();
    const user = await adapter.createUser!({ id: "", email: "ada@example.com", emailVerified: new Date(), name: "Ada" });
    await adapter.createSession!({ sessionToken: "laptop", userId: user.id, expires: new Date(Date.now() + 86_400_000), userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" });
    await adapter.createSession!({ sessionToken: "phone", userId: user.id, expires: new Date(Date.now() + 86_400_000) });
    const account = await readRequestAccount(request("/account", { headers: { cookie: "authjs.session-token=phone" } }), config, "/auth");
    expect(account?.user).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(account?.sessions.map((session) => [session.current, session.browser])).toEqual([
      [false, "Firefox on Linux"],
      [true, null],
    ]);
  });

  it("throws SessionUnavailable when the account cannot be read (no adapter)", async () => {
    const config = { ...credentialsConfig(), logger: captureLogger().logger };
    await expect(readRequestAccount(request("/account"), config, "/auth")).rejects.toBeInstanceOf(SessionUnavailable);
  });
});

describe("isAuthPath", () => {
  it("matches the handler's actions under the base path and nothing else", () => {
    for (const path of ["/auth/session", "/auth/signin", "/auth/signin/github", "/auth/callback/credentials", "/auth/webauthn-options/passkey"]) {
      expect(isAuthPath(path, "/auth")).toBe(true);
    }
    for (const path of ["/auth", "/auth/", "/auth/profile", "/authx/session", "/other/session", "/auth/__proto__", "/auth/constructor"]) {
      expect(isAuthPath(path, "/auth")).toBe(false);
    }
    expect(isAuthPath("/app/auth/csrf", "/app/auth")).toBe(true);
  });
});
