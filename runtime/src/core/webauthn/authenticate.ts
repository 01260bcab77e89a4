/**
 * Signing in with a passkey: the stored authenticator of the credential, the
 * signature checked with its key and counter, the counter updated, the user
 * loaded, then the sign-in every provider ends with.
 */
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { AdapterAccount } from "../../adapters/types.js";
import type { ResponseInternal } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { WebAuthnVerificationError } from "../errors/errors.js";
import { askSignInCallback, completeSignIn } from "../identity/sign-in.js";
import type { Challenge } from "./challenge.js";
import { findAuthenticator } from "./lookup.js";
import type { ResolvedRelyingParty } from "./relying-party.js";
import type { WebAuthnProvider } from "./settings.js";
import type { SimpleWebAuthn } from "./simplewebauthn.js";
import { verifyAuthentication } from "./verify.js";

export async function authenticateWithPasskey(
  ctx: RequestContext,
  provider: WebAuthnProvider,
  lib: SimpleWebAuthn,
  rp: ResolvedRelyingParty,
  challenge: Challenge,
  response: AuthenticationResponseJSON,
): Promise<ResponseInternal> {
  const adapter = ctx.config.adapter!;
  const stored = await findAuthenticator(ctx, response.id);
  if (!stored) throw new WebAuthnVerificationError(`No passkey with credential id ${response.id} is registered.`);
  const newCounter = await verifyAuthentication(lib, provider, rp, challenge.value, response, stored);
  await callAdapter(adapter, "updateAuthenticatorCounter", stored.credentialID, newCounter);
  const user = await callAdapter(adapter, "getUser", stored.userId);
  if (!user) throw new WebAuthnVerificationError(`Passkey ${stored.credentialID} belongs to user ${stored.userId}, who does not exist.`);
  ctx.config.logger.debug("passkey verified", { provider: provider.id, userId: user.id });
  const account: AdapterAccount = { provider: provider.id, type: "webauthn", providerAccountId: stored.providerAccountId, userId: user.id };
  const redirect = await askSignInCallback(ctx, { user, account });
  if (redirect !== undefined) return { redirect };
  return completeSignIn(ctx, { user, account });
}
