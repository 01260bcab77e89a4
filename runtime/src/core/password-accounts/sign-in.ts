/**
 * `POST callback/<password provider>`: the password checked against the stored
 * hash. Refusals do not say whether the address has an account, and an unknown
 * address takes as long as a wrong password (a decoy hash is checked).
 *
 * The right password of an account whose address is not confirmed yet does not
 * sign in. With the `confirm` token of the link mailed at sign-up it confirms
 * the address and signs in; without one (or with a used or expired one) a new
 * link is mailed and the form says so. Only someone who knows the password can
 * learn that the account waits for confirmation.
 */
import type { AdapterUser } from "../../adapters/types.js";
import { hashPassword, passwordMatches, passwordNeedsRehash } from "../../password.js";
import type { CredentialRecord, ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { CredentialsSignin, RateLimited } from "../errors/errors.js";
import { markEmailProven, emailProven } from "../identity/proven-email.js";
import { credentialIdentifiers, forgetIdentifiers, limitSignIn } from "../rate-limit/limit.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import { submittedEmail, submittedToken } from "./input.js";
import { linkIdentifier, takeLink } from "./links.js";
import { countMail } from "./mail.js";
import { mailConfirmation } from "./sign-up.js";
import { formCallbackUrl } from "../http/callback-url.js";
import type { ResolvedPasswordProvider } from "./provider.js";

/** Refused with a reason the sign-in form shows (`?code=`): only ever after the right password. */
class Unconfirmed extends CredentialsSignin {
  constructor(override code: "unconfirmed" | "confirm-link-invalid") {
    super(`The password was right, but the account's address is not confirmed (${code}); a new link was mailed.`);
  }
}

// A hash nobody's password matches, checked when the address is unknown.
let decoy: Promise<string> | undefined;

export async function passwordSignIn(ctx: RequestContext, provider: ResolvedPasswordProvider): Promise<ResponseInternal> {
  const { csrfToken: _csrf, ...credentials } = ctx.body as CredentialRecord;
  const { rateLimit } = ctx.config;
  // Counted before anything is looked up or hashed.
  const counted = rateLimit ? await limitSignIn(ctx, provider.id, credentialIdentifiers(rateLimit, credentials)) : undefined;
  const user = await checkPassword(ctx, provider, credentials.email, credentials.password);
  if (!user) throw new CredentialsSignin(`The email or password given to "${provider.id}" is wrong.`);
  if (counted?.length) await forgetIdentifiers(ctx, counted);

  let signedIn = user;
  const confirming = !emailProven(user);
  if (confirming) signedIn = await confirmAddress(ctx, provider, user, credentials.confirm);
  const account = { type: "credentials" as const, provider: provider.id, providerAccountId: signedIn.id };
  const redirect = await askSignInCallback(ctx, { user: signedIn, account, credentials });
  if (redirect !== undefined) return { redirect };
  // The first sign-in of an account is the one that confirms it: the `jwt` callback sees `signUp`.
  return completeSignIn(ctx, { user: signedIn, account, isNewUser: confirming });
}

/** The user whose password this is, or null; a stored hash weaker than today's is replaced. */
async function checkPassword(ctx: RequestContext, provider: ResolvedPasswordProvider, emailInput: unknown, password: unknown): Promise<AdapterUser | null> {
  const email = submittedEmail(emailInput);
  if (!email.ok || typeof password !== "string" || password.length > provider.password.maxLength) return null;
  const adapter = ctx.config.adapter!;
  const user = await callAdapter(adapter, "getUserByEmail", email.value);
  const stored = user ? await callAdapter(adapter, "getUserPassword", user.id) : null;
  const matches = await passwordMatches(password, stored ?? (await (decoy ??= hashPassword(crypto.randomUUID()))));
  if (!user || stored === null || !matches) return null;
  if (passwordNeedsRehash(stored)) await rehash(ctx, user, stored, password);
  return user;
}

/**
 * Stores a current hash in place of an older one while the password is at hand.
 * Compare-and-set: a change made meanwhile wins. A failure only logs.
 */
async function rehash(ctx: RequestContext, user: AdapterUser, previous: string, password: string): Promise<void> {
  try {
    await callAdapter(ctx.config.adapter!, "setUserPassword", user.id, await hashPassword(password), { previous });
  } catch (error) {
    ctx.config.logger.error(error as Error);
  }
}

/** The right password of an unconfirmed account: confirms it with the link's token, or mails a new link and refuses. */
async function confirmAddress(ctx: RequestContext, provider: ResolvedPasswordProvider, user: AdapterUser, confirm: unknown): Promise<AdapterUser> {
  const token = submittedToken(confirm);
  if (token !== undefined && (await takeLink(ctx, await linkIdentifier("confirm-sign-up", user.email), token))) {
    return markEmailProven(ctx, user);
  }
  await mailNewConfirmation(ctx, provider, user);
  throw new Unconfirmed(confirm === undefined || confirm === "" ? "unconfirmed" : "confirm-link-invalid");
}

/** A fresh confirmation link; over the mail limit (or failing to send) it only logs: the refusal says the same. */
async function mailNewConfirmation(ctx: RequestContext, provider: ResolvedPasswordProvider, user: AdapterUser): Promise<void> {
  try {
    await countMail(ctx, provider, user.email);
    await mailConfirmation(ctx, provider, user, formCallbackUrl(ctx));
  } catch (error) {
    if (!(error instanceof RateLimited)) ctx.config.logger.error(error as Error);
  }
}
