/**
 * A real OpenID Provider (`oidc-provider` 9) on http://127.0.0.1:<random port>, for tests
 * that run the OAuth 2 / OIDC sign-in flow end to end without a browser (drive its login and
 * consent pages with `user-agent.ts`).
 *
 * Behaviour of oidc-provider 9.13.3 as configured here (checked by test/oauth/harness.test.ts
 * unless marked "from its source"):
 * - Plain OAuth 2 (no `openid` scope) is accepted: the code flow completes and the token
 *   response has an access token but no `id_token`. That access token can NOT call the
 *   userinfo endpoint (`/me`): oidc-provider answers 403 `insufficient_scope` ("access token
 *   missing openid scope"). `nonce` without `openid` is rejected (`invalid_request`).
 *   Closest setup for a plain OAuth 2 client against this server: configure explicit
 *   endpoints (authorization `url("/auth")`, token `url("/token")`, userinfo `url("/me")`),
 *   no discovery, no ID token handling, but request `scope=openid ...` so `/me` answers; the
 *   client ignores the `id_token` it receives. For a server that issues no ID token at all
 *   and serves userinfo to any of its access tokens, use `rogue-idp.ts` with
 *   `issuesIdToken: false`.
 * - RFC 9207: `iss` is sent in every authorization response by default (query and form_post,
 *   success and error; all four from its source, three checked), and discovery advertises
 *   `authorization_response_iss_parameter_supported: true`.
 * - Refresh tokens: issued for every code grant here (`issueRefreshToken`), no
 *   `offline_access`/`prompt=consent` needed. Rotation by default (oidc-provider's
 *   `rotateRefreshToken`): public clients (`token_endpoint_auth_method: "none"`) get a new
 *   refresh token on every refresh; replaying the old one is `invalid_grant` and revokes the
 *   whole grant (the new refresh token stops working too). Confidential clients keep the same
 *   refresh token until 70% of its lifetime has passed (from its source).
 *   `rotateRefreshTokens: true | false` forces either behaviour for all clients.
 * - `response_modes_supported` is `["form_post", "fragment", "query"]`; PKCE supports S256
 *   only.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import { Provider } from "oidc-provider";
import { listenOnLoopback } from "./loopback-server.js";
import { withOverrides } from "./overrides.js";

/** Claims an account releases (filtered by scope: `email` -> email*, `profile` -> name, picture). */
export interface AccountClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  [claim: string]: unknown;
}

/** A JSON value, so client metadata stays assignable to oauth4webapi's `Client`. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Client registration metadata as oidc-provider takes it (RFC 7591 names); also usable as an oauth4webapi `Client`. */
export interface OidcClientMetadata {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none" | (string & {});
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  [metadata: string]: JsonValue | undefined;
}

/** The clients every server registers unless `clients` replaces them by name. */
export interface DefaultOidcClients {
  /** Confidential, authenticates with HTTP Basic (`client_secret_basic`). */
  basic: OidcClientMetadata & { client_secret: string };
  /** Confidential, sends `client_id` + `client_secret` in the token request body. */
  post: OidcClientMetadata & { client_secret: string };
  /** Public (`none`): PKCE only, no secret. */
  public: OidcClientMetadata;
}

export interface StartOidcServerOptions {
  /** Redirect URIs given to the default clients. Default: `["http://localhost:3000/auth/callback/oidc"]`. */
  redirectUris?: string[];
  /** Clients by name, merged over the defaults with the same name (or added). */
  clients?: Record<string, Partial<OidcClientMetadata>>;
  /** Per-login claim overrides; a key set to `undefined` removes that claim (e.g. `{ email: undefined }`). */
  accounts?: Record<string, Partial<AccountClaims>>;
  /** Whether every authorization request must carry a PKCE challenge. Default `true`. */
  pkceRequired?: boolean;
  /** Forces refresh token rotation on (`true`) or off (`false`); unset keeps oidc-provider's policy. */
  rotateRefreshTokens?: boolean;
  /** Access token lifetime in seconds. Default 60. */
  accessTokenTtl?: number;
  /** ID token lifetime in seconds. Default 60. */
  idTokenTtl?: number;
  /** Refresh token lifetime in seconds. Default 3600. */
  refreshTokenTtl?: number;
}

/** A running provider. */
export interface OidcServer {
  /** Issuer Identifier, `http://127.0.0.1:PORT` (no trailing slash). */
  issuer: string;
  /** Absolute URL of a provider path, e.g. `url("/me")`. Routes: /auth, /token, /me, /jwks, /.well-known/openid-configuration. */
  url(path: string): string;
  /** Registered clients by name. */
  clients: DefaultOidcClients & Record<string, OidcClientMetadata>;
  /** Errors the provider raised while handling requests (its 500s), to assert on or print. */
  serverErrors: unknown[];
  /** The oidc-provider instance, for what this harness does not cover. */
  provider: Provider;
  close(): Promise<void>;
}

const DEFAULT_REDIRECT_URIS = ["http://localhost:3000/auth/callback/oidc"];

/** Starts oidc-provider on 127.0.0.1 with a random port. Close it in `afterAll`. */
export async function startOidcServer(options: StartOidcServerOptions = {}): Promise<OidcServer> {
  const clients = buildClients(options);
  const jwks = { keys: [await generateSigningJwk()] };
  let provider: Provider | undefined;
  const loopback = await listenOnLoopback(() => {
    if (!provider) throw new Error("oidc-provider is not ready yet");
    return provider.callback();
  });

  provider = new Provider(loopback.origin, {
    clients: Object.values(clients),
    jwks,
    cookies: { keys: [randomBytes(32).toString("hex")] },
    findAccount: (_ctx: unknown, sub: string) => findAccount(sub, options.accounts),
    // Without this the ID token carries only `sub` whenever an access token is issued too.
    conformIdTokenClaims: false,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "picture"],
    },
    pkce: { required: () => options.pkceRequired ?? true },
    features: {
      devInteractions: { enabled: true },
      userinfo: { enabled: true },
      revocation: { enabled: true },
    },
    // The default needs `offline_access` + `prompt=consent`; tests want refresh tokens from a plain code flow.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    ...(options.rotateRefreshTokens === undefined ? {} : { rotateRefreshToken: () => options.rotateRefreshTokens }),
    ttl: {
      AccessToken: options.accessTokenTtl ?? 60,
      IdToken: options.idTokenTtl ?? 60,
      RefreshToken: options.refreshTokenTtl ?? 3600,
      AuthorizationCode: 60,
      // Set so oidc-provider does not print a notice per default TTL it falls back to.
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
  });

  const serverErrors: unknown[] = [];
  provider.on("server_error", (_ctx, error) => serverErrors.push(error));

  return {
    issuer: loopback.origin,
    url: (path) => new URL(path, loopback.origin).href,
    clients,
    serverErrors,
    provider,
    close: loopback.close,
  };
}

function buildClients(options: StartOidcServerOptions): OidcServer["clients"] {
  const redirect_uris = options.redirectUris ?? DEFAULT_REDIRECT_URIS;
  const common = { redirect_uris, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  const defaults: DefaultOidcClients = {
    basic: {
      ...common,
      client_id: "gatehouse-basic",
      client_secret: "gatehouse-basic-secret",
      token_endpoint_auth_method: "client_secret_basic",
    },
    post: {
      ...common,
      client_id: "gatehouse-post",
      client_secret: "gatehouse-post-secret",
      token_endpoint_auth_method: "client_secret_post",
    },
    public: { ...common, client_id: "gatehouse-public", token_endpoint_auth_method: "none" },
  };
  const merged: Record<string, OidcClientMetadata> = { ...defaults };
  for (const [name, overrides] of Object.entries(options.clients ?? {})) {
    const base = merged[name] ?? { ...common, client_id: `gatehouse-${name}`, token_endpoint_auth_method: "client_secret_basic" };
    merged[name] = { ...base, ...overrides } as OidcClientMetadata;
  }
  return merged as OidcServer["clients"];
}

/** Any login is an account: sub = login, claims derived from it, then the test's overrides. */
function findAccount(login: string, overrides: StartOidcServerOptions["accounts"] = {}) {
  const claims = withOverrides(
    {
      sub: login,
      email: `${login}@example.test`,
      email_verified: true,
      name: `Test User ${login}`,
      picture: `https://example.test/avatars/${encodeURIComponent(login)}.png`,
    },
    overrides[login],
  );
  return { accountId: login, claims: async () => claims };
}

async function generateSigningJwk() {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `oidc-server-${randomBytes(4).toString("hex")}`, alg: "RS256", use: "sig" };
}
