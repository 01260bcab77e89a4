/**
 * OAuth 2 / OIDC sign-in through our handler against a real authorization server
 * (oidc-provider on 127.0.0.1): the authorization request, the callback, client
 * authentication methods, form_post, plain OAuth 2 with a userinfo endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { OAuth, OIDC } from "@gatehouse/runtime/providers";
import AuthjsKeycloak from "@auth/core/providers/keycloak";
import { captureLogger, call, CookieJar, fetchSession, isCleared, locationOf, ORIGIN, SECRET, setCookies } from "../helpers.js";
import { signInThroughProvider, startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { authorize } from "./support/user-agent.js";

const PROVIDER_IDS = ["oidc", "oidc-post", "oidc-public", "plain", "formpost", "hinted", "keycloak"];

let server: OidcServer;

beforeAll(async () => {
  server = await startOidcServer({ redirectUris: PROVIDER_IDS.map((id) => `${ORIGIN}/auth/callback/${id}`) });
});
afterAll(() => server?.close());

function oidcProvider(overrides: Record<string, unknown> = {}) {
  return OIDC({
    id: "oidc",
    name: "Test IdP",
    issuer: server.issuer,
    clientId: server.clients.basic.client_id,
    clientSecret: server.clients.basic.client_secret,
    ...overrides,
  });
}

function configWith(providers: AuthConfig["providers"], overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, trustHost: true, logger: captureLogger().logger, providers, ...overrides };
}

describe("POST signin/<oidc provider>: the authorization request", () => {
  it("redirects to the discovered authorization endpoint with PKCE S256, state and nonce, each in a 15-minute encrypted cookie", async () => {
    const config = configWith([oidcProvider()]);
    const jar = new CookieJar();
    const { response, authorizationUrl } = await startSignIn(config, jar, "oidc", { callbackUrl: `${ORIGIN}/dashboard` });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(server.url("/auth"));
    const params = authorizationUrl.searchParams;
    expect(params.get("client_id")).toBe(server.clients.basic.client_id);
    expect(params.get("response_type")).toBe("code");
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/oidc`);
    expect(params.get("scope")).toBe("openid profile email");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get("nonce")).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const cookies = setCookies(response);
    for (const name of ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]) {
      const cookie = cookies.find((c) => c.name === name);
      expect(cookie, name).toBeDefined();
      expect(cookie!.attributes.httponly).toBe(true);
      expect(cookie!.attributes.samesite).toBe("Lax");
      expect(cookie!.attributes.path).toBe("/");
      expect(cookie!.attributes["max-age"]).toBe("900");
      // Encrypted (a JWE), never the raw value that went to the provider.
      expect(cookie!.value.split(".")).toHaveLength(5);
      expect(cookie!.value).not.toContain(params.get("state")!);
    }
    expect(cookies.find((c) => c.name === "authjs.callback-url")?.value).toBe(`${ORIGIN}/dashboard`);
  });

  it("never forwards the sign-in request's own query parameters (redirect_uri, scope, prompt...) to the provider", async () => {
    const config = configWith([oidcProvider()]);
    const { authorizationUrl } = await startSignIn(config, new CookieJar(), "oidc", {
      query: { redirect_uri: "https://evil.example/cb", scope: "openid admin", prompt: "none", login_hint: "eve", foo: "bar" },
      form: { response_type: "token", client_id: "other" },
    });
    const params = authorizationUrl.searchParams;
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/oidc`);
    expect(params.get("scope")).toBe("openid profile email");
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe(server.clients.basic.client_id);
    for (const name of ["prompt", "login_hint", "foo"]) expect(params.has(name), name).toBe(false);
  });

  it("forwards exactly the parameters the provider allow-lists, and its configured authorization params", async () => {
    const config = configWith([
      oidcProvider({
        id: "hinted",
        allowedAuthorizationParams: ["login_hint", "prompt"],
        authorization: { params: { scope: "openid email", ui_locales: "fr" } },
      }),
    ]);
    const { authorizationUrl } = await startSignIn(config, new CookieJar(), "hinted", {
      query: { login_hint: "ada@example.test", prompt: "login", max_age: "0" },
    });
    const params = authorizationUrl.searchParams;
    expect(params.get("login_hint")).toBe("ada@example.test");
    expect(params.get("prompt")).toBe("login");
    expect(params.has("max_age")).toBe(false);
    expect(params.get("scope")).toBe("openid email");
    expect(params.get("ui_locales")).toBe("fr");
  });

  it("refuses to allow-list a parameter the flow sets itself (a configuration error naming it)", async () => {
    const logs = captureLogger();
    const config = configWith([oidcProvider({ allowedAuthorizationParams: ["redirect_uri"] })], { logger: logs.logger });
    const res = await call(config, "/auth/providers");
    expect(res.status).toBe(500);
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("redirect_uri");
  });

  it("checks: ['state'] narrows the checks: no PKCE, no nonce", async () => {
    const config = configWith([oidcProvider({ id: "oidc-public", checks: ["state"] })]);
    const jar = new CookieJar();
    const { response, authorizationUrl } = await startSignIn(config, jar, "oidc-public");
    expect(authorizationUrl.searchParams.has("code_challenge")).toBe(false);
    expect(authorizationUrl.searchParams.has("nonce")).toBe(false);
    expect(authorizationUrl.searchParams.has("state")).toBe(true);
    expect(setCookies(response).map((c) => c.name)).not.toContain("authjs.pkce.code_verifier");
  });

  it("a provider that cannot be reached sends the user to the sign-in page with error=OAuthSignin, cause logged", async () => {
    const logs = captureLogger();
    const config = configWith([oidcProvider({ issuer: "http://127.0.0.1:9" })], { logger: logs.logger });
    const jar = new CookieJar();
    const token = (await (await call(config, "/auth/csrf", { jar })).json()).csrfToken as string;
    const res = await call(config, "/auth/signin/oidc", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    const location = locationOf(res);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("OAuthSignin");
    expect(logs.errors.some((e) => e.message.includes("127.0.0.1:9"))).toBe(true);
  });

  it("without a CSRF token the sign-in does not start", async () => {
    const config = configWith([oidcProvider()]);
    const res = await call(config, "/auth/signin/oidc", { form: {} });
    expect(res.status).toBe(302);
    expect(locationOf(res).searchParams.get("error")).toBe("MissingCSRF");
    expect(setCookies(res).map((c) => c.name)).not.toContain("authjs.state");
  });
});

describe("the whole code flow signs the user in", () => {
  it.each([
    ["client_secret_basic", "basic", "oidc"],
    ["client_secret_post", "post", "oidc-post"],
    ["none (public client, PKCE only)", "public", "oidc-public"],
  ] as const)("with %s client authentication", async (method, client, id) => {
    const registered = server.clients[client];
    const config = configWith([
      oidcProvider({
        id,
        clientId: registered.client_id,
        clientSecret: registered.client_secret,
        client: { token_endpoint_auth_method: registered.token_endpoint_auth_method },
      }),
    ]);
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, id, { login: "ada" }, { callbackUrl: "/dashboard" });
    expect(callback.status, method).toBe(302);
    expect(locationOf(callback).href).toBe(`${ORIGIN}/dashboard`);
    // The check cookies are cleared once used.
    const cleared = setCookies(callback).filter(isCleared).map((c) => c.name);
    expect(cleared).toEqual(expect.arrayContaining(["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]));
    const { body } = await fetchSession(config, jar);
    expect(body.user).toEqual({ name: expect.any(String), email: "ada@example.test", image: expect.anything() });
  });

  it("form_post: the cross-site POST (without cookies) becomes a GET that signs in", async () => {
    const config = configWith([oidcProvider({ id: "formpost", authorization: { params: { response_mode: "form_post" } } })]);
    const jar = new CookieJar();
    const started = await startSignIn(config, jar, "formpost");
    expect(started.authorizationUrl.searchParams.get("response_mode")).toBe("form_post");
    const result = await authorize(started.authorizationUrl, { login: "grace" });
    expect(result.formPost).toBeDefined();
    // As a browser posts the provider's page: from the provider's origin, cross-site. The origin rule of the
    // CSRF check does not apply here (state binds this callback), so it must not refuse it.
    const crossSite = { origin: new URL(server.issuer).origin, "sec-fetch-site": "cross-site" };
    const posted = await call(config, new URL(result.formPost!.action).pathname, { headers: crossSite, form: { ...result.formPost!.fields, junk: "x" } });
    expect(posted.status).toBe(303);
    const rebound = locationOf(posted);
    expect(rebound.pathname).toBe("/auth/callback/formpost");
    expect(rebound.searchParams.get("code")).toBe(result.formPost!.fields.code);
    expect(rebound.searchParams.has("junk")).toBe(false);
    // Nothing was signed in or cleared by the POST itself.
    expect(setCookies(posted)).toEqual([]);
    const callback = await call(config, `${rebound.pathname}${rebound.search}`, { jar });
    expect(callback.status).toBe(302);
    expect((await fetchSession(config, jar)).body.user.email).toBe("grace@example.test");
  });

  it("plain OAuth 2 with explicit endpoints reads the profile from the userinfo endpoint", async () => {
    const seen: string[] = [];
    const logs = captureLogger();
    const config = configWith([
      OAuth({
        id: "plain",
        name: "Plain OAuth",
        // oidc-provider sends RFC 9207 `iss`; a plain OAuth server that does is checked against `issuer`.
        issuer: server.issuer,
        authorization: { url: server.url("/auth"), params: { scope: "openid email profile" } },
        token: server.url("/token"),
        userinfo: server.url("/me"),
        clientId: server.clients.basic.client_id,
        clientSecret: server.clients.basic.client_secret,
        profile: (profile: Record<string, unknown>) => {
          seen.push(Object.keys(profile).sort().join(","));
          return { id: String(profile.sub), name: `user ${String(profile.sub)}`, email: String(profile.email) };
        },
      }),
    ], { logger: logs.logger });
    const jar = new CookieJar();
    const { started, callback } = await signInThroughProvider(config, jar, "plain", { login: "linus" });
    expect(logs.errors).toEqual([]);
    // Plain OAuth: no nonce.
    expect(started.authorizationUrl.searchParams.has("nonce")).toBe(false);
    expect(callback.status).toBe(302);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("email");
    const { body } = await fetchSession(config, jar);
    expect(body.user).toMatchObject({ name: "user linus", email: "linus@example.test" });
  });

  it("the user aborting at the provider lands on the sign-in page with error=OAuthCallbackError and no session", async () => {
    const logs = captureLogger();
    const config = configWith([oidcProvider()], { logger: logs.logger });
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "ada", abort: true });
    expect(callback.status).toBe(302);
    const location = locationOf(callback);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("OAuthCallbackError");
    expect(setCookies(callback).some((c) => c.name === "authjs.session-token" && !isCleared(c))).toBe(false);
    expect(logs.errors.some((e) => e.message.includes("access_denied"))).toBe(true);
    expect((await fetchSession(config, jar)).body).toBeNull();
  });
});

describe("compatibility and the built-in page", () => {
  it("a provider object made by Auth.js (@auth/core/providers/keycloak) signs in through our handler unchanged", async () => {
    const provider = AuthjsKeycloak({
      clientId: server.clients.basic.client_id,
      clientSecret: server.clients.basic.client_secret,
      issuer: server.issuer,
    });
    const config = configWith([provider as never]);
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "keycloak", { login: "kim" });
    expect(callback.status).toBe(302);
    expect((await fetchSession(config, jar)).body.user.email).toBe("kim@example.test");
  });

  it("the built-in sign-in page has a button per OAuth provider that posts with the CSRF token", async () => {
    const config = configWith([oidcProvider()]);
    const jar = new CookieJar();
    const page = await (await call(config, "/auth/signin", { jar })).text();
    const form = /<form[^>]*action="([^"]+\/auth\/signin\/oidc)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>|<form[^>]*method="post"[^>]*action="([^"]+\/auth\/signin\/oidc)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
    expect(form, page).not.toBeNull();
    const body = form![2] ?? form![4]!;
    expect(body).toContain("Sign in with Test IdP");
    const token = /name="csrfToken" value="([^"]+)"/.exec(body)?.[1];
    expect(token).toBeDefined();
    const res = await call(config, "/auth/signin/oidc", { jar, form: { csrfToken: token! } });
    expect(res.status).toBe(302);
    expect(locationOf(res).origin).toBe(new URL(server.issuer).origin);
  });
});
