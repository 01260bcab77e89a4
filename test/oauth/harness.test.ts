/**
 * Proves the OAuth test harness itself, with oauth4webapi as the client (not our handler):
 * the real provider (`startOidcServer`) driven by the fetch user agent, and the rogue IdP's
 * promises about the tokens it forges. If these fail, handler tests built on the harness
 * would fail for the wrong reason.
 */
import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startOidcServer, type OidcClientMetadata, type OidcServer } from "./support/oidc-server.js";
import { basicCredentials, idTokenFaults, startRogueIdp, type RogueIdp } from "./support/rogue-idp.js";
import { authorize, ProviderPageError, ProviderUserAgent } from "./support/user-agent.js";

const REDIRECT_URI = "http://localhost:3000/auth/callback/oidc";
// oauth4webapi refuses http:// unless told otherwise; the peers listen on http://127.0.0.1.
const insecure = { [oauth.allowInsecureRequests]: true } as const;

describe("startOidcServer + user agent", () => {
  let server: OidcServer;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    server = await startOidcServer({ redirectUris: [REDIRECT_URI], accounts: { nomail: { email: undefined } } });
    const issuer = new URL(server.issuer);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  });
  afterAll(() => server?.close());

  /** Authorization URL with PKCE, state and nonce, plus what the client must remember. */
  function authorizationRequest(client: OidcClientMetadata, extra: Record<string, string> = {}) {
    return pkceAuthorizationRequest(as, client.client_id, "openid email profile", extra);
  }

  function clientAuth(client: OidcClientMetadata): oauth.ClientAuth {
    if (client.token_endpoint_auth_method === "client_secret_post") return oauth.ClientSecretPost(client.client_secret!);
    if (client.token_endpoint_auth_method === "none") return oauth.None();
    return oauth.ClientSecretBasic(client.client_secret!);
  }

  /** Code exchange for an authorization response; returns the processed token response. */
  async function exchange(client: OidcClientMetadata, params: URLSearchParams, codeVerifier: string, nonce: string) {
    const response = await oauth.authorizationCodeGrantRequest(
      as, client, clientAuth(client), params, REDIRECT_URI, codeVerifier, insecure,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
  }

  it("advertises RFC 9207 iss, form_post and S256", () => {
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.response_modes_supported).toEqual(expect.arrayContaining(["query", "form_post"]));
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
  });

  it.each(["basic", "post", "public"] as const)("runs the code flow with the %s client", async (name) => {
    const client = server.clients[name];
    const { url, codeVerifier, state, nonce } = await authorizationRequest(client);
    const { callbackUrl } = await authorize(url, { login: "alice" });
    const callback = new URL(callbackUrl!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("iss")).toBe(server.issuer);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await exchange(client, params, codeVerifier, nonce);
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      iss: server.issuer,
      aud: client.client_id,
      sub: "alice",
      nonce,
      email: "alice@example.test",
      email_verified: true,
      name: "Test User alice",
    });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const userinfo = await oauth.processUserInfoResponse(
      as, client, "alice", await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
    );
    expect(userinfo).toMatchObject({ sub: "alice", email: "alice@example.test" });
    expect(server.serverErrors).toEqual([]);
  });

  it("applies per-login claim overrides (no email)", async () => {
    const client = server.clients.basic;
    const { url, codeVerifier, state, nonce } = await authorizationRequest(client);
    const { callbackUrl } = await authorize(url, { login: "nomail" });
    const tokens = await exchange(client, oauth.validateAuthResponse(as, client, new URL(callbackUrl!), state), codeVerifier, nonce);
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.sub).toBe("nomail");
    expect(claims).not.toHaveProperty("email");
  });

  it("returns the form_post fields instead of posting them", async () => {
    const client = server.clients.basic;
    const { url, codeVerifier, state, nonce } = await authorizationRequest(client, { response_mode: "form_post" });
    const { formPost } = await authorize(url, { login: "alice" });
    expect(formPost!.action).toBe(REDIRECT_URI);
    expect(formPost!.fields).toMatchObject({ state, iss: server.issuer, code: expect.any(String) });

    const params = oauth.validateAuthResponse(as, client, new URLSearchParams(formPost!.fields), state);
    const tokens = await exchange(client, params, codeVerifier, nonce);
    expect(oauth.getValidatedIdTokenClaims(tokens)?.email).toBe("alice@example.test");
  });

  it("answers access_denied when the user aborts at login or declines consent", async () => {
    const client = server.clients.basic;
    for (const options of [{ abort: true }, { consent: false }]) {
      const { url, state } = await authorizationRequest(client);
      const { callbackUrl } = await authorize(url, { login: "alice", ...options });
      const callback = new URL(callbackUrl!);
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(callback.searchParams.get("iss")).toBe(server.issuer);
      expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(oauth.AuthorizationResponseError);
    }
  });

  it("reuses the provider session: a second authorization skips the login form", async () => {
    const client = server.clients.basic;
    const agent = new ProviderUserAgent(server.issuer);
    await agent.authorize((await authorizationRequest(client)).url, { login: "alice" });
    agent.history.length = 0;
    const { url, codeVerifier, state, nonce } = await authorizationRequest(client);
    const { callbackUrl } = await agent.authorize(url, { login: "ignored" });
    expect(agent.history).toHaveLength(1);
    const tokens = await exchange(client, oauth.validateAuthResponse(as, client, new URL(callbackUrl!), state), codeVerifier, nonce);
    expect(oauth.getValidatedIdTokenClaims(tokens)?.sub).toBe("alice");
  });

  it("refreshes tokens; public clients get a rotated refresh token", async () => {
    for (const name of ["basic", "public"] as const) {
      const client = server.clients[name];
      const { url, codeVerifier, state, nonce } = await authorizationRequest(client);
      const { callbackUrl } = await authorize(url, { login: "alice" });
      const tokens = await exchange(client, oauth.validateAuthResponse(as, client, new URL(callbackUrl!), state), codeVerifier, nonce);

      const refresh = () => oauth.refreshTokenGrantRequest(as, client, clientAuth(client), tokens.refresh_token!, insecure);
      const refreshed = await oauth.processRefreshTokenResponse(as, client, await refresh());
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe("alice");
      if (name === "public") {
        expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
        await expect(oauth.processRefreshTokenResponse(as, client, await refresh())).rejects.toMatchObject({ error: "invalid_grant" });
        // Reuse detection: replaying the rotated token revoked the whole grant, new token included.
        const refreshAgain = await oauth.refreshTokenGrantRequest(as, client, clientAuth(client), refreshed.refresh_token!, insecure);
        await expect(oauth.processRefreshTokenResponse(as, client, refreshAgain)).rejects.toMatchObject({ error: "invalid_grant" });
      } else {
        // Confidential clients keep their refresh token until 70% of its lifetime has passed.
        expect(refreshed.refresh_token).toBe(tokens.refresh_token);
        await expect(oauth.processRefreshTokenResponse(as, client, await refresh())).resolves.toHaveProperty("access_token");
      }
    }
  });

  it("rejects a replayed authorization code", async () => {
    const client = server.clients.basic;
    const { url, codeVerifier, state, nonce } = await authorizationRequest(client);
    const { callbackUrl } = await authorize(url, { login: "alice" });
    const params = oauth.validateAuthResponse(as, client, new URL(callbackUrl!), state);
    await exchange(client, params, codeVerifier, nonce);
    await expect(exchange(client, params, codeVerifier, nonce)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("requires PKCE by default", async () => {
    const client = server.clients.basic;
    const { url } = await authorizationRequest(client);
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const { callbackUrl } = await authorize(url, { login: "alice" });
    expect(new URL(callbackUrl!).searchParams.get("error")).toBe("invalid_request");
  });

  it("plain OAuth 2 (no openid scope): code flow works, no ID token, userinfo refused", async () => {
    const client = server.clients.basic;
    const { url, codeVerifier, state } = await authorizationRequest(client, { scope: "email profile" });
    const withNonce = new URL(url);
    expect(new URL((await authorize(withNonce, { login: "alice" })).callbackUrl!).searchParams.get("error")).toBe("invalid_request");
    url.searchParams.delete("nonce");
    const { callbackUrl } = await authorize(url, { login: "alice" });
    const params = oauth.validateAuthResponse(as, client, new URL(callbackUrl!), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth(client), params, REDIRECT_URI, codeVerifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.id_token).toBeUndefined();

    const userinfo = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(userinfo.status).toBe(403);
    expect(userinfo.headers.get("www-authenticate")).toContain("insufficient_scope");
  });

  it("reports the provider's error page when it cannot redirect (unregistered redirect_uri)", async () => {
    const { url } = await authorizationRequest(server.clients.basic, { redirect_uri: "http://localhost:3000/elsewhere" });
    await expect(authorize(url, { login: "alice" })).rejects.toThrow(ProviderPageError);
    await expect(authorize(url, { login: "alice" })).rejects.toThrow(/redirect_uri/);
  });

  it("refuses to send a request to any origin other than the provider's", async () => {
    const agent = new ProviderUserAgent(server.issuer);
    await expect(agent.authorize("http://localhost:3000/auth/signin")).rejects.toThrow(/only talks to the provider/);
    expect(agent.history).toEqual([]);
  });

  describe("with PKCE optional and refresh token rotation forced", () => {
    let relaxed: OidcServer;
    beforeAll(async () => {
      relaxed = await startOidcServer({ redirectUris: [REDIRECT_URI], pkceRequired: false, rotateRefreshTokens: true });
    });
    afterAll(() => relaxed?.close());

    it("runs the code flow without PKCE and rotates a confidential client's refresh token", async () => {
      const relaxedAs = await oauth.processDiscoveryResponse(new URL(relaxed.issuer), await oauth.discoveryRequest(new URL(relaxed.issuer), insecure));
      const client = relaxed.clients.basic;
      const state = oauth.generateRandomState();
      const url = new URL(relaxedAs.authorization_endpoint!);
      url.search = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT_URI, response_type: "code", scope: "openid email", state }).toString();
      const { callbackUrl } = await authorize(url, { login: "bob" });
      const params = oauth.validateAuthResponse(relaxedAs, client, new URL(callbackUrl!), state);
      const auth = clientAuth(client);
      const response = await oauth.authorizationCodeGrantRequest(relaxedAs, client, auth, params, REDIRECT_URI, oauth.nopkce, insecure);
      const tokens = await oauth.processAuthorizationCodeResponse(relaxedAs, client, response, { expectedNonce: oauth.expectNoNonce });
      expect(oauth.getValidatedIdTokenClaims(tokens)?.email).toBe("bob@example.test");

      const refreshed = await oauth.processRefreshTokenResponse(
        relaxedAs, client, await oauth.refreshTokenGrantRequest(relaxedAs, client, auth, tokens.refresh_token!, insecure),
      );
      expect(refreshed.refresh_token).toEqual(expect.any(String));
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    });
  });
});

describe("rogue IdP", () => {
  let idp: RogueIdp;
  let as: oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: "rogue-client" };
  const basicAuth = oauth.ClientSecretBasic("rogue-secret");

  beforeAll(async () => {
    idp = await startRogueIdp({ clients: [{ client_id: "rogue-client", client_secret: "rogue-secret", redirect_uris: [REDIRECT_URI] }] });
    as = await oauth.processDiscoveryResponse(new URL(idp.issuer), await oauth.discoveryRequest(new URL(idp.issuer), insecure));
  });
  afterEach(() => idp.reset());
  afterAll(() => idp?.close());

  /** Runs the authorization request (no login page) and returns what the client must remember. */
  async function authorizeAtRogue(extra: Record<string, string> = {}) {
    const { url, codeVerifier, state, nonce } = await pkceAuthorizationRequest(as, client.client_id, "openid email", extra);
    const { callbackUrl } = await authorize(url);
    return { callback: new URL(callbackUrl!), codeVerifier, state, nonce };
  }

  /** Authorization + code exchange; returns the raw token endpoint response. */
  async function tokenResponse(clientAuth = basicAuth) {
    const { callback, codeVerifier, state, nonce } = await authorizeAtRogue();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, codeVerifier, insecure);
    return { response, params, codeVerifier, nonce };
  }

  async function idTokenClaims() {
    const { response } = await tokenResponse();
    const body = (await response.json()) as { id_token: string };
    return decodeJwt(body.id_token);
  }

  it("runs the happy path: the ID token echoes the nonce and validates", async () => {
    const { response, codeVerifier, nonce } = await tokenResponse();
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      iss: idp.issuer, aud: "rogue-client", sub: "rogue-user", nonce, email: "rogue-user@example.test",
    });
    await oauth.validateApplicationLevelSignature(as, response, insecure);

    const [tokenRequest] = idp.requestsTo("/token");
    expect(basicCredentials(tokenRequest!)).toEqual({ clientId: "rogue-client", clientSecret: "rogue-secret" });
    expect(tokenRequest!.body).toMatchObject({ grant_type: "authorization_code", code_verifier: codeVerifier, redirect_uri: REDIRECT_URI });
    expect(tokenRequest!.body).not.toHaveProperty("client_secret");

    const userinfo = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(await oauth.processUserInfoResponse(as, client, "rogue-user", userinfo)).toMatchObject({ email: "rogue-user@example.test" });
  });

  it("records client_secret_post credentials in the body", async () => {
    const { response } = await tokenResponse(oauth.ClientSecretPost("rogue-secret"));
    expect(response.status).toBe(200);
    const [tokenRequest] = idp.requestsTo("/token");
    expect(tokenRequest!.headers.authorization).toBeUndefined();
    expect(tokenRequest!.body).toMatchObject({ client_id: "rogue-client", client_secret: "rogue-secret" });
  });

  it("rejects a wrong client secret, a wrong PKCE verifier and a reused code", async () => {
    expect((await tokenResponse(oauth.ClientSecretBasic("wrong"))).response.status).toBe(401);

    const { callback, state } = await authorizeAtRogue();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const wrongVerifier = await oauth.authorizationCodeGrantRequest(as, client, basicAuth, params, REDIRECT_URI, oauth.generateRandomCodeVerifier(), insecure);
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" });

    const { response, params: usedParams, codeVerifier } = await tokenResponse();
    expect(response.status).toBe(200);
    const replay = await oauth.authorizationCodeGrantRequest(as, client, basicAuth, usedParams, REDIRECT_URI, codeVerifier, insecure);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("produces the faulty ID tokens it promises", async () => {
    const now = Math.floor(Date.now() / 1000);
    idp.configure({ idToken: idTokenFaults.expired() });
    expect((await idTokenClaims()).exp).toBeLessThan(now);
    idp.configure({ idToken: idTokenFaults.issuedInFuture() });
    expect((await idTokenClaims()).iat).toBeGreaterThan(now + 3000);
    idp.configure({ idToken: idTokenFaults.notYetValid() });
    expect((await idTokenClaims()).nbf).toBeGreaterThan(now + 3000);
    idp.configure({ idToken: idTokenFaults.wrongAudience() });
    expect((await idTokenClaims()).aud).toBe("another-client");
    idp.configure({ idToken: idTokenFaults.missingNonce() });
    expect(await idTokenClaims()).not.toHaveProperty("nonce");
    idp.configure({ idToken: { sub: "mallory", email: "mallory@example.test", iss: "http://127.0.0.1:9" } });
    expect(await idTokenClaims()).toMatchObject({ sub: "mallory", email: "mallory@example.test", iss: "http://127.0.0.1:9" });
  });

  it.each(["expired", "notYetValid", "wrongAudience", "wrongIssuer", "missingNonce", "wrongNonce", "missingSubject"] as const)(
    "makes oauth4webapi reject the %s ID token",
    async (fault) => {
      idp.configure({ idToken: idTokenFaults[fault]() });
      const { response, nonce } = await tokenResponse();
      await expect(oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce })).rejects.toThrow();
    },
  );

  it("documents a gap: oauth4webapi 3.8 accepts an ID token issued in the future", async () => {
    idp.configure({ idToken: idTokenFaults.issuedInFuture() });
    const { response, nonce } = await tokenResponse();
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce });
    expect(oauth.getValidatedIdTokenClaims(tokens)!.iat).toBeGreaterThan(Date.now() / 1000);
  });

  it("signs with an unknown or impostor key on request", async () => {
    const jwks = createLocalJWKSet((await (await fetch(idp.endpoints.jwks)).json()) as JSONWebKeySet);
    const verifyIdToken = async () => {
      const { response } = await tokenResponse();
      return jwtVerify(((await response.json()) as { id_token: string }).id_token, jwks);
    };
    await expect(verifyIdToken()).resolves.toHaveProperty("payload.sub", "rogue-user");
    idp.configure({ signWith: "unknown" });
    await expect(verifyIdToken()).rejects.toThrow(errors.JWKSNoMatchingKey);
    idp.configure({ signWith: "impostor" });
    await expect(verifyIdToken()).rejects.toThrow(errors.JWSSignatureVerificationFailed);

    // oauth4webapi does not check ID token signatures from the token endpoint on its own
    // (it relies on TLS); only validateApplicationLevelSignature() catches the forged key.
    idp.configure({ signWith: "unknown" });
    const { response, nonce } = await tokenResponse();
    await expect(oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce })).resolves.toHaveProperty("id_token");
    await expect(oauth.validateApplicationLevelSignature(as, response, insecure)).rejects.toThrow();
  });

  it("sends iss (RFC 9207) only when enabled, and forges authorization responses", async () => {
    expect((await authorizeAtRogue()).callback.searchParams.has("iss")).toBe(false);
    idp.configure({ issParameter: true });
    expect((await authorizeAtRogue()).callback.searchParams.get("iss")).toBe(idp.issuer);
    expect(await (await fetch(idp.endpoints.discovery)).json()).toHaveProperty("authorization_response_iss_parameter_supported", true);

    idp.configure({ authorizationResponse: { state: "forged" } });
    const { callback, state } = await authorizeAtRogue();
    expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow();
  });

  it("answers form_post and acts as a plain OAuth 2 server without ID tokens", async () => {
    const state = oauth.generateRandomState();
    const url = new URL(idp.endpoints.authorization);
    url.search = new URLSearchParams({ client_id: "rogue-client", redirect_uri: REDIRECT_URI, response_type: "code", response_mode: "form_post", state }).toString();
    const { formPost } = await authorize(url);
    expect(formPost).toMatchObject({ action: REDIRECT_URI, fields: { state, code: expect.any(String) } });

    idp.configure({ issuesIdToken: false });
    const { response } = await tokenResponse();
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.id_token).toBeUndefined();
    const userinfo = await fetch(idp.endpoints.userinfo, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(await userinfo.json()).toMatchObject({ sub: "rogue-user", email: "rogue-user@example.test" });
  });
});

/** An authorization URL at `as` with PKCE (S256), state and nonce, plus what the client must remember. */
async function pkceAuthorizationRequest(
  as: oauth.AuthorizationServer,
  clientId: string,
  scope: string,
  extra: Record<string, string> = {},
) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  return { url, codeVerifier, state, nonce };
}
