/** Finding a stored authenticator by the credential id the browser reports. */
import type { AdapterAuthenticator } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { toStandardBase64 } from "./encoding.js";

/**
 * The authenticator stored under `credentialID` (base64url, as we store it), or
 * under its standard-base64 spelling, as Auth.js stores it: a database moved
 * over from Auth.js keeps working.
 */
export async function findAuthenticator(ctx: RequestContext, credentialID: string): Promise<AdapterAuthenticator | null> {
  const adapter = ctx.config.adapter!;
  const found = await callAdapter(adapter, "getAuthenticator", credentialID);
  if (found) return found;
  const standard = toStandardBase64(credentialID);
  return standard === credentialID ? null : await callAdapter(adapter, "getAuthenticator", standard);
}
