/**
 * Issue 19, item 2: OAuth check cookies planted in someone else's browser. An
 * attacker starts a sign-in in their own browser, logs in at the provider as
 * themselves, and stops before the callback. If they can put their check
 * cookies (state, PKCE verifier, nonce) into a victim's browser (a sibling
 * subdomain can set `__Secure-` cookies with a `Domain`; anyone on the path can
 * on http) and send the victim to their callback URL, the victim's browser
 * finishes the attacker's sign-in. Signed in, the victim would get the
 * attacker's provider account linked to their own user: the attacker can then
 * sign in as the victim. The flow is bound to the session that started it, and
 * on https the check cookies are `__Host-`, which no other host can set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { encode } from "@gatehouse/runtime/jwt";
import { OIDC } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, setCookies } from "../helpers.js";
import { returnToCallback, signInThroughProvider, startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { authorize } from "./support/user-agent.js";

const HTTPS_ORIGIN = "https://localhost";
const CHECKS = ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"];

let server: OidcServer;
/** A server that lets a client go without PKCE, for a provider with `checks: ["none"]`. */
let withoutPkce: OidcServer;

beforeAll(async () => {
  const redirectUris = [ORIGIN, HTTPS_ORIGIN].flatMap((origin) => ["oidc", "oidc-post"].map((id) => `${origin}/auth/callback/${id}`));
  [server, withoutPkce] = await Promise.all([startOidcServer({ redirectUris }), startOidcServer({ redirectUris, pkceRequired: false })]);
});
afterAll(async () => {
  await server?.close();
  await withoutPkce?.close();
});

/** A CSRF token (and its cookie into `jar`) on the https origin, where the cookie is `__Host-`. */
async function httpsCsrfToken(config: AuthConfig, jar: CookieJar): Promise<string> {
  const response = await call(config, "/auth/csrf", { jar, origin: HTTPS_ORIGIN });
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

function setup(overrides: Record<string, unknown> = {}, idp: () => OidcServer = () => server) {
  const logs = captureLogger();
  const adapter = MemoryAdapter();
  const provider = (id: string, client: "basic" | "post") =>
    OIDC({
      id,
      name: id,
      issuer: idp().issuer,
      clientId: idp().clients[client].client_id,
      clientSecret: idp().clients[client].client_secret,
      ...(client === "post" ? { client: { token_endpoint_auth_method: "client_secret_post" } } : {}),
      ...overrides,
    });
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger: logs.logger, adapter, providers: [provider("oidc", "basic"), provider("oidc-post", "post")] };
  return { config, logs, adapter };
}

/** The attacker's half: a sign-in started in their own browser, logged in at the provider as `login`, stopped before the callback. */
async function attackerFlow(config: AuthConfig, attacker: CookieJar, login: string) {
  const { authorizationUrl } = await startSignIn(config, attacker, "oidc-post");
  const result = await authorize(authorizationUrl, { login });
  return { result, checks: CHECKS.filter((name) => attacker.get(name) !== undefined).map((name) => [name, attacker.get(name)!] as const) };
}

/** What the attacker wanted: the provider account linked to the victim's user. */
async function linkedUserOf(adapter: ReturnType<typeof MemoryAdapter>, login: string) {
  return (await adapter.getUserByAccount({ provider: "oidc-post", providerAccountId: login }))?.id ?? null;
}

describe("check cookies planted in a signed-in victim's browser link nothing", () => {
  it("attack: an attacker who never signed in plants their checks; the victim's callback is refused and nothing is linked", async () => {
    const { config, adapter, logs } = setup();
    const victim = new CookieJar();
    await signInThroughProvider(config, victim, "oidc", { login: "vic" });
    const { result, checks } = await attackerFlow(config, new CookieJar(), "mallory");
    expect(checks).toHaveLength(3);
    for (const [name, value] of checks) victim.cookies.set(name, value);

    const callback = await returnToCallback(config, victim, result);
    expect(callback.status).toBe(302);
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "mallory")).toBeNull();
    expect((await fetchSession(config, victim)).body.user.email).toBe("vic@example.test");
    expect(logs.errors.map((e) => e.message).join("\n")).toMatch(/started .*signed out/);
  });

  it("attack: an attacker signed in as themselves plants their checks; refused, nothing linked to either user", async () => {
    const { config, adapter } = setup();
    const victim = new CookieJar();
    await signInThroughProvider(config, victim, "oidc", { login: "vic" });
    const attacker = new CookieJar();
    await signInThroughProvider(config, attacker, "oidc", { login: "mal" });
    const { result, checks } = await attackerFlow(config, attacker, "mallory");
    for (const [name, value] of checks) victim.cookies.set(name, value);

    const callback = await returnToCallback(config, victim, result);
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "mallory")).toBeNull();
    expect((await fetchSession(config, victim)).body.user.email).toBe("vic@example.test");
  });

  it("the same browser and session that started linking still links (the account page's 'connect')", async () => {
    const { config, adapter } = setup();
    const jar = new CookieJar();
    await signInThroughProvider(config, jar, "oidc", { login: "liz" });
    const liz = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "liz" });
    const { callback } = await signInThroughProvider(config, jar, "oidc-post", { login: "liz-elsewhere" });
    expect(locationOf(callback).searchParams.get("error")).toBeNull();
    expect(await linkedUserOf(adapter, "liz-elsewhere")).toBe(liz!.id);
  });

  it("a linking flow that comes back after its session ended is refused, and signs nobody in", async () => {
    const { config, adapter } = setup();
    const jar = new CookieJar();
    await signInThroughProvider(config, jar, "oidc", { login: "max" });
    const { authorizationUrl } = await startSignIn(config, jar, "oidc-post");
    const result = await authorize(authorizationUrl, { login: "max-elsewhere" });
    jar.cookies.delete("authjs.session-token");

    const callback = await returnToCallback(config, jar, result);
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "max-elsewhere")).toBeNull();
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it('a provider with checks ["none"] cannot tie a callback to a session: a signed-in user is refused, nothing linked', async () => {
    const { config, adapter } = setup({ checks: ["none"] }, () => withoutPkce);
    const victim = new CookieJar();
    await signInThroughProvider(config, victim, "oidc", { login: "noa" });
    const { result } = await attackerFlow(config, new CookieJar(), "mallory-none");

    const callback = await returnToCallback(config, victim, result);
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "mallory-none")).toBeNull();
    expect((await fetchSession(config, victim)).body.user.email).toBe("noa@example.test");
  });
});

describe("a check cookie that does not say who started the flow", () => {
  it("(one sealed before this binding existed) is refused: nobody signed in, nothing stored", async () => {
    const { config, adapter, logs } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc-post");
    for (const name of CHECKS) {
      const value = name === "authjs.state" ? authorizationUrl.searchParams.get("state")! : "x".repeat(43);
      jar.cookies.set(name, await encode({ token: { value, provider: "oidc-post" }, secret: SECRET, salt: name, maxAge: 900 }));
    }
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "old-cookie" }));
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "old-cookie")).toBeNull();
    expect((await fetchSession(config, jar)).body).toBeNull();
    expect(logs.errors.map((e) => e.message).join("\n")).toMatch(/does not say who started the sign-in/);
  });
});

describe("on https the check cookies are __Host-", () => {
  it("state, PKCE verifier, nonce: __Host-, Secure, Path=/, no Domain", async () => {
    const { config } = setup();
    const jar = new CookieJar();
    const token = await httpsCsrfToken(config, jar);
    const started = await call(config, "/auth/signin/oidc", { jar, form: { csrfToken: token }, origin: HTTPS_ORIGIN });
    expect(started.status).toBe(302);
    const checks = setCookies(started).filter((c) => CHECKS.some((name) => c.name.endsWith(name)));
    expect(checks.map((c) => c.name).sort()).toEqual(CHECKS.map((name) => `__Host-${name}`).sort());
    for (const cookie of checks) {
      expect(cookie.attributes.secure).toBe(true);
      expect(cookie.attributes.path).toBe("/");
      expect(cookie.attributes.domain).toBeUndefined();
    }
  });

  it("attack: the __Secure- cookies a sibling subdomain can set are not read; the planted callback is refused as missing its checks", async () => {
    const { config, adapter } = setup();
    const attacker = new CookieJar();
    const token = await httpsCsrfToken(config, attacker);
    const started = await call(config, "/auth/signin/oidc-post", { jar: attacker, form: { csrfToken: token }, origin: HTTPS_ORIGIN });
    const result = await authorize(locationOf(started), { login: "mallory-tls" });
    const victim = new CookieJar();
    // A sibling host sets these with `Domain=` the parent; the browser sends them to the app.
    for (const name of CHECKS) victim.cookies.set(`__Secure-${name}`, (attacker.get(`__Host-${name}`) ?? attacker.get(`__Secure-${name}`))!);

    const callbackUrl = new URL(result.callbackUrl!);
    const callback = await call(config, `${callbackUrl.pathname}${callbackUrl.search}`, { jar: victim, origin: HTTPS_ORIGIN });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(await linkedUserOf(adapter, "mallory-tls")).toBeNull();
  });
});
