/**
 * The redirect policy. Callback URLs arrive from the body, the query or a cookie,
 * so they are attacker-controlled: only relative paths and same-origin URLs pass;
 * anything else, including what merely looks odd, falls back to the base URL.
 */

const MAX_URL_LENGTH = 2048;
/** Control characters and backslashes: browsers read `/\host` as `//host`. */
const SUSPICIOUS = /[\u0000-\u001f\u007f\\]/;

/** `url` as an absolute same-origin URL, or `null` if it leaves the origin or cannot be read. */
export function sameOriginUrl(url: unknown, baseUrl: string): string | null {
  if (typeof url !== "string" || url.length === 0 || url.length > MAX_URL_LENGTH) return null;
  if (SUSPICIOUS.test(url) || url.startsWith("//")) return null;
  try {
    const base = new URL(baseUrl);
    const target = new URL(url, base);
    if (target.origin !== base.origin) return null;
    return target.href;
  } catch {
    return null;
  }
}

/** The default `redirect` callback: relative and same-origin URLs pass, everything else goes to `baseUrl`. */
export function defaultRedirectCallback({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return sameOriginUrl(url, baseUrl) ?? baseUrl;
}

/**
 * The last check on what a `redirect` callback returned: an application may send
 * users to another host on purpose, but only over http(s) and only to a URL that
 * parses; otherwise the base URL.
 */
export function finalRedirect(value: unknown, baseUrl: string): string {
  if (typeof value !== "string" || SUSPICIOUS.test(value)) return baseUrl;
  try {
    const target = new URL(value, baseUrl);
    if (target.protocol !== "http:" && target.protocol !== "https:") return baseUrl;
    return target.href;
  } catch {
    return baseUrl;
  }
}
