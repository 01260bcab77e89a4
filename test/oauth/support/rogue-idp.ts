/**
 * A minimal OpenID Provider of our own (node:http + jose) for what a correct server cannot
 * produce: ID tokens with the wrong audience, issuer, nonce or expiry, signed by a key the
 * JWKS does not publish, forged authorization responses (wrong `state`, wrong `iss`), odd
 * token responses. It records every request it receives so tests can assert what the client
 * sent (`code_verifier`, `Authorization: Basic ...`, `client_secret` in the body, ...).
 *
 * What it still enforces, as a real server would: registered clients and redirect URIs,
 * client authentication (one method per request), PKCE S256 (a wrong or missing verifier, or
 * a verifier without a challenge, is `invalid_grant`), single-use codes (`invalid_grant` on
 * reuse), bearer access tokens at userinfo. By default the ID token echoes the
 * authorization request's `nonce`, so the happy path validates.
 *
 * Its authorization endpoint has no login page: it redirects straight to `redirect_uri`.
 *
 * Note for handler tests: oauth4webapi's `processAuthorizationCodeResponse` does not verify
 * the ID token's signature (it trusts the TLS connection to the token endpoint), so an
 * `unknown`/`impostor` signature only fails a client that also calls
 * `validateApplicationLevelSignature` (or verifies with jose).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback-server.js";
import { withOverrides } from "./overrides.js";
import { authenticateClient, checkPkce, OAuthError, type RogueClient } from "./rogue-idp-checks.js";
import { recordRequest, respondToClient, sendJson, sendText, type RecordedRequest } from "./rogue-idp-http.js";
import { createRogueKeys, epochSeconds, type IdTokenClaims, type RogueSigningKey } from "./rogue-idp-tokens.js";

export { basicCredentials, type RogueClient } from "./rogue-idp-checks.js";
export type { RecordedRequest } from "./rogue-idp-http.js";
export { idTokenFaults, type IdTokenClaims, type RogueSigningKey } from "./rogue-idp-tokens.js";

/** What the IdP does; every field can be changed between tests with `configure()`. */
export interface RogueIdpBehavior {
  /** `sub` of the signed-in user; default claims derive from it. Default "rogue-user". */
  subject: string;
  /** Overrides of the ID token claims (`undefined` removes a claim). See `idTokenFaults`. */
  idToken: IdTokenClaims;
  /** Key that signs the ID token. Default "published". */
  signWith: RogueSigningKey;
  /** `false` turns the IdP into a plain OAuth 2 server: no `id_token` in token responses. Default `true`. */
  issuesIdToken: boolean;
  /** Send `iss` in authorization responses and advertise it in discovery (RFC 9207). Default `false`. */
  issParameter: boolean;
  /** Reject authorization requests without a PKCE challenge. Default `false`. */
  requirePkce: boolean;
  /** Overrides of the authorization response parameters, e.g. `{ state: "forged" }`, `{ iss: "http://evil" }`, `{ error: "access_denied", code: undefined }`. */
  authorizationResponse: Record<string, string | undefined>;
  /** Overrides of successful token response members, e.g. `{ token_type: "mac" }`, `{ id_token: "not-a-jwt" }`. */
  tokenResponse: Record<string, unknown>;
  /** Overrides of the userinfo claims, e.g. `{ email: undefined }`, `{ sub: "someone-else" }`. */
  userinfo: Record<string, unknown>;
  /** Overrides of the discovery document, e.g. `{ issuer: "http://elsewhere" }`. */
  discovery: Record<string, unknown>;
}

export interface StartRogueIdpOptions extends Partial<RogueIdpBehavior> {
  /** Known clients. Default: one confidential client `rogue-client` / `rogue-secret`. */
  clients?: RogueClient[];
  /** The JWS algorithm of its keys and ID tokens (advertised in discovery). Default RS256. */
  idTokenAlg?: string;
}

export interface RogueIdp {
  /** Issuer Identifier, `http://127.0.0.1:PORT`. */
  issuer: string;
  url(path: string): string;
  /** Absolute endpoint URLs, for clients configured without discovery. */
  endpoints: { authorization: string; token: string; userinfo: string; jwks: string; discovery: string };
  clients: RogueClient[];
  /** Every request received since start (or the last `reset()`), oldest first. */
  requests: RecordedRequest[];
  /** The recorded requests to one path, e.g. `requestsTo("/token")`. */
  requestsTo(path: string): RecordedRequest[];
  /** Changes the behaviour from now on (shallow merge: an `idToken` given replaces the previous one). */
  configure(changes: Partial<RogueIdpBehavior>): void;
  /** Back to the start options; forgets requests, codes and tokens. Call it in `afterEach`. */
  reset(): void;
  close(): Promise<void>;
}

const PATHS = {
  discovery: "/.well-known/openid-configuration",
  oauthMetadata: "/.well-known/oauth-authorization-server",
  authorization: "/authorize",
  token: "/token",
  userinfo: "/userinfo",
  jwks: "/jwks",
};
const DEFAULT_CLIENTS: RogueClient[] = [{ client_id: "rogue-client", client_secret: "rogue-secret" }];
const TOKEN_LIFETIME = 300;

interface PendingCode {
  clientId: string;
  redirectUri: string | undefined;
  nonce: string | undefined;
  codeChallenge: string | undefined;
  scope: string | undefined;
  used: boolean;
}

/** Starts the rogue IdP on 127.0.0.1 with a random port. Close it in `afterAll`. */
export async function startRogueIdp(options: StartRogueIdpOptions = {}): Promise<RogueIdp> {
  const { clients = DEFAULT_CLIENTS, idTokenAlg, ...initial } = options;
  const defaults: RogueIdpBehavior = {
    subject: "rogue-user",
    idToken: {},
    signWith: "published",
    issuesIdToken: true,
    issParameter: false,
    requirePkce: false,
    authorizationResponse: {},
    tokenResponse: {},
    userinfo: {},
    discovery: {},
  };
  const keys = await createRogueKeys(idTokenAlg);
  const loopback = await listenOnLoopback(() => handle);
  const issuer = loopback.origin;
  const url = (path: string) => new URL(path, issuer).href;

  let behavior: RogueIdpBehavior = { ...defaults, ...initial };
  const requests: RecordedRequest[] = [];
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { subject: string; scope: string | undefined }>();
  const refreshTokens = new Map<string, { clientId: string; scope: string | undefined }>();

  function discoveryDocument() {
    return withOverrides(
      {
        issuer,
        authorization_endpoint: url(PATHS.authorization),
        token_endpoint: url(PATHS.token),
        userinfo_endpoint: url(PATHS.userinfo),
        jwks_uri: url(PATHS.jwks),
        response_types_supported: ["code"],
        response_modes_supported: ["query", "fragment", "form_post"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: [keys.alg],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        scopes_supported: ["openid", "email", "profile"],
        authorization_response_iss_parameter_supported: behavior.issParameter,
      },
      behavior.discovery,
    );
  }

  /** Redirects (or form-posts) the authorization response, as RFC 6749 4.1.2 says. */
  function authorize(query: Record<string, string>, res: ServerResponse) {
    const client = clients.find((candidate) => candidate.client_id === query.client_id);
    const redirectUri = query.redirect_uri ?? client?.redirect_uris?.[0];
    // Errors about the client or the redirect URI must not redirect (RFC 6749 4.1.2.1).
    if (!client) return sendText(res, 400, `unknown client_id ${query.client_id}`);
    if (!redirectUri) return sendText(res, 400, "redirect_uri is required");
    if (client.redirect_uris && !client.redirect_uris.includes(redirectUri)) {
      return sendText(res, 400, `redirect_uri ${redirectUri} is not registered`);
    }

    const params: Record<string, string | undefined> = { state: query.state };
    if (behavior.issParameter) params.iss = issuer;
    const problem = authorizationProblem(query);
    if (problem) {
      params.error = "invalid_request";
      params.error_description = problem;
    } else {
      const code = randomToken();
      codes.set(code, {
        clientId: client.client_id,
        redirectUri: query.redirect_uri,
        nonce: query.nonce,
        codeChallenge: query.code_challenge,
        scope: query.scope,
        used: false,
      });
      params.code = code;
    }
    respondToClient(res, redirectUri, query.response_mode, withOverrides(params, behavior.authorizationResponse));
  }

  function authorizationProblem(query: Record<string, string>): string | undefined {
    if (query.response_type !== "code") return "response_type must be code";
    if (behavior.requirePkce && !query.code_challenge) return "PKCE is required";
    if (query.code_challenge && query.code_challenge_method !== "S256") return "code_challenge_method must be S256";
    return undefined;
  }

  async function token(request: RecordedRequest) {
    const clientId = authenticateClient(request, clients);
    const { body } = request;
    if (body.grant_type === "authorization_code") return exchangeCode(body, clientId);
    if (body.grant_type === "refresh_token") return refresh(body, clientId);
    throw new OAuthError(400, "unsupported_grant_type", `grant_type ${body.grant_type} is not supported`);
  }

  async function exchangeCode(body: Record<string, string>, clientId: string) {
    const pending = codes.get(body.code ?? "");
    if (!pending || pending.used) throw new OAuthError(400, "invalid_grant", "code is invalid or was already used");
    // Burn the code on every attempt, successful or not: a code is single-use.
    pending.used = true;
    if (pending.clientId !== clientId) throw new OAuthError(400, "invalid_grant", "code was issued to another client");
    if (pending.redirectUri !== undefined && pending.redirectUri !== body.redirect_uri) {
      throw new OAuthError(400, "invalid_grant", "redirect_uri does not match the authorization request");
    }
    checkPkce(pending.codeChallenge, body.code_verifier);
    return issueTokens(clientId, pending.scope, pending.nonce);
  }

  async function refresh(body: Record<string, string>, clientId: string) {
    const stored = refreshTokens.get(body.refresh_token ?? "");
    if (!stored || stored.clientId !== clientId) throw new OAuthError(400, "invalid_grant", "refresh_token is invalid");
    // Rotation: the presented refresh token stops working.
    refreshTokens.delete(body.refresh_token ?? "");
    return issueTokens(clientId, stored.scope, undefined);
  }

  async function issueTokens(clientId: string, scope: string | undefined, nonce: string | undefined) {
    const accessToken = randomToken();
    const refreshToken = randomToken();
    accessTokens.set(accessToken, { subject: behavior.subject, scope });
    refreshTokens.set(refreshToken, { clientId, scope });
    const now = epochSeconds();
    const idTokenClaims = withOverrides<IdTokenClaims>(
      {
        iss: issuer,
        sub: behavior.subject,
        aud: clientId,
        iat: now,
        exp: now + TOKEN_LIFETIME,
        ...(nonce === undefined ? {} : { nonce }),
        ...defaultProfile(behavior.subject),
      },
      behavior.idToken,
    );
    return withOverrides<Record<string, unknown>>(
      {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: TOKEN_LIFETIME,
        refresh_token: refreshToken,
        scope,
        id_token: behavior.issuesIdToken ? await keys.sign(idTokenClaims, behavior.signWith) : undefined,
      },
      behavior.tokenResponse,
    );
  }

  function userinfo(request: RecordedRequest) {
    const authorization = String(request.headers.authorization ?? "");
    const grant = accessTokens.get(authorization.replace(/^Bearer /i, ""));
    if (!/^Bearer /i.test(authorization) || !grant) throw new OAuthError(401, "invalid_token", "unknown access token");
    return withOverrides({ sub: grant.subject, ...defaultProfile(grant.subject) }, behavior.userinfo);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    try {
      const request = await recordRequest(req);
      requests.push(request);
      switch (`${request.method} ${request.path}`) {
        case `GET ${PATHS.discovery}`:
        case `GET ${PATHS.oauthMetadata}`:
          return sendJson(res, 200, discoveryDocument());
        case `GET ${PATHS.jwks}`:
          return sendJson(res, 200, keys.jwks);
        case `GET ${PATHS.authorization}`:
          return authorize(request.query, res);
        case `POST ${PATHS.token}`:
          return sendJson(res, 200, await token(request));
        case `GET ${PATHS.userinfo}`:
        case `POST ${PATHS.userinfo}`:
          return sendJson(res, 200, userinfo(request));
        default:
          return sendText(res, 404, `no route for ${request.method} ${request.path}`);
      }
    } catch (error) {
      if (!(error instanceof OAuthError)) return sendText(res, 500, String(error));
      if (error.status === 401) {
        const scheme = req.url?.startsWith(PATHS.userinfo) ? "Bearer" : "Basic";
        res.setHeader("www-authenticate", `${scheme} error="${error.error}"`);
      }
      sendJson(res, error.status, { error: error.error, error_description: error.message });
    }
  }

  return {
    issuer,
    url,
    endpoints: {
      authorization: url(PATHS.authorization),
      token: url(PATHS.token),
      userinfo: url(PATHS.userinfo),
      jwks: url(PATHS.jwks),
      discovery: url(PATHS.discovery),
    },
    clients,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    configure: (changes) => {
      behavior = { ...behavior, ...changes };
    },
    reset: () => {
      behavior = { ...defaults, ...initial };
      requests.length = 0;
      codes.clear();
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: loopback.close,
  };
}

function defaultProfile(subject: string) {
  return { email: `${subject}@example.test`, email_verified: true, name: `Rogue User ${subject}` };
}

function randomToken(): string {
  return randomBytes(24).toString("base64url");
}
