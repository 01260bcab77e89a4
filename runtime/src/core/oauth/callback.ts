/**
 * `GET|POST callback/<oauth provider>`: the return from the provider. A
 * `form_post` response (a cross-site POST, which carries no SameSite=Lax cookies)
 * is turned into a GET of the same URL first; the redirect proxy forwards
 * callbacks meant for another deployment; then checks, code exchange, profile,
 * user and session. The check cookies are cleared whatever the outcome.
 */
import * as o from "oauth4webapi";
import type { ResponseInternal } from "../../types.js";
import { applyOAuthPlan, planOAuthUser } from "../identity/account-linking.js";
import type { RequestContext } from "../context.js";
import { errorResult } from "../errors/error-response.js";
import { AuthError, OAuthCallbackError } from "../errors/errors.js";
import type { ResolvedOAuthProvider } from "../config/providers.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import { redirectUri, usesPkce } from "./authorize.js";
import { signedInUser } from "../session/session-user.js";
import { assertStartedBy, clearChecks, openCheck, type CheckName, type OpenedCheck } from "./checks.js";
import { exchangeCode, readAuthorizationResponse, type CheckValues } from "./exchange.js";
import { mapIdentity } from "./profile.js";
import { forwardFromProxy } from "./proxy.js";
import { clientOf, serverMetadata } from "./server.js";

/** Authorization response parameters (RFC 6749, RFC 9207, OIDC) and Apple's `user`; nothing else is carried over. */
const RESPONSE_PARAMS = ["code", "state", "iss", "error", "error_description", "error_uri", "session_state", "user"];

/** A `form_post` callback becomes a GET of the same URL, which the browser sends with its cookies. */
function reboundFormPost(ctx: RequestContext): ResponseInternal {
  const url = new URL(`${ctx.authUrl}/callback/${ctx.route.providerId}`);
  for (const name of RESPONSE_PARAMS) {
    const value = ctx.body[name];
    if (typeof value === "string") url.searchParams.set(name, value);
  }
  return { status: 303, redirect: url.href };
}

export async function oauthCallback(ctx: RequestContext, provider: ResolvedOAuthProvider): Promise<ResponseInternal> {
  if (ctx.route.method === "POST") return reboundFormPost(ctx);
  const forwarded = await forwardFromProxy(ctx, provider, ctx.query);
  if (forwarded) return forwarded;
  const cleared = clearChecks(ctx);
  try {
    const result = await finishSignIn(ctx, provider);
    return { ...result, cookies: [...cleared, ...(result.cookies ?? [])] };
  } catch (error) {
    const result = errorResult(ctx, error);
    return { ...result, cookies: [...cleared, ...(result.cookies ?? [])] };
  }
}

/** The values sealed at sign-in, for exactly the checks the sign-in used, and the cookies they came in. */
async function openChecks(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  metadata: o.AuthorizationServer,
): Promise<{ values: CheckValues; opened: OpenedCheck[] }> {
  const { checks } = provider.oauth;
  const opened: OpenedCheck[] = [];
  const open = async (name: CheckName) => {
    const check = await openCheck(ctx, name, provider.id);
    opened.push(check);
    return check.value;
  };
  const values = {
    state: checks.state ? await open("state") : undefined,
    codeVerifier: usesPkce(provider.oauth, metadata) ? await open("pkceCodeVerifier") : undefined,
    nonce: checks.nonce ? await open("nonce") : undefined,
  };
  return { values, opened };
}

async function finishSignIn(ctx: RequestContext, provider: ResolvedOAuthProvider): Promise<ResponseInternal> {
  const { oauth } = provider;
  const { client, auth } = clientOf(oauth, provider.id);
  let metadata: o.AuthorizationServer;
  try {
    metadata = await serverMetadata(oauth, provider.id);
  } catch (error) {
    throw error instanceof AuthError ? error : new OAuthCallbackError(`Provider "${provider.id}" could not be reached.`, error as Error);
  }
  const { values: checks, opened } = await openChecks(ctx, provider, metadata);
  // Before the code is spent: the session that started the flow must be the one finishing it.
  const current = ctx.config.adapter ? await signedInUser(ctx) : null;
  assertStartedBy(opened, current?.id ?? null, provider.id);
  const params = readAuthorizationResponse(metadata, client, ctx.query, checks.state, provider.id);
  const exchanged = await exchangeCode(oauth, metadata, client, auth, params, redirectUri(ctx, provider, oauth), checks, provider.id);
  const identity = await mapIdentity(oauth, metadata, client, exchanged, ctx.query, provider.id);
  ctx.config.logger.debug("OAuth profile read", { provider: provider.id, providerAccountId: identity.account.providerAccountId });

  const plan = await planOAuthUser(ctx, identity, current, oauth.allowDangerousEmailAccountLinking);
  const asked = plan.kind === "existing" ? plan.user : identity.user;
  const redirect = await askSignInCallback(ctx, { user: asked, account: identity.account, profile: identity.profile });
  if (redirect !== undefined) return { redirect };
  const { user, isNewUser } = await applyOAuthPlan(ctx, plan, identity.account, identity.user);
  const account = { ...identity.account, userId: user.id };
  return completeSignIn(ctx, { user, account, profile: identity.profile, isNewUser, callbackUrl: ctx.cookies[ctx.cookieSet.callbackUrl.name] });
}
