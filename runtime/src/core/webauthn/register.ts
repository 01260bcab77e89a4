/**
 * Registering a passkey: verified against the challenge, then stored for whom
 * the challenge names (the signed-in user who asked for it, or the user-to-be
 * of a sign-up), after the `signIn` callback agreed. Nothing is stored before.
 */
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { AdapterAccount } from "../../adapters/types.js";
import type { ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { WebAuthnVerificationError } from "../errors/errors.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import type { Challenge } from "./challenge.js";
import { findAuthenticator } from "./lookup.js";
import { addPasskey, createPasskeyUser, emailTaken } from "./persist.js";
import type { ResolvedRelyingParty } from "./relying-party.js";
import type { WebAuthnProvider } from "./settings.js";
import type { SimpleWebAuthn } from "./simplewebauthn.js";
import { signedInUser } from "../session/session-user.js";
import { verifyRegistration, type NewAuthenticator } from "./verify.js";
import { describeUserAgent } from "../account/user-agent.js";

export async function registerPasskey(
  ctx: RequestContext,
  provider: WebAuthnProvider,
  lib: SimpleWebAuthn,
  rp: ResolvedRelyingParty,
  challenge: Challenge,
  response: RegistrationResponseJSON,
): Promise<ResponseInternal> {
  const authenticator = namedAfterBrowser(ctx, await verifyRegistration(lib, provider, rp, challenge.value, response));
  if (await findAuthenticator(ctx, authenticator.credentialID)) {
    throw new WebAuthnVerificationError(`The passkey ${authenticator.credentialID} is registered already.`);
  }
  const account = { provider: provider.id, type: "webauthn" as const, providerAccountId: authenticator.credentialID };

  if (challenge.userId !== undefined) {
    // The options were made for the signed-in user: the same user must still be signed in,
    // or a passkey made after they signed out on a shared browser would land on their account.
    const current = await signedInUser(ctx);
    if (!current || current.id !== challenge.userId) {
      throw new WebAuthnVerificationError("The passkey was requested to be added to a signed-in user who is no longer signed in.");
    }
    const linked: AdapterAccount = { ...account, userId: current.id };
    const redirect = await askSignInCallback(ctx, { user: current, account: linked });
    if (redirect !== undefined) return { redirect };
    await addPasskey(ctx, current, linked, authenticator);
    return completeSignIn(ctx, { user: current, account: linked });
  }

  const { newUser } = challenge;
  if (!newUser) throw new WebAuthnVerificationError("The registration challenge names no user.");
  if (await callAdapter(ctx.config.adapter!, "getUserByEmail", newUser.email)) throw emailTaken();
  const userToBe = { ...newUser, emailVerified: null };
  const redirect = await askSignInCallback(ctx, { user: userToBe, account: { ...account, userId: newUser.id } });
  if (redirect !== undefined) return { redirect };
  const user = await createPasskeyUser(ctx, newUser, account, authenticator);
  return completeSignIn(ctx, { user, account: { ...account, userId: user.id }, isNewUser: true });
}

/**
 * The new passkey named after the browser that registers it ("Chrome on
 * Linux"), which its owner can rename on the account page. Only for an adapter
 * that keeps names (it has `renameAuthenticator`): an Auth.js adapter may store
 * every field it is given.
 */
function namedAfterBrowser(ctx: RequestContext, authenticator: NewAuthenticator): NewAuthenticator {
  if (typeof ctx.config.adapter?.renameAuthenticator !== "function") return authenticator;
  return { ...authenticator, name: describeUserAgent(ctx.request.headers.get("user-agent")) ?? "Passkey" };
}
