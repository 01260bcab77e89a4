/**
 * The end of every successful sign-in, shared by all providers: ask the `signIn`
 * callback, create the session, fire the event, pick the redirect.
 */
import type { JWT } from "../../jwt.js";
import type { AdapterUser } from "../../adapters/types.js";
import type { Account, Cookie, CredentialRecord, Profile, ResponseInternal, User } from "../../types.js";
import { redirectTarget, requestedCallbackUrl } from "../http/callback-url.js";
import { pageUrl } from "../guards.js";
import type { RequestContext } from "../context.js";
import { AccessDenied } from "../errors/errors.js";
import { emit } from "../events.js";
import { createDatabaseSession, deleteDatabaseSession } from "../session/database-session.js";
import { withSignInClaims } from "../session/session-version.js";
import { markUnprovenSession, refuseIfProvenMeanwhile, seenUnproven } from "./proven-email.js";
import { clearSessionCookies, issueSession } from "../session/session-cookie.js";

export interface SignInAttempt {
  user: User;
  account: Account | null;
  profile?: Profile;
  credentials?: CredentialRecord;
  email?: { verificationRequest?: boolean };
  /** The user was created by this sign-in: the JWT trigger is `signUp`, and `pages.newUser` is where they go. */
  isNewUser?: boolean;
  /** Where the sign-in started asked to return to (the callback-url cookie), instead of this request's. */
  callbackUrl?: string;
  /** The adapter's row of `user`, when this sign-in has just read it: asked again for nothing otherwise. */
  storedUser?: AdapterUser;
}

/**
 * Runs the `signIn` callback: `true` goes on (returns `undefined`), a string is a
 * redirect (returned, through the redirect policy), `false` or a throw is
 * `AccessDenied` carrying the original message.
 */
export async function askSignInCallback(ctx: RequestContext, attempt: SignInAttempt): Promise<string | undefined> {
  let verdict: unknown;
  try {
    verdict = await ctx.config.callbacks.signIn(attempt);
  } catch (error) {
    throw new AccessDenied((error as Error)?.message ?? "The signIn callback threw.", error as Error);
  }
  if (typeof verdict === "string") return redirectTarget(ctx, verdict);
  if (verdict !== true) throw new AccessDenied("The signIn callback refused the sign-in.");
  return undefined;
}

/**
 * Creates the session of a signed-in user (a JWT, or a database row for
 * `user.id`, which must be the adapter's id) and redirects to the callback URL.
 */
export async function completeSignIn(ctx: RequestContext, attempt: SignInAttempt): Promise<ResponseInternal> {
  const { config } = ctx;
  const { user, account, profile } = attempt;
  const isNewUser = attempt.isNewUser === true;
  let cookies: Cookie[];
  // A user holding an address nobody proved: its owner may prove it at any moment (see proven-email.ts).
  const unproven = await seenUnproven(ctx, user, attempt.storedUser);
  if (config.session.strategy === "database") {
    // The session this browser had (maybe another user's) ends: a new sign-in never keeps an old session token alive.
    // If that delete fails the new session is still made (its cookie replaces the old one); the failure is logged.
    await deleteDatabaseSession(ctx).catch((error: unknown) => config.logger.error(error as Error));
    const created = await createDatabaseSession(ctx, String(user.id));
    if (unproven) await refuseIfProvenMeanwhile(ctx, String(user.id), created.sessionToken);
    cookies = created.cookies;
  } else {
    const defaultToken: JWT = {
      name: user.name,
      email: user.email,
      picture: user.image,
      sub: user.id === undefined || user.id === null ? undefined : String(user.id),
    };
    const trigger = isNewUser ? "signUp" : "signIn";
    const token = await config.callbacks.jwt({ token: defaultToken, user, account, profile, trigger, isNewUser });
    if (token) {
      // Claims the handler checks on each read (see proven-email.ts and session-version.ts).
      const checked = await withSignInClaims(ctx, defaultToken.sub, unproven ? markUnprovenSession(token) : token);
      cookies = (await issueSession(ctx, checked)).cookies;
    } else {
      cookies = clearSessionCookies(ctx);
    }
  }
  await emit(config, "signIn", { user, account, profile, isNewUser });
  const target = await redirectTarget(ctx, attempt.callbackUrl ?? requestedCallbackUrl(ctx));
  if (isNewUser && config.pages.newUser) {
    return { redirect: pageUrl(ctx, config.pages.newUser, "", { callbackUrl: target }), cookies };
  }
  return { redirect: target, cookies };
}
