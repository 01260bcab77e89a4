/**
 * The redirect proxy (`redirectProxyUrl`): preview deployments share one
 * redirect URI registered at the provider. The deployment that starts a sign-in
 * puts its origin in the state (encrypted with the shared secret); the proxy,
 * receiving the callback, sends the browser on to that origin's callback, which
 * finishes the sign-in with its own cookies.
 */
import { decode, encode } from "../../jwt.js";
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { InvalidCheck } from "../errors/errors.js";
import type { ResolvedOAuthProvider } from "../config/providers.js";
import { CHECK_MAX_AGE } from "./checks.js";
import { proxyOriginAllowed } from "./proxy-origins.js";

const SALT = "authjs.redirect-proxy-state";

export async function sealProxyState(ctx: RequestContext, providerId: string, random: string): Promise<string> {
  return encode({
    token: { origin: ctx.origin, provider: providerId, random },
    secret: ctx.config.secrets,
    salt: SALT,
    maxAge: CHECK_MAX_AGE,
  });
}

/**
 * On the proxy: the redirect that forwards this callback to the deployment that
 * started the sign-in, or `undefined` when the callback is for this deployment
 * (or the state is not one of ours, which the normal checks then refuse).
 */
export async function forwardFromProxy(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  params: URLSearchParams,
): Promise<ResponseInternal | undefined> {
  const proxy = provider.oauth.redirectProxyUrl;
  if (!proxy || new URL(proxy).origin !== ctx.origin) return undefined;
  const state = params.get("state");
  if (!state) return undefined;
  let payload: { origin?: unknown; provider?: unknown } | null = null;
  try {
    payload = await decode({ token: state, secret: ctx.config.secrets, salt: SALT });
  } catch {
    return undefined;
  }
  if (!payload || typeof payload.origin !== "string" || payload.provider !== provider.id) return undefined;
  let target: URL;
  try {
    target = new URL(`${ctx.config.basePath}/callback/${provider.id}`, payload.origin);
  } catch {
    return undefined;
  }
  if (target.origin === ctx.origin || (target.protocol !== "https:" && target.protocol !== "http:")) return undefined;
  // The sealed origin is where the sign-in started, which a deployment trusting forwarded headers
  // took from the request: only the app's own list says where a code may be sent.
  if (!proxyOriginAllowed(target.origin, ctx.config.redirectProxyAllowedOrigins)) {
    ctx.config.logger.error(
      new InvalidCheck(
        `The redirect proxy did not forward a ${provider.id} callback: ${target.origin} is not in AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS (redirectProxyAllowedOrigins). If it is one of your deployments, add it there; the callback is handled here instead, and refused.`,
      ),
    );
    return undefined;
  }
  target.search = params.toString();
  ctx.config.logger.debug("redirect proxy forwards the callback", { provider: provider.id, origin: target.origin });
  return { redirect: target.href };
}
