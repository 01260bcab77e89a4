/**
 * The app's public origin, the base of every redirect and link: the one rule
 * the handler (`context.ts`) and `createActionURL` both use, so a URL built by
 * one is a URL the other answers on. Pure: headers and settings in, an origin out.
 */

/**
 * A host as a proxy sends it: DNS labels (letters, digits, `-`, `_`) or a
 * bracketed IPv6 address, and an optional port. The URL parser alone is not
 * enough: it takes hosts such as `"` or `a'b`, which would then reach every
 * redirect and link unescaped.
 */
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** What this reads of the request's URL (a `URL` has it). */
export type RequestOrigin = Pick<URL, "origin" | "protocol" | "host">;

export interface OriginSettings {
  /** `url`/`AUTH_URL`, parsed: when set, the origin, whatever the request says. */
  url?: URL;
  /** Framework glue vouches that the request URL is the public one: `X-Forwarded-*` is ignored. */
  requestUrlIsPublic: boolean;
}

/**
 * `scheme://host[:port]` for a host as a header gives it, or `undefined` when
 * the scheme is not http(s) or the host is not a plain host (see `HOST`).
 */
export function originOfHost(protocol: string, host: string | null | undefined): string | undefined {
  if (!host || !HOST.test(host) || (protocol !== "http" && protocol !== "https")) return undefined;
  try {
    const parsed = new URL(`${protocol}://${host}`);
    return parsed.host === host.toLowerCase() ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The public origin: `url` if configured, else the forwarded host (the config
 * trusts the host, or there would be no request to answer), else the request
 * URL; `X-Forwarded-Proto` gives the scheme of either (a proxy that keeps
 * the Host header and sets only the scheme is the common TLS setup).
 * `undefined` only when no request URL is given and nothing else applies.
 */
export function publicOrigin(headers: Headers, requestUrl: RequestOrigin, settings: OriginSettings): string;
export function publicOrigin(headers: Headers, requestUrl: RequestOrigin | undefined, settings: OriginSettings): string | undefined;
export function publicOrigin(headers: Headers, requestUrl: RequestOrigin | undefined, settings: OriginSettings): string | undefined {
  if (settings.url) return settings.url.origin;
  if (settings.requestUrlIsPublic) return requestUrl?.origin;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const forwardedProto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (host) {
    const proto = forwardedProto ?? requestUrl?.protocol.slice(0, -1) ?? "https";
    const forwarded = originOfHost(proto, host);
    // An unreadable forwarded host falls back to the request URL.
    if (forwarded) return forwarded;
    return requestUrl?.origin;
  }
  // A proxy that keeps Host and sets only the scheme (nginx's usual TLS setup): the request's host, the proxy's scheme.
  if (forwardedProto && requestUrl) return originOfHost(forwardedProto, requestUrl.host) ?? requestUrl.origin;
  return requestUrl?.origin;
}
