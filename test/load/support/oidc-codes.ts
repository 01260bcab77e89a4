/**
 * Authorization codes for hundreds of sign-ins without driving oidc-provider's
 * login and consent pages hundreds of times (6-8 requests and HTML parsing per
 * sign-in). Each code is made with oidc-provider's own model API, as its
 * authorization endpoint makes it once the user has logged in and consented
 * (as test/bench/oidc-provider.mjs does): bound to the request's client,
 * redirect_uri, PKCE challenge, nonce and scope. The token endpoint, ID token
 * signing and userinfo the handler then talks to are the real provider's.
 */
import type { OidcServer } from "../../oauth/support/oidc-server.js";
import type { AuthorizeResult } from "../../oauth/support/user-agent.js";

/** The part of oidc-provider's model API used here (test/oauth/support/oidc-provider.d.ts types only the server). */
interface ProviderModels {
  Grant: new (fields: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
  Client: { find(clientId: string): Promise<object | undefined> };
  AuthorizationCode: new (fields: Record<string, unknown>) => { save(): Promise<string> };
}

function modelsOf(server: OidcServer): ProviderModels {
  return server.provider as unknown as ProviderModels;
}

/** One consent (grant) per login, client and scope: what the provider keeps for a returning user. */
const grants = new WeakMap<OidcServer, Map<string, Promise<string>>>();

function grantFor(server: OidcServer, login: string, clientId: string, scope: string): Promise<string> {
  let byKey = grants.get(server);
  if (!byKey) grants.set(server, (byKey = new Map()));
  const key = JSON.stringify([login, clientId, scope]);
  const known = byKey.get(key);
  if (known) return known;
  const grant = new (modelsOf(server).Grant)({ accountId: login, clientId });
  grant.addOIDCScope(scope);
  const grantId = grant.save();
  byKey.set(key, grantId);
  return grantId;
}

/**
 * What the provider would answer to `authorizationUrl` after `login` logged in
 * and consented: the redirect to the client's `redirect_uri` with a fresh code,
 * the request's `state` (if any) and the issuer (RFC 9207), ready for `returnToCallback`.
 */
export async function mintAuthorization(server: OidcServer, authorizationUrl: URL, login: string): Promise<AuthorizeResult> {
  const params = authorizationUrl.searchParams;
  const required = (name: string) => {
    const value = params.get(name);
    if (!value) throw new Error(`the authorization request has no ${name}: ${authorizationUrl.href}`);
    return value;
  };
  const clientId = required("client_id");
  const redirectUri = required("redirect_uri");
  const scope = required("scope");
  const client = await modelsOf(server).Client.find(clientId);
  if (!client) throw new Error(`the provider has no client ${clientId}`);
  const code = new (modelsOf(server).AuthorizationCode)({
    accountId: login,
    authTime: Math.floor(Date.now() / 1000),
    client,
    codeChallenge: required("code_challenge"),
    codeChallengeMethod: required("code_challenge_method"),
    grantId: await grantFor(server, login, clientId, scope),
    nonce: params.get("nonce") ?? undefined,
    redirectUri,
    scope,
  });
  const callback = new URL(redirectUri);
  callback.searchParams.set("code", await code.save());
  const state = params.get("state");
  if (state !== null) callback.searchParams.set("state", state);
  callback.searchParams.set("iss", server.issuer);
  return { callbackUrl: callback.href };
}
