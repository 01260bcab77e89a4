/**
 * The handler reads a request's URL and routes its path on every request
 * without `new URL` or `split` (request-url.ts, router.ts). Both must read
 * exactly what the plain way reads: `requestUrl` what `new URL` does, for every
 * URL a `Request` can carry, and `route` what cutting the path at each `/` does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestUrl } from "../../runtime/src/core/http/request-url.js";
import { route } from "../../runtime/src/core/http/router.js";
import { UnknownAction } from "../../runtime/src/core/errors/errors.js";
import { fuzzParameters } from "../fuzz/support/settings.js";

/** What the handler reads, as plain values (`searchParams` as its pairs). */
function parts(url: { origin: string; protocol: string; host: string; pathname: string; searchParams: URLSearchParams }) {
  return { origin: url.origin, protocol: url.protocol, host: url.host, pathname: url.pathname, query: [...url.searchParams] };
}

/** How many readings `requestUrl` made without `new URL`: the properties below must test the cut, not only the fallback. */
let cut = 0;

/** `requestUrl` on the URL a `Request` made of `input` carries, next to `new URL` on it. */
function bothReadings(input: string) {
  const href = new Request(input).url;
  const ours = requestUrl(href);
  if (!(ours instanceof URL)) cut += 1;
  return { href, ours: parts(ours), standard: parts(new URL(href)) };
}

describe("requestUrl reads what new URL reads", () => {
  it("cuts the usual URL apart without new URL", () => {
    for (const href of ["http://localhost:3000/auth/session", "https://example.com/api/auth/callback/github?code=a&state=b"]) {
      expect(requestUrl(href)).not.toBeInstanceOf(URL);
    }
    expect(requestUrl("http://[::1]:3000/auth/session")).toBeInstanceOf(URL);
  });

  it.each([
    "http://localhost:3000/auth/session",
    "https://example.com/auth/callback/github?code=abc&state=x%20y",
    "https://EXAMPLE.com:443/auth/signin",
    "http://example.com:80/auth/signin",
    "http://example.com:0080/auth/signin",
    "http://127.0.0.1:5173/auth/csrf",
    "http://[::1]:3000/auth/session",
    "http://localhost./auth/session",
    "http://my_host.internal:8080/api/auth/providers",
    "http://localhost:3000/auth/../auth/session",
    "http://localhost:3000/auth/%2e%2E/session",
    "http://localhost:3000/auth/./session",
    "http://localhost:3000/.well-known/x",
    "http://localhost:3000/auth\\session",
    "http://localhost:3000/auth/session?",
    "http://localhost:3000/auth/session?a=1&a=2&b=%E2%9C%93&c=+d",
    "http://localhost:3000/auth/session?x='y'",
    "http://localhost:3000/auth/session#frag",
    "http://localhost:3000/auth/session?q=1#frag?x",
    "http://localhost:3000/auth/sess ion/<x>",
    "http://localhost:3000/auth/signin/é?callbackUrl=/ü",
    "http://xn--bcher-kva.example/auth/session",
    "http://bücher.example/auth/session",
    "http://localhost:3000//auth//session/",
    "http://localhost:3000/auth/session%",
    "https://a.b.c.d.example.com:65535/auth/callback/x;y=z",
  ])("%s", (input) => {
    const { ours, standard } = bothReadings(input);
    expect(ours).toEqual(standard);
  });

  it("for any http(s) URL", () => {
    cut = 0;
    const url = fc.webUrl({ validSchemes: ["http", "https"], withQueryParameters: true, withFragments: true });
    fc.assert(
      fc.property(url, (input) => {
        const { href, ours, standard } = bothReadings(input);
        expect(ours, href).toEqual(standard);
      }),
      fuzzParameters(0x5eed_0a11, 2000),
    );
    expect(cut).toBeGreaterThan(1000);
  });

  it("for paths and queries of any characters", () => {
    cut = 0;
    // Printable ASCII (the characters the serializer keeps or encodes one by one) and any code point.
    const text = fc.oneof(fc.string({ unit: "grapheme-ascii", maxLength: 24 }), fc.string({ unit: "binary", maxLength: 24 }));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), text, (segments, query) => {
        const { href, ours, standard } = bothReadings(`http://localhost:3000/${segments.map(encodeURIComponent).join("/")}?${query}`);
        expect(ours, href).toEqual(standard);
      }),
      fuzzParameters(0x5eed_0a12, 2000),
    );
    expect(cut).toBeGreaterThan(500);
  });
});

/** The reading `route` had before it was cut with `indexOf`: split at `/`, one trailing empty segment dropped. */
function routeBySplit(pathname: string, method: string, basePath: string) {
  if (!pathname.startsWith(`${basePath}/`)) return "outside";
  const segments = pathname.slice(basePath.length + 1).split("/");
  if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop();
  const [action, providerId, ...rest] = segments;
  const actions = ["session", "signin", "callback", "csrf", "webauthn-options"];
  if (!action || !actions.includes(action)) return "unknown action";
  const withProvider = ["signin", "callback", "webauthn-options"];
  if (rest.length > 0 || (providerId !== undefined && !withProvider.includes(action)) || providerId === "") return "not an auth path";
  const methods: Record<string, string[]> = { session: ["GET", "POST"], signin: ["GET", "POST"], callback: ["GET", "POST"], csrf: ["GET"], "webauthn-options": ["GET"] };
  const asMethod = method === "HEAD" ? "GET" : method;
  if (!methods[action]!.includes(asMethod)) return "method";
  return { action, method: asMethod, providerId };
}

function routeOrReason(pathname: string, method: string, basePath: string) {
  try {
    return { ...route(pathname, method, basePath) };
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownAction);
    const message = (error as Error).message;
    if (message.includes("outside the auth base path")) return "outside";
    if (message.startsWith("Unknown action")) return "unknown action";
    if (message.includes("is not an auth path")) return "not an auth path";
    return "method";
  }
}

describe("route reads what splitting the path reads", () => {
  it("for any path of auth-like segments", () => {
    const segment = fc.constantFrom("", "session", "signin", "callback", "csrf", "webauthn-options", "github", "auth", "api", "x.y", "authx");
    const path = fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join("/")}`);
    fc.assert(
      fc.property(path, fc.constantFrom("", "/auth", "/api/auth"), fc.constantFrom("GET", "POST", "HEAD", "PUT"), (pathname, basePath, method) => {
        expect(routeOrReason(pathname, method, basePath), `${method} ${pathname} under ${basePath || "/"}`).toEqual(routeBySplit(pathname, method, basePath));
      }),
      fuzzParameters(0x5eed_0a13, 3000),
    );
  });
});
