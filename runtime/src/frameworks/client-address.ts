/**
 * What the framework glue tells core about the client's address, for the
 * per-address sign-in limit: the framework knows the socket's address (or the
 * address its adapter was configured to trust), core sees only a `Request`.
 */
import { ownClientAddress } from "../core/rate-limit/client-address.js";
import type { ClientAddressSource } from "../core/rate-limit/limit.js";
import type { AuthConfig } from "../types.js";

/**
 * `undefined` (nothing allocated) while `rateLimit` is off. Otherwise the app's
 * own `rateLimit.clientAddress` (or its proxy's `clientAddressHeader`), read from the framework's original request
 * (a form action hands core a request of its own, without the proxy's headers),
 * else the framework's address, read only when a sign-in is counted.
 */
export function glueClientAddress<Event>(
  config: AuthConfig,
  request: Request,
  event: Event,
  frameworkAddress: (event: Event) => string | null | undefined,
): ClientAddressSource | undefined {
  const rateLimit = config.rateLimit;
  if (!rateLimit) return undefined;
  const own = ownClientAddress(rateLimit);
  return own ? () => own(request) : () => frameworkAddress(event);
}
