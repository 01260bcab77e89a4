/**
 * The parts of a request's URL the handler reads on every request: its origin,
 * scheme and host (for the public origin), its path (for the route) and its
 * query. Pure: a URL string in, the parts out.
 */

/** What the handler reads of a request's URL: a `URL` has all of it. */
export type RequestUrl = Pick<URL, "origin" | "protocol" | "host" | "pathname" | "searchParams">;

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
  /^(https?:)\/\/((?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?(?::[1-9][0-9]{0,4})?)((?:\/(?![.])[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)+)(\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;

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
  const match = PLAIN.exec(href);
  if (match === null || /%2e/i.test(match[3]!)) return new URL(href);
  const protocol = match[1] as "http:" | "https:";
  const host = match[2]!;
  // The serializer drops a scheme's default port: one spelled out is not its output.
  if (host.endsWith(DEFAULT_PORT[protocol])) return new URL(href);
  const search = match[4] ?? "";
  return {
    origin: `${protocol}//${host}`,
    protocol,
    host,
    pathname: match[3]!,
    // `URL` reads a lone `?` as no query too.
    searchParams: new URLSearchParams(search),
  };
}
