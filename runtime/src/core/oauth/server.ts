/**
 * The authorization server as oauth4webapi sees it: its metadata (discovered
 * once per provider, or built from explicit endpoints), the client, how the
 * client authenticates, and the options every request carries.
 */
import * as o from "oauth4webapi";
import { OAuthSignInError, ProviderNotSetUp } from "../errors/errors.js";
import { describeOAuthError } from "./describe-error.js";
import { envId, type OAuthRuntime } from "./provider.js";

export interface RequestOptions {
  [o.customFetch]: typeof fetch;
  [o.allowInsecureRequests]: boolean;
}

export function requestOptions(oauth: OAuthRuntime): RequestOptions {
  return { [o.customFetch]: oauth.fetch, [o.allowInsecureRequests]: oauth.allowInsecureRequests };
}

/** The server's metadata: discovered once and kept, or made from the explicit endpoints. */
export function serverMetadata(oauth: OAuthRuntime, providerId: string): Promise<o.AuthorizationServer> {
  if (!oauth.discoveryUrl) {
    const { authorization, token, userinfo } = oauth.endpoints;
    return Promise.resolve({
      // Servers configured by endpoints rarely send `iss`; when one does, it is checked against this.
      issuer: oauth.issuer ?? new URL(authorization!).origin,
      authorization_endpoint: authorization,
      token_endpoint: token,
      userinfo_endpoint: userinfo,
    });
  }
  oauth.metadataCache ??= discover(oauth, providerId).catch((error: unknown) => {
    oauth.metadataCache = undefined;
    throw error;
  });
  return oauth.metadataCache;
}

async function discover(oauth: OAuthRuntime, providerId: string): Promise<o.AuthorizationServer> {
  const url = oauth.discoveryUrl!;
  let metadata: o.AuthorizationServer;
  try {
    if (!oauth.wellKnown) {
      const issuer = new URL(oauth.issuer!);
      const response = await o.discoveryRequest(issuer, { ...requestOptions(oauth), algorithm: "oidc" });
      metadata = await o.processDiscoveryResponse(issuer, response);
    } else {
      // `wellKnown`: the document lives elsewhere; its issuer must still be the configured one, if any.
      const response = await oauth.fetch(url.href, { headers: { accept: "application/json" }, redirect: "manual" });
      const expected = oauth.issuer ? new URL(oauth.issuer) : new URL(String(((await response.clone().json()) as { issuer?: unknown }).issuer));
      metadata = await o.processDiscoveryResponse(expected, response);
    }
  } catch (error) {
    // Name the document's URL as oauth4webapi builds it from the issuer, not the issuer alone.
    const document = oauth.wellKnown ? url : new URL(`${url.pathname}/.well-known/openid-configuration`.replace("//", "/"), url);
    throw new OAuthSignInError(`Could not read the metadata of provider "${providerId}" from ${document.href}: ${describeOAuthError(error)}.`, error as Error);
  }
  // Explicit endpoints in the config win over discovered ones.
  const { authorization, token, userinfo } = oauth.endpoints;
  return {
    ...metadata,
    ...(authorization ? { authorization_endpoint: authorization } : {}),
    ...(token ? { token_endpoint: token } : {}),
    ...(userinfo ? { userinfo_endpoint: userinfo } : {}),
  };
}

/** The env keys that would give the provider what it lacks to sign anyone in (its client id, and its secret unless public); empty when it has them. */
export function missingCredentials(oauth: OAuthRuntime, providerId: string): string[] {
  const missing: string[] = [];
  if (!oauth.clientId) missing.push(`AUTH_${envId(providerId)}_ID`);
  if (oauth.clientAuth !== "none" && !oauth.clientSecret) missing.push(`AUTH_${envId(providerId)}_SECRET`);
  return missing;
}

/** The client, after checking that env or config gave it an id (and a secret, unless it is public). */
export function clientOf(oauth: OAuthRuntime, providerId: string): { client: o.Client; auth: o.ClientAuth } {
  if (oauth.problem) throw oauth.problem;
  const missing = missingCredentials(oauth, providerId);
  if (!oauth.clientId) {
    throw new ProviderNotSetUp(
      `Provider "${providerId}" has no client id: set ${missing.join(" and ")} in your environment (from the app you registered at the provider), or pass \`clientId\`.`,
      providerId,
      missing,
    );
  }
  if (missing.length > 0) {
    throw new ProviderNotSetUp(
      `Provider "${providerId}" has no client secret: set ${missing[0]} in your environment, or pass \`clientSecret\` (or \`client: { token_endpoint_auth_method: "none" }\` for a public client).`,
      providerId,
      missing,
    );
  }
  const client: o.Client = { ...oauth.clientMetadata, client_id: oauth.clientId };
  const auth =
    oauth.clientAuth === "none"
      ? o.None()
      : oauth.clientAuth === "client_secret_post"
        ? o.ClientSecretPost(oauth.clientSecret!)
        : o.ClientSecretBasic(oauth.clientSecret!);
  return { client, auth };
}
