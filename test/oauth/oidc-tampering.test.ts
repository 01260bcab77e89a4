/**
 * Every way a callback can be forged or replayed, against a real server
 * (oidc-provider) and, for ID tokens a correct server never issues, a rogue IdP
 * of our own: none of them signs anyone in, none stores a user, and each lands
 * on the sign-in page with `error=OAuthCallbackError` with the cause logged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { encode } from "@gatehouse/runtime/jwt";
import { OIDC } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, fetchSession, isCleared, locationOf, ORIGIN, SECRET, setCookies } from "../helpers.js";
import { returnToCallback, startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { idTokenFaults, startRogueIdp, type RogueIdp } from "./support/rogue-idp.js";
import { authorize } from "./support/user-agent.js";

let server: OidcServer;
let rogue: RogueIdp;

beforeAll(async () => {
  server = await startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`, `${ORIGIN}/auth/callback/other`] });
  rogue = await startRogueIdp();
});
afterEach(() => rogue.reset());
afterAll(async () => {
  await server?.close();
  await rogue?.close();
});

function setup(issuer: "oidc-provider" | "rogue" = "oidc-provider") {
  const logs = captureLogger();
  const adapter = MemoryAdapter();
  const provider =
    issuer === "rogue"
      ? OIDC({ id: "oidc", name: "Rogue", issuer: rogue.issuer, clientId: "rogue-client", clientSecret: "rogue-secret" })
      : OIDC({
          id: "oidc",
          name: "Test IdP",
          issuer: server.issuer,
          clientId: server.clients.basic.client_id,
          clientSecret: server.clients.basic.client_secret,
        });
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger: logs.logger, adapter, providers: [provider] };
  return { config, logs, adapter };
}

/** The sign-in failed the way every forged callback must fail. */
async function expectRefused(
  config: AuthConfig,
  jar: CookieJar,
  callback: Response,
  logs: ReturnType<typeof captureLogger>,
  adapter: ReturnType<typeof MemoryAdapter>,
  logged: string | RegExp,
) {
  expect(callback.status).toBe(302);
  const location = locationOf(callback);
  expect(location.origin).toBe(ORIGIN);
  expect(location.pathname).toBe("/auth/signin");
  expect(location.searchParams.get("error")).toBe("OAuthCallbackError");
  const session = setCookies(callback).filter((c) => c.name === "authjs.session-token" && !isCleared(c));
  expect(session).toEqual([]);
  expect((await fetchSession(config, jar)).body).toBeNull();
  expect(adapter.getUserByEmail ? await adapter.getUserByEmail("ada@example.test") : null).toBeNull();
  expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "ada" })).toBeNull();
  expect(logs.errors.map((e) => `${e.message} ${(e.cause as { err?: Error })?.err?.message ?? ""}`).join("\n")).toMatch(logged);
}

/** A check cookie sealed with the app's secret, as an attacker who knew it could make (only to test binding). */
async function sealed(name: string, value: string, provider = "oidc"): Promise<string> {
  return encode({ token: { value, provider, startedBy: null }, secret: SECRET, salt: name, maxAge: 900 });
}

describe("tampered or missing checks never sign anyone in", () => {
  it("a changed state parameter", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const forged = new URL(result.callbackUrl!);
    forged.searchParams.set("state", "forged-state");
    const callback = await returnToCallback(config, jar, { callbackUrl: forged.href });
    await expectRefused(config, jar, callback, logs, adapter, /state/);
  });

  it("a callback in a browser that did not start the sign-in (no check cookies): login CSRF", async () => {
    const { config, logs, adapter } = setup();
    const { authorizationUrl } = await startSignIn(config, new CookieJar(), "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const victim = new CookieJar();
    const callback = await returnToCallback(config, victim, result);
    await expectRefused(config, victim, callback, logs, adapter, /cookie is missing/);
  });

  it("a state cookie sealed for another provider", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    jar.cookies.set("authjs.state", await sealed("authjs.state", authorizationUrl.searchParams.get("state")!, "other"));
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "ada" }));
    await expectRefused(config, jar, callback, logs, adapter, /made for provider "other"/);
  });

  it("a garbled state cookie", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    jar.cookies.set("authjs.state", `${jar.get("authjs.state")!.slice(0, -4)}AAAA`);
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "ada" }));
    await expectRefused(config, jar, callback, logs, adapter, /could not be decrypted/);
  });

  it("a wrong PKCE code verifier: the server refuses the code", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    jar.cookies.set("authjs.pkce.code_verifier", await sealed("authjs.pkce.code_verifier", "x".repeat(43)));
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "ada" }));
    await expectRefused(config, jar, callback, logs, adapter, /invalid_grant|code exchange/);
  });

  it("a missing PKCE cookie", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    jar.cookies.delete("authjs.pkce.code_verifier");
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "ada" }));
    await expectRefused(config, jar, callback, logs, adapter, /PKCE code verifier cookie is missing/);
  });

  it("a wrong nonce: the ID token's nonce does not match", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    jar.cookies.set("authjs.nonce", await sealed("authjs.nonce", "not-the-nonce"));
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "ada" }));
    await expectRefused(config, jar, callback, logs, adapter, /nonce/);
  });

  it("a changed iss parameter (RFC 9207 mix-up defence)", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const forged = new URL(result.callbackUrl!);
    expect(forged.searchParams.get("iss")).toBe(server.issuer);
    forged.searchParams.set("iss", "https://evil.example");
    const callback = await returnToCallback(config, jar, { callbackUrl: forged.href });
    await expectRefused(config, jar, callback, logs, adapter, /iss/);
  });

  it("a replayed code, even with the original cookies, is refused by the server", async () => {
    const { config, logs, adapter } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const replayJar = new CookieJar();
    for (const [name, value] of jar.cookies) replayJar.cookies.set(name, value);
    const first = await returnToCallback(config, jar, result);
    expect(first.status).toBe(302);
    expect(locationOf(first).pathname).toBe("/");
    const user = await adapter.getUserByEmail!("ada@example.test");
    expect(user).not.toBeNull();
    await adapter.deleteUser!(user!.id);

    const replay = await returnToCallback(config, replayJar, result);
    await expectRefused(config, replayJar, replay, logs, adapter, /invalid_grant|code exchange/);
  });

  it("the check cookies are cleared on failure too", async () => {
    const { config } = setup();
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const result = await authorize(authorizationUrl, { login: "ada" });
    const forged = new URL(result.callbackUrl!);
    forged.searchParams.set("state", "forged");
    const callback = await call(config, `${forged.pathname}${forged.search}`, { jar });
    const cleared = setCookies(callback).filter(isCleared).map((c) => c.name);
    expect(cleared).toEqual(expect.arrayContaining(["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]));
  });
});

describe("ID tokens a correct server never issues (rogue IdP)", () => {
  it("the rogue IdP's honest token signs in (the baseline the faults below change)", async () => {
    const { config } = setup("rogue");
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "x" }));
    expect(locationOf(callback).pathname).toBe("/");
    expect((await fetchSession(config, jar)).body?.user).toBeDefined();
    // Basic client authentication, and the PKCE verifier went to the token endpoint.
    const [tokenRequest] = rogue.requestsTo("/token");
    expect(tokenRequest!.headers.authorization).toMatch(/^Basic /);
    expect(tokenRequest!.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it.each([
    ["expired", idTokenFaults.expired, /exp|timestamp/],
    ["issued in the future", idTokenFaults.issuedInFuture, /iat|timestamp/],
    ["for another audience", idTokenFaults.wrongAudience, /aud/],
    ["from another issuer", idTokenFaults.wrongIssuer, /iss/],
    ["without the nonce", idTokenFaults.missingNonce, /nonce/],
    ["with another nonce", idTokenFaults.wrongNonce, /nonce/],
    ["without a subject", idTokenFaults.missingSubject, /sub/],
  ])("an ID token %s", async (_, fault, logged) => {
    const { config, logs, adapter } = setup("rogue");
    rogue.configure({ idToken: fault() });
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "x" }));
    await expectRefused(config, jar, callback, logs, adapter, logged);
  });

  it.each([
    ["signed by a key the IdP does not publish", "unknown"],
    ["forged under the published key's kid", "impostor"],
  ] as const)("an ID token %s", async (_, signWith) => {
    const { config, logs, adapter } = setup("rogue");
    rogue.configure({ signWith });
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "x" }));
    await expectRefused(config, jar, callback, logs, adapter, /signature/);
  });

  it("a token response that is not JSON or lacks the access token", async () => {
    const { config, logs, adapter } = setup("rogue");
    rogue.configure({ tokenResponse: { access_token: undefined } });
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: "x" }));
    await expectRefused(config, jar, callback, logs, adapter, /access_token/);
  });
});
