/**
 * Request headers: content-type variants, content-length lies, forwarded host
 * and proto junk, Origin, Sec-Fetch-Site, X-Auth-Return-Redirect, and random extra headers.
 * Values are what `Headers` accepts (no CR, LF or NUL; Latin-1 at most).
 */
import * as fc from "fast-check";

export interface HeaderSpec {
  /** `auto`: the type that fits the body; `null`: none. */
  contentType: string | null;
  contentLength: string | null;
  forwardedHost: string | null;
  forwardedProto: string | null;
  origin: string | null;
  secFetchSite: string | null;
  returnRedirect: string | null;
  extra: [string, string][];
}

export const headerValueArb: fc.Arbitrary<string> = fc.stringMatching(/^[\t\x20-\x7e\xa0-\xff]{0,40}$/);
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
      ),
      headerValueArb,
    ),
  ),
  forwardedProto: sometimes(fc.oneof(fc.constantFrom("https", "http", "HTTPS", "ftp", "https,http", " https ", "", "javascript"), headerValueArb)),
  origin: sometimes(fc.oneof(fc.constantFrom("null", "https://evil.com", "http://localhost:3000", "https://app.example.com"), headerValueArb)),
  secFetchSite: sometimes(fc.oneof(fc.constantFrom("cross-site", "same-site", "same-origin", "none", "CROSS-SITE", " same-origin ", ""), headerValueArb)),
  returnRedirect: sometimes(fc.constantFrom("1", "0", "true", "", " 1", "yes")),
  extra: fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom("accept", "user-agent", "forwarded", "x-forwarded-for", "x-real-ip", "referer", "x-http-method-override"), tokenArb),
      headerValueArb,
    ),
    { maxLength: 2 },
  ),
});

/** Extra header names the handler sets itself: a request must not name them, or the spec would not say what we sent. */
const RESERVED = new Set(["content-type", "content-length", "x-forwarded-host", "x-forwarded-proto", "origin", "sec-fetch-site", "x-auth-return-redirect", "cookie", "host"]);

export function buildHeaders(spec: HeaderSpec, bodyType: string | null): Headers {
  const headers = new Headers();
  for (const [name, value] of spec.extra) if (!RESERVED.has(name.toLowerCase())) headers.append(name, value);
  const contentType = spec.contentType === "auto" ? bodyType : spec.contentType;
  if (contentType !== null) headers.set("content-type", contentType);
  if (spec.contentLength !== null) headers.set("content-length", spec.contentLength);
  if (spec.forwardedHost !== null) headers.set("x-forwarded-host", spec.forwardedHost);
  if (spec.forwardedProto !== null) headers.set("x-forwarded-proto", spec.forwardedProto);
  if (spec.origin !== null) headers.set("origin", spec.origin);
  if (spec.secFetchSite !== null) headers.set("sec-fetch-site", spec.secFetchSite);
  if (spec.returnRedirect !== null) headers.set("x-auth-return-redirect", spec.returnRedirect);
  return headers;
}
