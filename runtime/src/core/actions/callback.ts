/** `callback/<provider>`: the end of a sign-in. Credentials arrive here by POST. */
import type { AdapterUser } from "../../adapters/types.js";
import type { CredentialRecord, ResponseInternal, User } from "../../types.js";
import type { RequestContext } from "../context.js";
import { CallbackRouteError, CredentialsSignin, InvalidRequest } from "../errors/errors.js";
import { pathProvider, requireCsrf } from "../guards.js";
import { unsupportedProvider, type ResolvedCredentialsProvider } from "../config/providers.js";
import { callAdapter } from "../adapter.js";
import { oauthCallback } from "../oauth/callback.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import { PasswordHashingBusy } from "../password/gate.js";
import { credentialIdentifiers, forgetIdentifiers, limitSignIn } from "../rate-limit/limit.js";
import { emailCallback } from "../email/callback.js";
import { webauthnCallback } from "../webauthn/callback.js";
import { passwordSignIn } from "../password-accounts/sign-in.js";

export async function callbackAction(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = pathProvider(ctx);
  if (provider.type === "credentials") {
    if (ctx.route.method !== "POST") {
      throw new InvalidRequest(`Credentials are submitted with POST ${ctx.config.basePath}/callback/${provider.id}.`);
    }
    requireCsrf(ctx);
    if (provider.password) return passwordSignIn(ctx, provider);
    return credentialsCallback(ctx, provider);
  }
  if (provider.oauth) return oauthCallback(ctx, provider);
  if (provider.type === "email") return emailCallback(ctx, provider);
  if (provider.type === "webauthn") return webauthnCallback(ctx, provider);
  throw unsupportedProvider(provider);
}

async function credentialsCallback(ctx: RequestContext, provider: ResolvedCredentialsProvider): Promise<ResponseInternal> {
  const { csrfToken: _csrf, ...credentials } = ctx.body as CredentialRecord;
  const { rateLimit } = ctx.config;
  // Counted before authorize runs: a refused guess never reaches the password check.
  const counted = rateLimit ? await limitSignIn(ctx, provider.id, credentialIdentifiers(rateLimit, credentials)) : undefined;
  let user: User | null;
  try {
    user = await provider.authorize(credentials, ctx.request);
  } catch (error) {
    // The app's authorize checking a password with @gatehouse/runtime/password at a busy moment: a 429, not a 500.
    if (error instanceof CredentialsSignin || error instanceof PasswordHashingBusy) throw error;
    throw new CallbackRouteError(`The authorize function of "${provider.id}" threw.`, error as Error);
  }
  ctx.config.logger.debug("authorize finished", { provider: provider.id, signedIn: user !== null && user !== undefined });
  if (user === null || user === undefined) throw new CredentialsSignin(`The authorize function of "${provider.id}" returned no user.`);
  if (typeof user !== "object") {
    throw new CallbackRouteError(`The authorize function of "${provider.id}" must return a user object or null.`);
  }
  // The right credentials: their identifier's earlier failures no longer count against its owner.
  if (counted?.length) await forgetIdentifiers(ctx, counted);
  const account = {
    providerAccountId: user.id === undefined || user.id === null ? "" : String(user.id),
    type: "credentials" as const,
    provider: provider.id,
  };
  const redirect = await askSignInCallback(ctx, { user, account, credentials });
  if (redirect !== undefined) return { redirect };
  const storedUser = ctx.config.session.strategy === "database" ? await requireStoredUser(ctx, provider.id, user) : undefined;
  return completeSignIn(ctx, { user, account, storedUser });
}

/**
 * A database session points at a row of the adapter's users table, so with that
 * strategy `authorize` must return the id of a user the adapter has. Returns
 * that row (the sign-in's check of an unproven address reads it too).
 */
async function requireStoredUser(ctx: RequestContext, providerId: string, user: User): Promise<AdapterUser> {
  const id = user.id === undefined || user.id === null ? "" : String(user.id);
  const stored = id ? await callAdapter(ctx.config.adapter!, "getUser", id) : null;
  if (!stored) {
    throw new CallbackRouteError(
      `The authorize function of "${providerId}" returned a user ${id ? `with id "${id}"` : "without an id"} that the adapter does not have; with database sessions it must return a user of the adapter's users table.`,
    );
  }
  return stored;
}
