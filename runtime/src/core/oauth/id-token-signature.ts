/**
 * The ID token's signature. oauth4webapi checks its claims; the signature is
 * checked here too, beyond what OIDC requires for a token received over TLS
 * from the token endpoint: against the server's JWKS (fetched once, again when
 * a token names an unknown key), or the client secret for HS* tokens.
 */
import { createRemoteJWKSet, customFetch as joseFetch, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type * as o from "oauth4webapi";
import { OAuthCallbackError } from "../errors/errors.js";
import { verifyJwtSignature } from "../crypto/jws-verify.js";
import { describeOAuthError } from "./describe-error.js";
import type { OAuthRuntime } from "./provider.js";

/** Seconds of clock skew tolerated, as oauth4webapi does for the claims. */
export const CLOCK_TOLERANCE = 30;

export async function verifyIdTokenSignature(
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
      await verifyJwtSignature(idToken, providerKeys(oauth, metadata.jwks_uri));
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
