/**
 * `GET webauthn-options/<provider>?action=register|authenticate&email=...`:
 * options for the browser's WebAuthn call, and the challenge cookie that the
 * callback checks the answer against. The action is inferred when absent (see
 * `webauthn/infer.ts`); nothing is stored here.
 */
import type { ResponseInternal, WebAuthnOptionsResponseBody } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { InvalidRequest, UnknownAction } from "../errors/errors.js";
import { pathProvider } from "../guards.js";
import { limitSignIn } from "../rate-limit/limit.js";
import { NO_STORE } from "../http/response.js";
import { sealChallenge, type Challenge } from "../webauthn/challenge.js";
import { planOptions, requestedAction } from "../webauthn/infer.js";
import { authenticationOptions, registrationOptions } from "../webauthn/options.js";
import { relyingPartyOf } from "../webauthn/relying-party.js";
import { loadSimpleWebAuthn } from "../webauthn/simplewebauthn.js";
import { signedInUser } from "../session/session-user.js";
import { userInfoOf } from "../webauthn/user-info.js";

export async function webauthnOptionsAction(ctx: RequestContext): Promise<ResponseInternal<WebAuthnOptionsResponseBody>> {
  // No passkeys in this app: a request for their options is a bad request like
  // any unknown path, not a configuration problem anyone on the internet could log.
  if (!ctx.config.experimental.enableWebAuthn) {
    throw new UnknownAction(
      "Passkeys are not enabled here (a WebAuthn provider needs `experimental: { enableWebAuthn: true }`).",
    );
  }
  const provider = pathProvider(ctx);
  if (provider.type !== "webauthn") throw new InvalidRequest(`The provider "${provider.id}" is not a WebAuthn provider.`);
  const requested = requestedAction(ctx.query.get("action"));
  const signedIn = await signedInUser(ctx);
  // Signed in, the session says who it is: the form fields are not consulted.
  const info = signedIn ? null : await userInfoOf(ctx, provider);
  // A form that names someone is a user lookup whose answer (that user's passkey
  // ids, or that there is no such user) tells who has an account: with rateLimit
  // on it counts against the client's address like a sign-in attempt, so
  // accounts cannot be enumerated faster than passwords guessed. Passkey
  // autofill (no email) and signed-in requests name no one and are not counted.
  if (info && ctx.config.rateLimit) await limitSignIn(ctx, provider.id, []);
  const plan = planOptions(requested, signedIn, info);

  const adapter = ctx.config.adapter!;
  const lib = await loadSimpleWebAuthn();
  const rp = relyingPartyOf(provider.relayingParty, ctx.origin, provider.id);
  let body: WebAuthnOptionsResponseBody;
  let challenge: Challenge;
  if (plan.action === "authenticate") {
    const allowed = plan.user ? await callAdapter(adapter, "listAuthenticatorsByUserId", plan.user.id) : [];
    const options = await authenticationOptions(lib, provider, rp, allowed);
    body = { action: "authenticate", options: options as unknown as Record<string, unknown> };
    challenge = { value: options.challenge, action: "authenticate" };
  } else if ("user" in plan) {
    const existing = await callAdapter(adapter, "listAuthenticatorsByUserId", plan.user.id);
    const options = await registrationOptions(lib, provider, rp, plan.user, existing);
    body = { action: "register", options: options as unknown as Record<string, unknown> };
    challenge = { value: options.challenge, action: "register", userId: plan.user.id };
  } else {
    // The user-to-be travels in the sealed cookie; it is created only once the passkey is verified.
    const newUser = { id: crypto.randomUUID(), ...plan.newUser };
    const options = await registrationOptions(lib, provider, rp, newUser, []);
    body = { action: "register", options: options as unknown as Record<string, unknown> };
    challenge = { value: options.challenge, action: "register", newUser };
  }
  ctx.config.logger.debug("WebAuthn options", { provider: provider.id, action: body.action, requested });
  return { headers: NO_STORE, body, cookies: [await sealChallenge(ctx, provider.id, challenge)] };
}
