/**
 * `POST signin/<oauth provider>`: the redirect to the provider's authorization
 * endpoint, with the checks' cookies. Only the provider's configured parameters
 * and those it allow-lists reach the URL; the sign-in request cannot set others.
 */
import * as o from "oauth4webapi";
import type { Cookie, ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { AuthError, OAuthSignInError } from "../errors/errors.js";
import type { ResolvedOAuthProvider, ResolvedProvider } from "../config/providers.js";
import { signedInUser } from "../session/session-user.js";
import { sealCheck } from "./checks.js";
import type { OAuthRuntime } from "./provider.js";
import { sealProxyState } from "./proxy.js";
import { clientOf, serverMetadata } from "./server.js";

/** The redirect URI registered at the provider: ours, or the proxy's. */
export function redirectUri(ctx: RequestContext, provider: ResolvedProvider, oauth: OAuthRuntime): string {
  return oauth.redirectProxyUrl ? `${oauth.redirectProxyUrl}/callback/${provider.id}` : `${ctx.authUrl}/callback/${provider.id}`;
}

/** `pkce` unless the server's metadata says it has no S256. */
export function usesPkce(oauth: OAuthRuntime, metadata: o.AuthorizationServer): boolean {
  if (!oauth.checks.pkce) return false;
  const methods = metadata.code_challenge_methods_supported;
  return !Array.isArray(methods) || methods.includes("S256");
}

export async function startOAuthSignIn(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  callbackUrl: string | undefined,
): Promise<ResponseInternal> {
  const { oauth } = provider;
  const { client } = clientOf(oauth, provider.id);
  let metadata: o.AuthorizationServer;
  try {
    metadata = await serverMetadata(oauth, provider.id);
  } catch (error) {
    throw error instanceof AuthError ? error : new OAuthSignInError(`Provider "${provider.id}" could not be reached.`, error as Error);
  }
  if (!metadata.authorization_endpoint) {
    throw new OAuthSignInError(`Provider "${provider.id}" has no authorization endpoint in its metadata; set \`authorization\`.`);
  }
  const url = new URL(metadata.authorization_endpoint);
  const params = url.searchParams;
  for (const [key, value] of Object.entries(oauth.authorizationParams)) params.set(key, value);
  // The sign-in request's own parameters pass only by name, from the provider's allow-list.
  for (const name of oauth.forwardedParams) {
    const value = ctx.query.get(name) ?? (typeof ctx.body[name] === "string" ? (ctx.body[name] as string) : null);
    if (value !== null && value.length <= 1024) params.set(name, value);
  }
  params.set("client_id", client.client_id);
  params.set("response_type", "code");
  params.set("redirect_uri", redirectUri(ctx, provider, oauth));

  const cookies: Cookie[] = [];
  // Only an adapter's user can have a provider account linked; without one, nobody is "signed in" to bind to.
  const startedBy = ctx.config.adapter ? ((await signedInUser(ctx))?.id ?? null) : null;
  if (oauth.checks.state) {
    const random = o.generateRandomState();
    const state = oauth.redirectProxyUrl ? await sealProxyState(ctx, provider.id, random) : random;
    params.set("state", state);
    cookies.push(await sealCheck(ctx, "state", provider.id, state, startedBy));
  }
  if (usesPkce(oauth, metadata)) {
    const verifier = o.generateRandomCodeVerifier();
    params.set("code_challenge", await o.calculatePKCECodeChallenge(verifier));
    params.set("code_challenge_method", "S256");
    cookies.push(await sealCheck(ctx, "pkceCodeVerifier", provider.id, verifier, startedBy));
  }
  if (oauth.checks.nonce) {
    const nonce = o.generateRandomNonce();
    params.set("nonce", nonce);
    cookies.push(await sealCheck(ctx, "nonce", provider.id, nonce, startedBy));
  }
  if (callbackUrl) {
    const { name, options } = ctx.cookieSet.callbackUrl;
    cookies.push({ name, value: callbackUrl, options });
  }
  ctx.config.logger.debug("authorization request", { provider: provider.id, url: `${url.origin}${url.pathname}`, checks: cookies.length });
  return { redirect: url.href, cookies };
}
