/**
 * Who asks for WebAuthn options: the user of the request's session, or what
 * the provider's form fields say (the default `getUserInfo`: the `email` field).
 */
import type { WebAuthnConfig, WebAuthnUserInfo } from "../../providers/passkey.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { MAX_NAME_LENGTH, profileName } from "../account/profile.js";
import { normalizeEmail as normalizeEmailAddress } from "../identity/email-address.js";
import { AuthError, CallbackRouteError, InvalidRequest } from "../errors/errors.js";

/** The address in its canonical form (`normalizeEmail`), as the email provider stores it; `InvalidRequest` when it is not one. */
export function normalizeEmail(value: string): string {
  try {
    return normalizeEmailAddress(value);
  } catch (error) {
    throw new InvalidRequest((error as Error).message);
  }
}

/** An optional display name for a new user, by the rule of every name (`profileName`); a name it refuses is `InvalidRequest`. */
export function normalizeName(value: string | null): string | null {
  const checked = profileName(value);
  if (!checked.ok) {
    throw new InvalidRequest(`The name must be at most ${MAX_NAME_LENGTH} characters, without control or invisible format characters.`);
  }
  return checked.name;
}

/** The default `getUserInfo`: the `email` query parameter (and `name` for a new user). */
export async function defaultUserInfo(ctx: RequestContext): Promise<WebAuthnUserInfo> {
  const raw = ctx.query.get("email");
  if (raw === null || raw.trim() === "") return null;
  const email = normalizeEmail(raw);
  const user = await callAdapter(ctx.config.adapter!, "getUserByEmail", email);
  if (user) return { user, exists: true };
  return { user: { email, name: normalizeName(ctx.query.get("name")) }, exists: false };
}

/** The provider's `getUserInfo`, or the default; what it returns is checked, since it is the app's code. */
export async function userInfoOf(ctx: RequestContext, provider: WebAuthnConfig): Promise<WebAuthnUserInfo> {
  if (typeof provider.getUserInfo !== "function") return defaultUserInfo(ctx);
  let info: WebAuthnUserInfo;
  try {
    info = await provider.getUserInfo({ query: ctx.query, request: ctx.request, adapter: ctx.config.adapter!, provider });
  } catch (error) {
    // An AuthError is the app's deliberate answer (InvalidRequest: 400); anything else is a failure of its code.
    if (error instanceof AuthError) throw error;
    throw new CallbackRouteError(`The getUserInfo function of "${provider.id}" threw.`, error as Error);
  }
  if (info === null || info === undefined) return null;
  if (info.exists === true && typeof info.user?.id === "string") return info;
  if (info.exists === false && typeof info.user?.email === "string") {
    return { exists: false, user: { email: normalizeEmail(info.user.email), name: info.user.name ?? null } };
  }
  throw new CallbackRouteError(`The getUserInfo function of "${provider.id}" returned neither null, an existing user with an id, nor a new user with an email.`);
}
