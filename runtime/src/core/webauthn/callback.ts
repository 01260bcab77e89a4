/**
 * `POST callback/<webauthn provider>`: the browser's answer to the options of
 * `GET webauthn-options`. CSRF-checked; the challenge cookie is cleared
 * whatever the outcome, so a challenge answers at most one callback.
 */
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { errorResult } from "../errors/error-response.js";
import { InvalidRequest, WebAuthnVerificationError } from "../errors/errors.js";
import { requireCsrf } from "../guards.js";
import { limitSignIn } from "../rate-limit/limit.js";
import { authenticateWithPasskey } from "./authenticate.js";
import { clearChallenge, openChallenge, type WebAuthnAction } from "./challenge.js";
import { registerPasskey } from "./register.js";
import { relyingPartyOf } from "./relying-party.js";
import { authenticationResponseOf, callbackActionOf, registrationResponseOf } from "./response-data.js";
import type { WebAuthnProvider } from "./settings.js";
import { loadSimpleWebAuthn } from "./simplewebauthn.js";

export async function webauthnCallback(ctx: RequestContext, provider: WebAuthnProvider): Promise<ResponseInternal> {
  if (ctx.route.method !== "POST") {
    throw new InvalidRequest(`Passkey responses are submitted with POST ${ctx.config.basePath}/callback/${provider.id}.`);
  }
  const cleared = clearChallenge(ctx);
  let result: ResponseInternal;
  try {
    result = await finishCeremony(ctx, provider);
  } catch (error) {
    result = errorResult(ctx, error);
  }
  return { ...result, cookies: [...cleared, ...(result.cookies ?? [])] };
}

async function finishCeremony(ctx: RequestContext, provider: WebAuthnProvider): Promise<ResponseInternal> {
  requireCsrf(ctx);
  // Per address only: the answer names a credential, not a person, and costs a lookup and a signature check.
  if (ctx.config.rateLimit) await limitSignIn(ctx, provider.id, []);
  const action = callbackActionOf(ctx.body);
  if (action === "register") {
    const response = registrationResponseOf(ctx.body.data);
    const { challenge, lib, rp } = await prepare(ctx, provider, action);
    return registerPasskey(ctx, provider, lib, rp, challenge, response);
  }
  const response = authenticationResponseOf(ctx.body.data);
  const { challenge, lib, rp } = await prepare(ctx, provider, action);
  return authenticateWithPasskey(ctx, provider, lib, rp, challenge, response);
}

/** The challenge of the cookie, which must have been made for this action; SimpleWebAuthn; the relying party. */
async function prepare(ctx: RequestContext, provider: WebAuthnProvider, action: WebAuthnAction) {
  const challenge = await openChallenge(ctx, provider.id);
  if (challenge.action !== action) {
    throw new WebAuthnVerificationError(`The challenge was made to ${challenge.action}, but the browser answered to ${action}.`);
  }
  const lib = await loadSimpleWebAuthn();
  return { challenge, lib, rp: relyingPartyOf(provider.relayingParty, ctx.origin, provider.id) };
}
