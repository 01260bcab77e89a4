/**
 * The signed-in user's account: `GET account` reads it (JSON, `null` when
 * signed out), and the forms of an account page post to `update-profile`,
 * `revoke-session` and `revoke-other-sessions`. Each form is CSRF-checked,
 * acts only for the user of the request's session, and redirects back to its
 * page (the `callbackUrl` it carried, on this site), with `?error=` and
 * `?code=` when it refused. A signed-out post goes to the sign-in page.
 * All of it needs an adapter: the account lives there.
 */
import type { ResponseInternal } from "../../types.js";
import { listSessions, revokeOtherSessions, revokeSession } from "../account/sessions.js";
import { profileName } from "../account/profile.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { MissingAdapter } from "../errors.js";
import { pageUrl, requireCsrf } from "../guards.js";
import { formCallbackUrl } from "../password-accounts/pages.js";
import { NO_STORE } from "../response.js";
import { clearSessionCookies, issueSession } from "../session-cookie.js";
import { signedInSession, type SignedIn } from "../session-user.js";

/** What `GET account` answers for a signed-in user. Dates are ISO strings. */
export interface AccountBody {
  user: { name: string | null; email: string; emailVerified: string | null; image: string | null };
  /** Whether the user has a password; `null` without a `Password` provider. */
  hasPassword: boolean | null;
  sessionStrategy: "jwt" | "database";
  sessions: Awaited<ReturnType<typeof listSessions>>;
}

function requireAdapter(ctx: RequestContext): void {
  if (!ctx.config.adapter) {
    throw new MissingAdapter(`${ctx.config.basePath}/${ctx.route.action} reads and changes the user's account through an adapter: set \`adapter\`.`);
  }
}

export async function accountAction(ctx: RequestContext): Promise<ResponseInternal> {
  requireAdapter(ctx);
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
    hasPassword: passwords ? (await callAdapter(ctx.config.adapter!, "getUserPassword", user.id)) !== null : null,
    sessionStrategy: signedIn.strategy,
    sessions: await listSessions(ctx, signedIn),
  };
  return { headers: NO_STORE, body };
}

/** A form post of the account page: its CSRF token checked, its page, and who is signed in (or where to go instead). */
async function accountForm(ctx: RequestContext): Promise<{ callbackUrl: string; signedIn: SignedIn } | { redirect: string }> {
  requireAdapter(ctx);
  requireCsrf(ctx);
  const callbackUrl = formCallbackUrl(ctx) ?? ctx.origin;
  const signedIn = await signedInSession(ctx);
  if (!signedIn) return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl }) };
  return { callbackUrl, signedIn };
}

/** Back on the form's page with what refused it. */
function refuse(ctx: RequestContext, callbackUrl: string, error: string, code: string): ResponseInternal {
  return { redirect: pageUrl(ctx, callbackUrl, "", { error, code }) };
}

/** `POST update-profile` (`name`): the display name; empty clears it. */
export async function updateProfileAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await accountForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const input = profileName(ctx.body.name);
  if (!input.ok) return refuse(ctx, callbackUrl, "ProfileUpdate", input.code);
  const user = await callAdapter(ctx.config.adapter!, "updateUser", { id: signedIn.user.id, name: input.name });
  await emit(ctx.config, "updateUser", { user });
  // A JWT carries the name: this browser's gets the new one (database sessions read the user).
  const cookies = signedIn.strategy === "jwt" ? (await issueSession(ctx, { ...signedIn.token, name: user.name })).cookies : [];
  return { redirect: callbackUrl, cookies };
}

/** `POST revoke-session` (`sessionId`, from `GET account`): ends that session of the user; its own is a sign-out. */
export async function revokeSessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await accountForm(ctx);
  if ("redirect" in form) return form;
  const { callbackUrl, signedIn } = form;
  const sessionId = ctx.body.sessionId;
  const revoked = typeof sessionId === "string" ? await revokeSession(ctx, signedIn, sessionId) : { ok: false as const };
  if (!revoked.ok) return refuse(ctx, callbackUrl, "SessionRevoke", "unknown-session");
  return { redirect: callbackUrl, cookies: revoked.cookies };
}

/** `POST revoke-other-sessions`: ends every session of the user but this browser's. */
export async function revokeOtherSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  const form = await accountForm(ctx);
  if ("redirect" in form) return form;
  const cookies = await revokeOtherSessions(ctx, form.signedIn);
  // The user is gone: nothing left to keep this browser signed in to.
  if (cookies === null) return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl: form.callbackUrl }), cookies: clearSessionCookies(ctx) };
  return { redirect: form.callbackUrl, cookies };
}
