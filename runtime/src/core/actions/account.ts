/**
 * The signed-in user's account: `GET account` reads it (JSON, `null` when
 * signed out), and the forms of an account page post to `update-profile`,
 * `revoke-session`, `revoke-other-sessions`, `unlink-account`,
 * `rename-passkey`, `remove-passkey` and `delete-account`. Each form is CSRF-checked,
 * acts only for the user of the request's session, and redirects back to its
 * page (the `callbackUrl` it carried, on this site), with `?error=` and
 * `?code=` when it refused. A signed-out post goes to the sign-in page.
 * All of it needs an adapter: the account lives there.
 */
import type { ResponseInternal } from "../../types.js";
import { deleteOwnAccount } from "../account/deletion.js";
import { formRefusal, requireAccountAdapter, signedInForm } from "../account/form.js";
import { listSessions, revokeOtherSessions, revokeSession } from "../account/sessions.js";
import { profileName } from "../account/profile.js";
import { hasUsablePassword, removePasskey, signInMethods, unlinkProvider, type MethodChange } from "../account/sign-in-methods.js";
import type { AccountBody } from "../account/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { pageUrl } from "../guards.js";
import { sameOriginUrl } from "../http/redirect.js";
import { NO_STORE } from "../http/response.js";
import { clearSessionCookies, issueSession } from "../session/session-cookie.js";
import { signedInSession } from "../session/session-user.js";

export async function accountAction(ctx: RequestContext): Promise<ResponseInternal> {
  requireAccountAdapter(ctx);
  const signedIn = await signedInSession(ctx);
  if (!signedIn) return { headers: NO_STORE, body: null };
  const { user } = signedIn;
  const passwords = ctx.config.providers.some((provider) => provider.password !== undefined);
  const body: AccountBody = {
    user: {
      name: user.name ?? null,
      email: user.email,
      emailVerified: user.emailVerified ? new Date(user.emailVerified).toISOString() : null,
      image: user.image ?? null,
    },
    hasPassword: passwords ? await hasUsablePassword(ctx, user) : null,
    sessionStrategy: signedIn.strategy,
    sessions: await listSessions(ctx, signedIn),
    signInMethods: await signInMethods(ctx, user),
  };
  return { headers: NO_STORE, body };
}

/** `POST update-profile` (`name`): the display name; empty clears it. */
export async function updateProfileAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const input = profileName(ctx.body.name);
  if (!input.ok) return formRefusal(ctx, callbackUrl, "ProfileUpdate", input.code);
  const user = await callAdapter(ctx.config.adapter!, "updateUser", { id: signedIn.user.id, name: input.name });
  await emit(ctx.config, "updateUser", { user });
  // A JWT carries the name: this browser's gets the new one (database sessions read the user).
  const cookies = signedIn.strategy === "jwt" ? (await issueSession(ctx, { ...signedIn.token, name: user.name })).cookies : [];
  return { redirect: callbackUrl, cookies };
}

/** `POST revoke-session` (`sessionId`, from `GET account`): ends that session of the user; its own is a sign-out. */
export async function revokeSessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const sessionId = ctx.body.sessionId;
  const revoked = typeof sessionId === "string" ? await revokeSession(ctx, signedIn, sessionId) : { ok: false as const };
  if (!revoked.ok) return formRefusal(ctx, callbackUrl, "SessionRevoke", "unknown-session");
  return { redirect: callbackUrl, cookies: revoked.cookies };
}

/** `POST revoke-other-sessions`: ends every session of the user but this browser's. */
export async function revokeOtherSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const cookies = await revokeOtherSessions(ctx, form.signedIn);
  // The user is gone: nothing left to keep this browser signed in to.
  if (cookies === null) return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl: form.callbackUrl }), cookies: clearSessionCookies(ctx) };
  return { redirect: form.callbackUrl, cookies };
}

/** Back on the page after a change of the ways to sign in, or with why it was refused. */
function methodChanged(ctx: RequestContext, callbackUrl: string, error: string, change: MethodChange): ResponseInternal {
  return change.ok ? { redirect: callbackUrl } : formRefusal(ctx, callbackUrl, error, change.code);
}

/** `POST unlink-account` (`provider`): unlinks that OAuth/OIDC provider from the user, unless it is their last way in. */
export async function unlinkAccountAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const provider = ctx.body.provider;
  const change: MethodChange = typeof provider === "string" ? await unlinkProvider(ctx, form.signedIn.user, provider) : { ok: false, code: "unknown-provider" };
  return methodChanged(ctx, form.callbackUrl, "AccountUnlink", change);
}

/** `POST rename-passkey` (`passkeyId`, `name`): names one of the user's passkeys (the same rules as a display name). */
export async function renamePasskeyAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const input = profileName(ctx.body.name);
  if (!input.ok) return formRefusal(ctx, callbackUrl, "PasskeyRename", input.code);
  const id = ctx.body.passkeyId;
  const renamed = typeof id === "string" ? await callAdapter(ctx.config.adapter!, "renameAuthenticator", signedIn.user.id, id, input.name) : null;
  return renamed ? { redirect: callbackUrl } : formRefusal(ctx, callbackUrl, "PasskeyRename", "unknown-passkey");
}

/** `POST remove-passkey` (`passkeyId`): removes one of the user's passkeys, unless it is their last way in. */
export async function removePasskeyAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const id = ctx.body.passkeyId;
  const change: MethodChange = typeof id === "string" ? await removePasskey(ctx, form.signedIn.user, id) : { ok: false, code: "unknown-passkey" };
  return methodChanged(ctx, form.callbackUrl, "PasskeyRemove", change);
}

/**
 * `POST delete-account` (`confirm`: the account's email address; `password`
 * when it has one, else a sign-in in the last ten minutes): deletes the user
 * and everything the adapter keeps with it, signs this browser out, and goes
 * to `redirectTo` (on this site; default the home page).
 */
export async function deleteAccountAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await signedInForm(ctx);
  if ("redirect" in form) return form;
  const refusal = await deleteOwnAccount(ctx, form.signedIn, ctx.body);
  if (refusal) return formRefusal(ctx, form.callbackUrl, "AccountDelete", refusal);
  const redirectTo = typeof ctx.body.redirectTo === "string" ? sameOriginUrl(ctx.body.redirectTo, ctx.origin) : null;
  return { redirect: redirectTo ?? `${ctx.origin}/`, cookies: clearSessionCookies(ctx) };
}
