/**
 * The callback's protocol half: the authorization response (state, `iss`,
 * provider errors), the code exchange with the PKCE verifier, and the ID token
 * (claims, nonce, and signature against the server's keys). Every failure is an
 * error that never signs anyone in.
 */
import * as o from "oauth4webapi";
import type { TokenSet } from "../../types.js";
import { InvalidCheck, OAuthCallbackError } from "../errors/errors.js";
import { describeOAuthError } from "./describe-error.js";
import { CLOCK_TOLERANCE, verifyIdTokenSignature } from "./id-token-signature.js";
import type { OAuthRuntime } from "./provider.js";
import { requestOptions } from "./server.js";

export interface CheckValues {
  /** The state sealed at sign-in, when the state check is on. */
  state?: string;
  /** The PKCE verifier sealed at sign-in, when PKCE was used. */
  codeVerifier?: string;
  /** The nonce sealed at sign-in, when the nonce check is on. */
  nonce?: string;
}

export interface Exchanged {
  tokens: TokenSet;
  /** Validated ID token claims, when an ID token was required and came. */
  claims?: o.IDToken;
}

/** Reads the authorization response. A provider's `error=...` is `OAuthCallbackError`; a failed check is `InvalidCheck`. */
export function readAuthorizationResponse(
  metadata: o.AuthorizationServer,
  client: o.Client,
  params: URLSearchParams,
  expectedState: string | undefined,
  providerId: string,
): URLSearchParams {
  try {
    return o.validateAuthResponse(metadata, client, params, expectedState ?? o.skipStateCheck);
  } catch (error) {
    if (error instanceof o.AuthorizationResponseError) {
      throw new OAuthCallbackError(
        `Provider "${providerId}" answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}.`,
        { err: error, provider: providerId, error: error.error, error_description: error.error_description ?? undefined },
      );
    }
    throw new InvalidCheck(`The authorization response of provider "${providerId}" failed a check: ${(error as Error).message}.`, error as Error);
  }
}

export async function exchangeCode(
  oauth: OAuthRuntime,
  metadata: o.AuthorizationServer,
  client: o.Client,
  clientAuth: o.ClientAuth,
  callbackParams: URLSearchParams,
  redirectUri: string,
  checks: CheckValues,
  providerId: string,
): Promise<Exchanged> {
  let response: Response;
  let tokens: o.TokenEndpointResponse;
  try {
    response = await o.authorizationCodeGrantRequest(
      metadata,
      client,
      clientAuth,
      callbackParams,
      redirectUri,
      checks.codeVerifier ?? o.nopkce,
      { ...requestOptions(oauth), additionalParameters: oauth.tokenParams },
    );
    if (oauth.tokenConform) response = (await oauth.tokenConform(response.clone())) ?? response;
    tokens = await o.processAuthorizationCodeResponse(metadata, client, response, {
      expectedNonce: checks.nonce,
      requireIdToken: oauth.profileFromIdToken,
    });
  } catch (error) {
    throw new OAuthCallbackError(`The code exchange with provider "${providerId}" at ${metadata.token_endpoint} failed: ${describeOAuthError(error)}.`, {
      err: error as Error,
      provider: providerId,
    });
  }
  const claims = o.getValidatedIdTokenClaims(tokens);
  if (claims && claims.iat > Math.floor(Date.now() / 1000) + CLOCK_TOLERANCE) {
    // oauth4webapi does not look at `iat`; a token "issued" in the future was not issued by a sane server now.
    throw new OAuthCallbackError(`The ID token of provider "${providerId}" has an iat (issued at) timestamp in the future.`, { provider: providerId });
  }
  // An ID token the profile is read from must be signed by the provider; one a plain OAuth provider adds is not used.
  if (claims && oauth.profileFromIdToken) await verifyIdTokenSignature(oauth, metadata, tokens, providerId);
  const set: TokenSet = { ...tokens, token_type: tokens.token_type?.toLowerCase() };
  if (typeof tokens.expires_in === "number") set.expires_at = Math.floor(Date.now() / 1000) + tokens.expires_in;
  return { tokens: set, claims };
}
