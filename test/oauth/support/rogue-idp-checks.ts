/**
 * What the rogue IdP still enforces at its token endpoint, as a real server would: client
 * authentication (RFC 6749 2.3, one method per request) and PKCE (RFC 7636).
 */
import { createHash } from "node:crypto";
import type { RecordedRequest } from "./rogue-idp-http.js";

/** A client the IdP knows. Without `client_secret` it is public (`none`). */
export interface RogueClient {
  client_id: string;
  client_secret?: string;
  /** When set, only these redirect URIs are accepted; unset accepts any. */
  redirect_uris?: string[];
  /** When set, the only authentication method accepted; unset accepts basic or post (or none for public clients). */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none";
}

/** An OAuth error answered as JSON by the token and userinfo endpoints. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/**
 * Decodes `Authorization: Basic` client credentials of a recorded request, undoing the
 * form-urlencoding RFC 6749 2.3.1 requires before base64. `undefined` without Basic.
 */
export function basicCredentials(request: Pick<RecordedRequest, "headers">): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic (.+)$/i.exec(String(request.headers.authorization ?? ""));
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

/** Returns the authenticated client_id, or throws `invalid_client` / `invalid_request`. */
export function authenticateClient(request: RecordedRequest, clients: RogueClient[]): string {
  const basic = basicCredentials(request);
  const { body } = request;
  if (basic && body.client_secret !== undefined) {
    throw new OAuthError(400, "invalid_request", "client authenticated with more than one method");
  }
  const method = basic ? "client_secret_basic" : body.client_secret !== undefined ? "client_secret_post" : "none";
  const clientId = basic?.clientId ?? body.client_id;
  const secret = basic?.clientSecret ?? body.client_secret;
  const client = clients.find((candidate) => candidate.client_id === clientId);
  if (!client) throw new OAuthError(401, "invalid_client", `unknown client ${clientId}`);
  if (basic && body.client_id !== undefined && body.client_id !== basic.clientId) {
    throw new OAuthError(400, "invalid_request", "client_id in the body differs from the Basic credentials");
  }
  if (client.client_secret === undefined) {
    if (method !== "none") throw new OAuthError(401, "invalid_client", "a public client has no secret to send");
    return client.client_id;
  }
  if (method === "none") throw new OAuthError(401, "invalid_client", "client authentication is required");
  const required = client.token_endpoint_auth_method;
  if (required && method !== required) throw new OAuthError(401, "invalid_client", `client must use ${required}, not ${method}`);
  if (secret !== client.client_secret) throw new OAuthError(401, "invalid_client", "wrong client secret");
  return client.client_id;
}

/** RFC 7636 4.6, plus RFC 9700's rule against a verifier when no challenge was sent. */
export function checkPkce(challenge: string | undefined, verifier: string | undefined): void {
  if (challenge === undefined && verifier === undefined) return;
  if (challenge === undefined) throw new OAuthError(400, "invalid_grant", "code_verifier sent but no code_challenge was");
  if (verifier === undefined) throw new OAuthError(400, "invalid_grant", "code_verifier is required");
  if (createHash("sha256").update(verifier).digest("base64url") !== challenge) {
    throw new OAuthError(400, "invalid_grant", "code_verifier does not match the code_challenge");
  }
}
