/**
 * The callback's protocol half: the authorization response (state, `iss`,
 * provider errors), the code exchange with the PKCE verifier, and the ID token
 * (claims, nonce, and signature against the server's keys). Every failure is an
 * error that never signs anyone in.
 */
import { createRemoteJWKSet, customFetch as joseFetch, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import * as o from "oauth4webapi";
import type { TokenSet } from "../../types.js";
import { InvalidCheck, OAuthCallbackError } from "../errors.js";
import { describeOAuthError } from "./describe-error.js";
import type { OAuthRuntime } from "./provider.js";
import { requestOptions } from "./server.js";

/** Seconds of clock skew tolerated, as oauth4webapi does for the claims. */
const CLOCK_TOLERANCE = 30;

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

/**
 * oauth4webapi checks the ID token's claims; its signature is checked here too
 * (beyond what OIDC requires for a token received over TLS from the token
 * endpoint): against the server's JWKS, or the client secret for HS* tokens.
 */
async function verifyIdTokenSignature(
  oauth: OAuthRuntime,
  metadata: o.AuthorizationServer,
  tokens: o.TokenEndpointResponse,
  providerId: string,
): Promise<void> {
  const idToken = tokens.id_token!;
  const alg = readAlg(idToken);
  try {
    if (alg?.startsWith("HS")) {
      if (!oauth.clientSecret) throw new Error(`an ${alg} ID token needs the client secret to verify`);
      await jwtVerify(idToken, new TextEncoder().encode(oauth.clientSecret), { algorithms: [alg], clockTolerance: CLOCK_TOLERANCE });
    } else if (metadata.jwks_uri) {
      await jwtVerify(idToken, providerKeys(oauth, metadata.jwks_uri), { clockTolerance: CLOCK_TOLERANCE });
    } else {
      throw new Error("the provider publishes no jwks_uri to verify it with");
    }
  } catch (error) {
    // A provider whose keys cannot be fetched is down, not forging tokens: say which.
    const message = keysUnavailable(error)
      ? `The signing keys of provider "${providerId}" could not be read from ${metadata.jwks_uri}, so its ID token could not be checked: ${describeOAuthError(error)}.`
      : `The ID token of provider "${providerId}" has no valid signature: ${(error as Error).message}.`;
    throw new OAuthCallbackError(message, { err: error as Error, provider: providerId });
  }
}

/** jose's errors of fetching a JWKS (timeout, non-200, not JSON, malformed), and the network's own. */
function keysUnavailable(error: unknown): boolean {
  if (!(error instanceof joseErrors.JOSEError)) return true;
  return error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid || error.code === "ERR_JOSE_GENERIC";
}

/** The provider's JWKS, fetched when first needed and again when a token names an unknown key. */
function providerKeys(oauth: OAuthRuntime, uri: string): JWTVerifyGetKey {
  if (oauth.jwks?.uri !== uri) {
    const set = createRemoteJWKSet(new URL(uri), { [joseFetch]: (url, options) => oauth.fetch(url, options) });
    oauth.jwks = { uri, set };
  }
  return oauth.jwks.set;
}

function readAlg(jwt: string): string | undefined {
  try {
    return decodeProtectedHeader(jwt).alg;
  } catch {
    return undefined;
  }
}
