/**
 * The relying party of a request: from the provider's `relayingParty`, field by
 * field, or else from the trusted public origin of the request.
 */
import type { RelyingParty } from "../../providers/passkey.js";
import { InvalidConfig } from "../errors/errors.js";

export interface ResolvedRelyingParty {
  /** The RP ID put in options. */
  id: string;
  name: string;
  /** Every RP ID a response may be made for. */
  ids: string[];
  /** Every origin a response may come from. */
  origins: string[];
}

function list(value: string | string[] | undefined, field: string, providerId: string): string[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (values.length === 0 || values.some((v) => typeof v !== "string" || v === "")) {
    throw new InvalidConfig(`relayingParty.${field} of the WebAuthn provider "${providerId}" must be a non-empty string or list of strings.`);
  }
  return values;
}

/** @param origin the request's trusted public origin, e.g. `https://example.com`. */
export function relyingPartyOf(configured: RelyingParty | undefined, origin: string, providerId: string): ResolvedRelyingParty {
  const hostname = new URL(origin).hostname;
  const ids = list(configured?.id, "id", providerId) ?? [hostname];
  const names = list(configured?.name, "name", providerId) ?? [hostname];
  const origins = (list(configured?.origin, "origin", providerId) ?? [origin]).map((o) => o.replace(/\/+$/, ""));
  return { id: ids[0]!, name: names[0]!, ids, origins };
}
