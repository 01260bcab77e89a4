/**
 * The redirect proxy: a preview deployment signs in through the one redirect URI
 * registered at the provider (the proxy's); the proxy forwards the callback to
 * the origin sealed in the state, where the sign-in finishes with that origin's
 * cookies. Also env defaults: AUTH_REDIRECT_PROXY_URL and the provider keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { GitHub, OIDC } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, setCookies } from "../helpers.js";
import { parseAllowedOrigins, proxyOriginAllowed } from "../../runtime/src/core/oauth/proxy-origins.js";
import { startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { authorize } from "./support/user-agent.js";

const PROXY = "http://127.0.0.1:4999";
let server: OidcServer;

beforeAll(async () => {
  server = await startOidcServer({ redirectUris: [`${PROXY}/auth/callback/oidc`, `${ORIGIN}/auth/callback/formpost`] });
});
afterAll(() => server?.close());

/** The same app (same secret, same env) at two origins: a preview deployment, and the stable one that proxies. */
function deployment(env: Record<string, string> = {}) {
  const logs = captureLogger();
  const config: AuthConfig = setEnvDefaults(
    { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_REDIRECT_PROXY_URL: `${PROXY}/auth`, AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: ORIGIN, ...env },
    {
      logger: logs.logger,
      providers: [
        OIDC({ id: "oidc", name: "IdP", issuer: server.issuer, clientId: server.clients.basic.client_id, clientSecret: server.clients.basic.client_secret }),
        OIDC({
          id: "formpost",
          name: "IdP (form_post)",
          issuer: server.issuer,
          clientId: server.clients.basic.client_id,
          clientSecret: server.clients.basic.client_secret,
          authorization: { params: { response_mode: "form_post" } },
        }),
      ],
    },
  );
  return { config, logs };
}

function pathOf(url: URL | string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe("redirectProxyUrl (AUTH_REDIRECT_PROXY_URL)", () => {
  it("a preview deployment signs in through the proxy's redirect URI", async () => {
    const preview = deployment();
    const proxy = deployment();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(preview.config, jar, "oidc", { callbackUrl: "/after" });
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${PROXY}/auth/callback/oidc`);
    // The origin travels in the state, encrypted: a JWE, not readable without the secret.
    const state = authorizationUrl.searchParams.get("state")!;
    expect(state.split(".")).toHaveLength(5);
    expect(state).not.toContain("localhost");

    const result = await authorize(authorizationUrl, { login: "ada" });
    expect(new URL(result.callbackUrl!).origin).toBe(PROXY);
    const forwarded = await call(proxy.config, pathOf(result.callbackUrl!), { origin: PROXY });
    expect(forwarded.status).toBe(302);
    const target = locationOf(forwarded);
    expect(target.origin).toBe(ORIGIN);
    expect(target.pathname).toBe("/auth/callback/oidc");
    expect(target.searchParams.get("code")).toBe(new URL(result.callbackUrl!).searchParams.get("code"));
    // The proxy signs no one in and sets no cookie.
    expect(setCookies(forwarded)).toEqual([]);

    const callback = await call(preview.config, pathOf(target), { jar });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/after`);
    expect((await fetchSession(preview.config, jar)).body.user.email).toBe("ada@example.test");
  });

  it("the proxy does not forward a state it did not seal: the callback is handled (and refused) there", async () => {
    const proxy = deployment();
    const res = await call(proxy.config, "/auth/callback/oidc?code=abc&state=not-ours", { origin: PROXY });
    expect(res.status).toBe(302);
    const location = locationOf(res);
    expect(location.origin).toBe(PROXY);
    expect(location.searchParams.get("error")).toBe("OAuthCallbackError");
  });

  it("a state sealed with another secret is not forwarded either (no open redirect)", async () => {
    const foreign = deployment({ AUTH_SECRET: "another-secret-another-secret-another-secret!!" });
    const { authorizationUrl } = await startSignIn(foreign.config, new CookieJar(), "oidc");
    const proxy = deployment();
    const state = authorizationUrl.searchParams.get("state")!;
    const res = await call(proxy.config, `/auth/callback/oidc?code=abc&state=${encodeURIComponent(state)}`, { origin: PROXY });
    expect(locationOf(res).origin).toBe(PROXY);
    expect(locationOf(res).pathname).toBe("/auth/signin");
  });

  it("attack: a sign-in started with a forged X-Forwarded-Host seals the attacker's origin; the proxy does not hand the victim's code to it", async () => {
    // Mallory starts a sign-in at a deployment that trusts forwarded headers, naming her own host.
    const preview = deployment({ AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: ORIGIN });
    const jar = new CookieJar();
    const token = (await (await call(preview.config, "/auth/csrf", { jar, headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } })).json()).csrfToken as string;
    const started = await call(preview.config, "/auth/signin/oidc", { jar, form: { csrfToken: token }, headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
    const authorizationUrl = locationOf(started);
    // Ada follows Mallory's link and logs in at the provider, which returns to the proxy.
    const result = await authorize(authorizationUrl, { login: "ada" });
    const proxy = deployment({ AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: ORIGIN });
    const res = await call(proxy.config, pathOf(result.callbackUrl!), { origin: PROXY });
    // Not forwarded: handled (and refused: no state cookie here) on the proxy itself; the code never leaves it.
    expect(locationOf(res).origin).toBe(PROXY);
    expect(locationOf(res).searchParams.get("code")).toBeNull();
    expect(proxy.logs.errors.map((e) => e.message).join("\n")).toContain("https://evil.example is not in AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS");
  });

  it("without AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS the proxy forwards to no one, and says what to set", async () => {
    const preview = deployment({ AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: "" });
    const { authorizationUrl } = await startSignIn(preview.config, new CookieJar(), "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const proxy = deployment({ AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: "" });
    const res = await call(proxy.config, pathOf(result.callbackUrl!), { origin: PROXY });
    expect(locationOf(res).origin).toBe(PROXY);
    expect(proxy.logs.errors.map((e) => e.message).join("\n")).toContain(`${ORIGIN} is not in AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS`);
  });

  it.each([
    ["an exact origin", ["http://localhost:3000"], "http://localhost:3000", true],
    ["another port", ["http://localhost:3000"], "http://localhost:3001", false],
    ["a wildcard label", ["https://*.preview.example.com"], "https://pr-42.preview.example.com", true],
    ["the wildcard's parent itself", ["https://*.preview.example.com"], "https://preview.example.com", false],
    ["two labels under a wildcard", ["https://*.preview.example.com"], "https://a.b.preview.example.com", false],
    ["a look-alike suffix", ["https://*.preview.example.com"], "https://evil-preview.example.com", false],
    ["http under an https wildcard", ["https://*.preview.example.com"], "http://pr-42.preview.example.com", false],
  ])("allowed origins, %s", (_name, allowed, origin, expected) => {
    expect(proxyOriginAllowed(origin, parseAllowedOrigins(allowed))).toBe(expected);
  });

  it.each([["evil.example"], ["https://*.com/path"], ["https://a.*.example.com"], ["javascript:alert(1)"], ["https://*"]])("an allowed origin %j that is not an origin or a one-label wildcard: a configuration error naming it", async (entry) => {
    const proxy = deployment({ AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: entry });
    const res = await call(proxy.config, "/auth/session");
    expect(res.status).toBe(500);
    expect(proxy.logs.errors.map((e) => e.message).join("\n")).toContain(`redirectProxyAllowedOrigins has ${JSON.stringify(entry)}`);
  });

  it("form_post providers do not use the proxy (a cross-site POST cannot carry the preview's cookies)", async () => {
    const preview = deployment();
    const { authorizationUrl } = await startSignIn(preview.config, new CookieJar(), "formpost");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/formpost`);
  });
});

describe("provider env keys (setEnvDefaults)", () => {
  async function authorizationParams(config: AuthConfig, id: string) {
    const { authorizationUrl } = await startSignIn(config, new CookieJar(), id);
    return authorizationUrl.searchParams;
  }

  it.each([
    ["a bare factory", () => GitHub],
    ["a factory result", () => GitHub()],
  ])("AUTH_GITHUB_ID and AUTH_GITHUB_SECRET fill %s", async (_, make) => {
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_GITHUB_ID: "gh-id-from-env", AUTH_GITHUB_SECRET: "gh-secret" },
      { logger: captureLogger().logger, providers: [make() as never] },
    );
    const params = await authorizationParams(config, "github");
    expect(params.get("client_id")).toBe("gh-id-from-env");
    expect(params.get("scope")).toBe("read:user user:email");
  });

  it("values in the config win over env, and the user's provider object is not changed", async () => {
    const provider = GitHub({ clientId: "from-config", clientSecret: "s" });
    const before = JSON.stringify(provider);
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_GITHUB_ID: "from-env" },
      { logger: captureLogger().logger, providers: [provider] },
    );
    expect((await authorizationParams(config, "github")).get("client_id")).toBe("from-config");
    expect(JSON.stringify(provider)).toBe(before);
  });

  it("AUTH_<ID>_ISSUER gives an OIDC provider its issuer; a dash in the id is an underscore in the key", async () => {
    const config = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_MY_IDP_ID: server.clients.basic.client_id,
        AUTH_MY_IDP_SECRET: "s",
        AUTH_MY_IDP_ISSUER: server.issuer,
      },
      { logger: captureLogger().logger, providers: [OIDC({ id: "my-idp", name: "Mine" })] },
    );
    const params = await authorizationParams(config, "my-idp");
    expect(params.get("client_id")).toBe(server.clients.basic.client_id);
  });

  it("an OIDC provider with no issuer anywhere fails only its own sign-in, naming the env key; the rest keeps working", async () => {
    const logs = captureLogger();
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_MY_IDP_ID: "id", AUTH_MY_IDP_SECRET: "s" },
      { logger: logs.logger, providers: [OIDC({ id: "my-idp", name: "Mine" })] },
    );
    expect((await call(config, "/auth/session")).status).toBe(200);
    expect((await call(config, "/auth/providers")).status).toBe(200);
    const jar = new CookieJar();
    const token = (await (await call(config, "/auth/csrf", { jar })).json()).csrfToken as string;
    const res = await call(config, "/auth/signin/my-idp", { jar, form: { csrfToken: token } });
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("AUTH_MY_IDP_ISSUER");
    expect(locationOf(res).pathname).toBe("/auth/error");
    expect(locationOf(res).searchParams.get("error")).toBe("Configuration");
  });
});
