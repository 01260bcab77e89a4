/**
 * The parts of a request's URL the handler reads on every request: its origin,
 * scheme and host (for the public origin), its path (for the route) and its
 * query. Pure: a URL string in, the parts out.
 */

import type { RequestOrigin } from "./public-origin.js";

/** What the handler reads of a request's URL: what the public origin needs, the path and the query (a `URL` has all of it). */
export type RequestUrl = RequestOrigin & Pick<URL, "pathname" | "searchParams">;

/**
 * The usual request URL, as a `Request` gives it (serialized by the URL
 * standard): `http(s)://`, a lowercase host name with an optional port, then a
 * path, a query and a fragment made only of characters the serializer leaves
 * as they are. A path with a dot in a segment's first place (`/./`, `/../`,
 * and so `/.well-known` too) or a percent-encoded dot is left to `new URL`,
 * which resolves dot segments, and so is an IPv6 host, a port with a leading
 * zero or any other character.
 */
const PLAIN =
  /^https?:\/\/(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?(?::[1-9][0-9]{0,4})?(?:\/(?![.])[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)+(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;

const COLON = 0x3a;
const DEFAULT_PORT = { "http:": ":80", "https:": ":443" } as const;

/**
 * The parts of `href` that `new URL(href)` has, without parsing the whole URL
 * for the usual one (see `PLAIN`): on a database session read, where the rest
 * of the handler's work is small, `new URL` was a fair part of it. Anything
 * else is parsed by `new URL`, and test/runtime/request-url.test.ts holds the
 * two to each other for every URL a `Request` can give.
 *
 * @param href a `Request`'s `url`: absolute and serialized.
 */
export function requestUrl(href: string): RequestUrl {
  // `test` and cuts at known places, not `exec`: no match array on every request.
  if (!PLAIN.test(href)) return new URL(href);
  const protocol = href.charCodeAt(4) === COLON ? "http:" : "https:";
  const pathStart = href.indexOf("/", protocol.length + 2);
  const hash = href.indexOf("#", pathStart);
  const end = hash === -1 ? href.length : hash;
  const question = href.indexOf("?", pathStart);
  const pathEnd = question === -1 || question > end ? end : question;
  const pathname = href.slice(pathStart, pathEnd);
  const origin = href.slice(0, pathStart);
  // The serializer drops a scheme's default port (one spelled out is not its output), and resolves `%2e` segments.
  if (origin.endsWith(DEFAULT_PORT[protocol]) || /%2e/i.test(pathname)) return new URL(href);
  return {
    origin,
    protocol,
    host: origin.slice(protocol.length + 2),
    pathname,
    // `URL` reads a lone `?` as no query too.
    searchParams: new URLSearchParams(pathEnd === end ? "" : href.slice(pathEnd, end)),
  };
}
