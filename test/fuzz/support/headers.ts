/**
 * Request headers: content-type variants, content-length lies, forwarded host
 * and proto junk (foreign hosts, lists, IPv6, odd bytes), X-Forwarded-For
 * (chains, IPv6, garbage, very long), X-Real-IP, Forwarded (RFC 7239), Origin
 * (null, foreign, a sibling host, the app's own and near misses of it, junk),
 * Sec-Fetch-Site (every value and junk), X-Auth-Return-Redirect, and random
 * extra headers. Values are what `Headers` accepts: no CR, LF or NUL, Latin-1
 * at most, but every other control byte (CRLF injection is impossible here,
 * odd bytes are not).
 */
import * as fc from "fast-check";

/** An Origin made from the request's public origin: the app's own, or a near miss of it. */
export type RelativeOrigin = { like: "self" | "sibling" | "other-scheme" | "trailing-slash" | "upper-case" | "port" };

export interface HeaderSpec {
  /** `auto`: the type that fits the body; `null`: none. */
  contentType: string | null;
  contentLength: string | null;
  forwardedHost: string | null;
  forwardedProto: string | null;
  forwardedFor: string | null;
  realIp: string | null;
  /** RFC 7239 `Forwarded`. */
  forwarded: string | null;
  origin: string | RelativeOrigin | null;
  secFetchSite: string | null;
  returnRedirect: string | null;
  extra: [string, string][];
}

const printableValueArb = fc.stringMatching(/^[\t\x20-\x7e\xa0-\xff]{0,40}$/);
/** Every byte `Headers` takes: C0 controls but NUL, CR and LF; DEL; C1; Latin-1. */
const oddByteValueArb = fc.stringMatching(/^[\x01-\x09\x0b\x0c\x0e-\xff]{0,40}$/);

export const headerValueArb: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: printableValueArb }, { weight: 1, arbitrary: oddByteValueArb });

const LONG_CHAIN = Array.from({ length: 300 }, (_, i) => `198.51.${i % 256}.${(i * 7) % 256}`).join(", ");

/** Client addresses as proxies write them, and as clients forge them. */
const addressArb: fc.Arbitrary<string> = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom(
    "203.0.113.7",
    "2001:db8::1",
    "2001:db8:0:0:1:2:3:4",
    "[2001:db8::1]:443",
    "::ffff:203.0.113.7",
    "::1",
    "fe80::1%eth0",
    "203.0.113.7:8080",
    "999.999.999.999",
    "0x7f.1",
    "unknown",
    "_hidden",
    "evil.com",
    "",
  ),
);

const forwardedForArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: addressArb },
  { weight: 3, arbitrary: fc.array(addressArb, { minLength: 2, maxLength: 5 }).chain((chain) => fc.constantFrom(", ", ",", " ,  ").map((sep) => chain.join(sep))) },
  { weight: 1, arbitrary: fc.constantFrom(",", " , , ", "203.0.113.7,", ",203.0.113.7", LONG_CHAIN, "1".repeat(5000), `${"f".repeat(120)}, 203.0.113.7`, `203.0.113.7, ${"f".repeat(120)}`) },
  { weight: 1, arbitrary: headerValueArb },
);

const forwardedArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "for=192.0.2.60;proto=http;by=203.0.113.43",
    'for="[2001:db8:cafe::17]:4711"',
    "for=192.0.2.43, for=198.51.100.17",
    "host=evil.com;proto=https",
    'for=_hidden;host="app.example.com";proto=https',
    "for=unknown",
    "proto=javascript",
    "for=",
    ";;;,,,",
    '"',
  ),
  headerValueArb,
);
const tokenArb = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/);

const sometimes = <T>(arb: fc.Arbitrary<T>, weightNull = 3) =>
  fc.oneof({ weight: weightNull, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

export const headersArb: fc.Arbitrary<HeaderSpec> = fc.record({
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant("auto") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "application/x-www-form-urlencoded",
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/X-WWW-FORM-URLENCODED",
        "application/x-www-form-urlencoded;charset=latin1",
        "text/plain",
        "multipart/form-data; boundary=xyz",
        "application/json, application/x-www-form-urlencoded",
        ";",
        "",
      ),
    },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: headerValueArb },
  ),
  contentLength: sometimes(fc.constantFrom("0", "1", "5", "65536", "65537", "999999999999", "-1", "abc", "1e9", "0x10", " 12 ", "Infinity", "NaN"), 6),
  forwardedHost: sometimes(
    fc.oneof(
      fc.constantFrom(
        "proxy.example",
        "app.example.com:8443",
        "PROXY.Example",
        "a.example, b.example",
        " spaced.example ",
        "",
        "[::1]:3000",
        "localhost:3000",
        "127.0.0.1",
        "x".repeat(300),
        "ex ample.com",
        "host/with/path",
        "user@host.example",
        "host.example:99999",
        "host.example:",
        "%65xample.com",
        "b\xfccher.example",
        '"',
        "a'b.example",
        "{x}.example",
        "internal_host.lan",
        "app.example.com.",
        "APP.EXAMPLE.COM",
        "app.example.com:443",
        "foreign.example, app.example.com",
        "app.example.com, foreign.example",
        "sibling.app.example.com",
        "foreign.example:80@app.example.com",
        "[::ffff:127.0.0.1]",
        "[fe80::1%25eth0]",
        "[::1",
        "::1",
        "127.1",
        "0x7f.0.0.1",
        "localhost:0",
        "xn--bcher-kva.example",
        `${"a".repeat(64)}.example`,
        "app.example.com\x01",
        "app.example.com\x7f",
        "app\xa0example.com",
        "\x85foreign.example",
        "foreign.example\x0b",
        "\xa0foreign.example",
        "foreign.example\tapp.example.com",
      ),
      headerValueArb,
    ),
  ),
  forwardedProto: sometimes(
    fc.oneof(fc.constantFrom("https", "http", "HTTPS", "ftp", "https,http", "http, https", " https ", "", "javascript", "wss", "https:", "http://", "https\x0b", "http\xa0"), headerValueArb),
  ),
  forwardedFor: sometimes(forwardedForArb, 2),
  realIp: sometimes(fc.oneof(addressArb, headerValueArb)),
  forwarded: sometimes(forwardedArb),
  origin: sometimes(
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom<RelativeOrigin["like"]>("self", "self", "self", "sibling", "other-scheme", "trailing-slash", "upper-case", "port").map((like) => ({ like })) },
      { weight: 2, arbitrary: fc.constantFrom("null", "https://evil.com", "http://localhost:3000", "https://app.example.com", "file://", "https://app.example.com.evil.com", "null, https://app.example.com") },
      { weight: 1, arbitrary: headerValueArb },
    ),
    2,
  ),
  secFetchSite: sometimes(
    fc.oneof(
      fc.constantFrom("cross-site", "same-site", "same-origin", "none", "CROSS-SITE", " same-origin ", "", "cross-site, same-origin", "same-origin, cross-site", "same-origin\x0b", "\xa0cross-site", "cross_site"),
      headerValueArb,
    ),
  ),
  returnRedirect: sometimes(fc.constantFrom("1", "0", "true", "", " 1", "yes")),
  extra: fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom("accept", "user-agent", "referer", "x-http-method-override", "x-client-ip", "cf-connecting-ip", "true-client-ip", "fly-client-ip"), tokenArb),
      headerValueArb,
    ),
    { maxLength: 2 },
  ),
});

/** Header names the spec has a field for: an extra header must not name them, or the spec would not say what we sent. */
const RESERVED = new Set([
  "content-type",
  "content-length",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-for",
  "x-real-ip",
  "forwarded",
  "origin",
  "sec-fetch-site",
  "x-auth-return-redirect",
  "cookie",
  "host",
]);

/** The Origin header of `spec` for a request whose public origin is `publicOrigin` (`null`: none). */
export function originValue(spec: HeaderSpec["origin"], publicOrigin: string): string | null {
  if (spec === null || typeof spec === "string") return spec;
  const url = new URL(publicOrigin);
  switch (spec.like) {
    case "self":
      return publicOrigin;
    case "sibling":
      return `${url.protocol}//evil.${url.host}`;
    case "other-scheme":
      return `${url.protocol === "https:" ? "http:" : "https:"}//${url.host}`;
    case "trailing-slash":
      return `${publicOrigin}/`;
    case "upper-case":
      return publicOrigin.toUpperCase();
    case "port":
      return url.port === "" ? `${publicOrigin}:${url.protocol === "https:" ? 443 : 80}` : `${url.protocol}//${url.hostname}`;
  }
}

/** The headers of `spec`, but Origin (which may depend on the public origin these headers decide: `originValue`). */
export function buildHeaders(spec: HeaderSpec, bodyType: string | null): Headers {
  const headers = new Headers();
  for (const [name, value] of spec.extra) if (!RESERVED.has(name.toLowerCase())) headers.append(name, value);
  const contentType = spec.contentType === "auto" ? bodyType : spec.contentType;
  if (contentType !== null) headers.set("content-type", contentType);
  if (spec.contentLength !== null) headers.set("content-length", spec.contentLength);
  if (spec.forwardedHost !== null) headers.set("x-forwarded-host", spec.forwardedHost);
  if (spec.forwardedProto !== null) headers.set("x-forwarded-proto", spec.forwardedProto);
  if (spec.forwardedFor !== null) headers.set("x-forwarded-for", spec.forwardedFor);
  if (spec.realIp !== null) headers.set("x-real-ip", spec.realIp);
  if (spec.forwarded !== null) headers.set("forwarded", spec.forwarded);
  if (spec.secFetchSite !== null) headers.set("sec-fetch-site", spec.secFetchSite);
  if (spec.returnRedirect !== null) headers.set("x-auth-return-redirect", spec.returnRedirect);
  return headers;
}
