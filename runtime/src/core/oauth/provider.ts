/**
 * An OAuth/OIDC provider entry, checked once when the config is resolved: its
 * endpoints, parameters, checks and client, in the shape the flow needs. What can
 * be wrong in the config itself (no endpoints, `http:` URLs to a remote host,
 * unknown checks) is an error here; what env may still fill in (client id and
 * secret) is checked when the provider is used, so one unfilled provider does
 * not take sign-in with the others down.
 */
import type * as o from "oauth4webapi";
import type {
  AuthorizationEndpointHandler,
  OAuthCheck,
  OAuthConfig,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
} from "../../providers/types.js";
import type { JWTVerifyGetKey } from "jose";
import type { Account, Awaitable, TokenSet, User } from "../../types.js";
import { InvalidEndpoints, InvalidProvider, type AuthError } from "../errors/errors.js";
import { customFetch } from "../symbols.js";
import { emailFromVerifiedClaim } from "../../providers/profile-fields.js";
import { defaultAccountFields, defaultProfile } from "./profile-defaults.js";

const CLIENT_AUTH_METHODS = new Set(["client_secret_basic", "client_secret_post", "none"]);
const CHECKS = new Set<OAuthCheck>(["pkce", "state", "nonce", "none"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DEFAULT_SCOPE = "openid profile email";
/** Parameters the flow sets itself; neither the config nor a sign-in request may replace them. */
const FLOW_PARAMS = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
]);

export interface OAuthRuntime {
  /** What keeps this provider from signing anyone in yet (an issuer env has not set); thrown when it is used. */
  problem?: AuthError;
  kind: "oauth" | "oidc";
  issuer?: string;
  /** Where the server's metadata is read; absent when every endpoint is explicit. */
  discoveryUrl?: URL;
  /** The discovery document is at a configured `wellKnown` URL rather than under the issuer. */
  wellKnown: boolean;
  endpoints: { authorization?: string; token?: string; userinfo?: string };
  /** Sent with every authorization request (`scope` included). */
  authorizationParams: Record<string, string>;
  /** Extra parameters of the token request. */
  tokenParams: Record<string, string>;
  tokenConform?: TokenEndpointHandler["conform"];
  userinfoRequest?: UserinfoEndpointHandler["request"];
  /** What the config asks for; `pkce` is dropped at sign-in when the server's metadata lacks S256. */
  checks: { state: boolean; pkce: boolean; nonce: boolean };
  clientId?: string;
  clientSecret?: string;
  clientAuth: "client_secret_basic" | "client_secret_post" | "none";
  /** Client metadata for oauth4webapi (`id_token_signed_response_alg`, ...). */
  clientMetadata: Record<string, unknown>;
  /** The profile comes from the ID token (OIDC, or `idToken: true`). */
  profileFromIdToken: boolean;
  /** An OIDC provider with `idToken: false` reads the profile from userinfo after validating the ID token. */
  userinfoAfterIdToken: boolean;
  profile: (profile: any, tokens: TokenSet) => Awaitable<User>;
  /** The address the provider vouches for (its own `verifiedEmail`, else the standard `email_verified` claim). */
  verifiedEmail: (profile: any, tokens: TokenSet) => string | null | undefined;
  account: (tokens: TokenSet) => Partial<Account> | undefined | void;
  callbackProfile?: (params: URLSearchParams) => Record<string, unknown> | undefined;
  allowDangerousEmailAccountLinking: boolean;
  /** The redirect proxy's auth base URL (`.../auth`); absent when no proxy is used. */
  redirectProxyUrl?: string;
  /** Parameters a sign-in request may pass through to the authorization URL. */
  forwardedParams: ReadonlySet<string>;
  formPost: boolean;
  allowInsecureRequests: boolean;
  fetch: typeof fetch;
  /** The provider as configured, for `userinfo.request({ provider })`. */
  config: OAuthConfig<any>;
  /** The server's metadata, fetched once and kept (a failed fetch is retried next time). */
  metadataCache?: Promise<o.AuthorizationServer>;
  /** The server's signing keys, by JWKS URI (kept with the provider, so one config's keys never serve another's). */
  jwks?: { uri: string; set: JWTVerifyGetKey };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** `http:` only for loopback hosts (or by explicit opt-in); anything else must be `https:`. */
function checkUrl(value: unknown, what: string, id: string, allowInsecure: boolean): URL {
  let url: URL;
  try {
    url = new URL(value instanceof URL ? value.href : String(value));
  } catch {
    throw new InvalidEndpoints(`The ${what} of provider "${id}" is ${JSON.stringify(String(value))}; it must be an absolute URL.`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (allowInsecure || LOOPBACK_HOSTS.has(url.hostname))) return url;
  throw new InvalidEndpoints(
    `The ${what} of provider "${id}" is ${url.href}; it must use https (http is allowed for localhost only, or with \`dangerouslyAllowInsecureRequests: true\` during development).`,
  );
}

function endpointOf(
  value: string | AuthorizationEndpointHandler | TokenEndpointHandler | UserinfoEndpointHandler | undefined,
): { url?: string | URL; params?: Record<string, unknown> } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || value instanceof URL) return { url: value };
  if (isPlainObject(value)) return value;
  return undefined;
}

/** Query parameters of a configured URL and its `params`, as strings (`claims` objects as JSON, as Auth.js). */
function paramsOf(endpoint: { url?: string | URL; params?: Record<string, unknown> } | undefined, url: URL | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (url) for (const [key, value] of url.searchParams) out[key] = value;
  for (const [key, value] of Object.entries(endpoint?.params ?? {})) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
  return out;
}

function withoutQuery(url: URL): string {
  const copy = new URL(url.href);
  copy.search = "";
  return copy.href;
}

function resolveChecks(provider: OAuthConfig<any>, kind: "oauth" | "oidc", proxied: boolean): OAuthRuntime["checks"] {
  const { checks, id } = provider;
  if (checks === undefined) return { state: true, pkce: true, nonce: kind === "oidc" };
  if (!Array.isArray(checks) || checks.some((c) => !CHECKS.has(c))) {
    throw new InvalidProvider(`checks of provider "${id}" is ${JSON.stringify(checks)}; use any of "pkce", "state", "nonce", or ["none"].`);
  }
  const set = new Set(checks);
  // The proxy finds the app's origin in the state, so a proxied provider always has one.
  return { state: set.has("state") || proxied, pkce: set.has("pkce"), nonce: set.has("nonce") };
}

function resolveClientAuth(provider: OAuthConfig<any>): OAuthRuntime["clientAuth"] {
  const method = provider.client?.token_endpoint_auth_method ?? "client_secret_basic";
  if (!CLIENT_AUTH_METHODS.has(method)) {
    throw new InvalidProvider(
      `client.token_endpoint_auth_method of provider "${provider.id}" is ${JSON.stringify(method)}; gatehouse supports client_secret_basic, client_secret_post and none.`,
    );
  }
  return method as OAuthRuntime["clientAuth"];
}

function resolveForwarded(provider: OAuthConfig<any>): Set<string> {
  const list = provider.allowedAuthorizationParams ?? [];
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string")) {
    throw new InvalidProvider(`allowedAuthorizationParams of provider "${provider.id}" must be a list of parameter names.`);
  }
  const refused = list.filter((p) => FLOW_PARAMS.has(p));
  if (refused.length > 0) {
    throw new InvalidProvider(
      `allowedAuthorizationParams of provider "${provider.id}" lists ${refused.join(", ")}; the sign-in flow sets ${refused.length > 1 ? "those" : "that"} itself.`,
    );
  }
  return new Set(list);
}

/** Validates an OAuth/OIDC provider entry (already merged with its `options`) into what the flow runs on. */
export function resolveOAuthRuntime(provider: OAuthConfig<any>, configProxyUrl: string | undefined): OAuthRuntime {
  const { id, type: kind } = provider;
  const allowInsecure = provider.dangerouslyAllowInsecureRequests === true;
  const authorization = endpointOf(provider.authorization);
  const token = endpointOf(provider.token);
  const userinfo = endpointOf(provider.userinfo);
  const authorizationUrl = authorization?.url !== undefined ? checkUrl(authorization.url, "authorization URL", id, allowInsecure) : undefined;
  const tokenUrl = token?.url !== undefined ? checkUrl(token.url, "token URL", id, allowInsecure) : undefined;
  const userinfoUrl = userinfo?.url !== undefined ? checkUrl(userinfo.url, "userinfo URL", id, allowInsecure) : undefined;
  const issuer = provider.issuer ? checkUrl(provider.issuer, "issuer", id, allowInsecure) : undefined;
  const wellKnown = provider.wellKnown ? checkUrl(provider.wellKnown, "wellKnown URL", id, allowInsecure) : undefined;

  const explicit = authorizationUrl !== undefined && tokenUrl !== undefined;
  const needsDiscovery = kind === "oidc" || !explicit;
  // Like a client id, an issuer usually comes from env: until it is set, this provider
  // refuses to sign in (saying what to set) and everything else keeps working.
  const problem =
    needsDiscovery && !issuer && !wellKnown
      ? new InvalidEndpoints(
          kind === "oidc"
            ? `The OIDC provider "${id}" needs an \`issuer\`: set AUTH_${envId(id)}_ISSUER in your environment, or pass \`issuer\`.`
            : `The OAuth provider "${id}" needs an \`issuer\` to discover its endpoints (AUTH_${envId(id)}_ISSUER), or both \`authorization\` and \`token\` URLs.`,
        )
      : undefined;
  const idToken = kind === "oidc" || provider.idToken === true;
  if (!idToken && !userinfoUrl && typeof (userinfo as UserinfoEndpointHandler | undefined)?.request !== "function" && !needsDiscovery) {
    throw new InvalidEndpoints(
      `The OAuth provider "${id}" has no way to read the user's profile: set \`userinfo\` (a URL or a \`request\` function), or \`idToken: true\` if its token response carries an ID token.`,
    );
  }

  const proxyBase = provider.redirectProxyUrl ?? configProxyUrl;
  const authorizationParams = paramsOf(authorization, authorizationUrl);
  authorizationParams.scope ??= DEFAULT_SCOPE;
  for (const key of FLOW_PARAMS) delete authorizationParams[key];
  const formPost = authorizationParams.response_mode === "form_post";
  // A proxy cannot forward a cross-site POST with the app's cookies, so form_post providers go direct.
  const redirectProxyUrl = proxyBase && !formPost ? checkUrl(proxyBase, "redirectProxyUrl", id, allowInsecure).href.replace(/\/+$/, "") : undefined;

  const profile = typeof provider.profile === "function" ? provider.profile : defaultProfile;
  const account = typeof provider.account === "function" ? provider.account : defaultAccountFields;
  const providerFetch = provider[customFetch];
  return {
    problem,
    kind,
    // As configured: issuer identifiers are compared as strings, and `new URL()` would add a trailing slash.
    issuer: issuer ? String(provider.issuer) : undefined,
    discoveryUrl: needsDiscovery ? (wellKnown ?? issuer) : undefined,
    wellKnown: wellKnown !== undefined,
    endpoints: {
      authorization: authorizationUrl && withoutQuery(authorizationUrl),
      token: tokenUrl?.href,
      userinfo: userinfoUrl?.href,
    },
    authorizationParams,
    tokenParams: paramsOf(token, undefined),
    tokenConform: (token as TokenEndpointHandler | undefined)?.conform,
    userinfoRequest: (userinfo as UserinfoEndpointHandler | undefined)?.request,
    checks: resolveChecks(provider, kind, redirectProxyUrl !== undefined),
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    clientAuth: resolveClientAuth(provider),
    clientMetadata: { ...(provider.client ?? {}) },
    profileFromIdToken: idToken,
    userinfoAfterIdToken: kind === "oidc" && provider.idToken === false,
    profile,
    verifiedEmail: typeof provider.verifiedEmail === "function" ? provider.verifiedEmail : emailFromVerifiedClaim,
    account,
    callbackProfile: callbackProfileOf(provider),
    allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking === true,
    redirectProxyUrl,
    forwardedParams: resolveForwarded(provider),
    formPost,
    allowInsecureRequests: allowInsecure || [issuer, wellKnown, authorizationUrl, tokenUrl, userinfoUrl].some((u) => u?.protocol === "http:"),
    fetch: withTimeout(typeof providerFetch === "function" ? providerFetch : (...args) => fetch(...args), resolveTimeout(provider)),
    config: provider,
  };
}

const DEFAULT_TIMEOUT_MS = 10_000;

function resolveTimeout(provider: OAuthConfig<any>): number {
  const value = provider.requestTimeout ?? DEFAULT_TIMEOUT_MS;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidProvider(`requestTimeout of provider "${provider.id}" is ${JSON.stringify(value)}; it must be a positive number of milliseconds.`);
  }
  return value;
}

/** A provider that does not answer must not hold the sign-in (and a server connection) forever. */
function withTimeout(fetchFn: typeof fetch, ms: number): typeof fetch {
  return (input, init) => fetchFn(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms) });
}

/** The provider id as it appears in env keys: `microsoft-entra-id` -> `MICROSOFT_ENTRA_ID`. */
export function envId(id: string): string {
  return id.toUpperCase().replace(/-/g, "_");
}

function callbackProfileOf(provider: OAuthConfig<any>): OAuthRuntime["callbackProfile"] {
  // Checked at run time all the same: a config in plain JS may set anything here.
  const fn = provider.callbackProfile;
  return typeof fn === "function" ? fn : undefined;
}
