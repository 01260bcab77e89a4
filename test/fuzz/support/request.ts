/**
 * One fuzzed request as plain data, and the `Request` it becomes for a given
 * config; plus the public origin the handler should derive for it (the oracle
 * for redirects and cookie attributes).
 */
import * as fc from "fast-check";
import type { BuiltConfig } from "./build-config.js";
import { bodyArb, buildBody, type BodySpec } from "./bodies.js";
import { buildCookieHeader, cookieName, cookiesArb, type CookieEntrySpec, type CookieSpec } from "./cookies.js";
import { buildHeaders, headersArb, type HeaderSpec } from "./headers.js";
import { bodyless, methodArb } from "./methods.js";
import { buildPath, pathArb, type PathSpec } from "./paths.js";
import { buildQuery, callbackUrlArb, queryArb, type QuerySpec } from "./query.js";
import { PLANTED } from "./sentinels.js";

export interface RequestSpec {
  /** Scheme, host and port of the request URL. */
  origin: string;
  method: string;
  path: PathSpec;
  query: QuerySpec;
  headers: HeaderSpec;
  cookies: CookieSpec;
  body: BodySpec;
}

export const ORIGINS = ["http://localhost:3000", "https://app.example.com", "http://127.0.0.1:8080", "http://[::1]:3000", "https://xn--bcher-kva.example", "http://localhost"];

/** Anything: every part drawn on its own. */
const anyRequestArb: fc.Arbitrary<RequestSpec> = fc.record({
  origin: fc.constantFrom(...ORIGINS),
  method: methodArb,
  path: pathArb,
  query: queryArb,
  headers: headersArb,
  cookies: cookiesArb,
  body: bodyArb,
});

/**
 * The requests of real flows, which reach the store: right method and path, the
 * fields the flow reads, often a live session, mostly a valid CSRF pair (else the
 * random one, so that refused flows with a live session are tried too).
 */
/** Real flows, weighted towards the ones that change state. */
const FLOWS: { method: string; action: string; provider?: true }[] = [
  { method: "GET", action: "csrf" },
  { method: "GET", action: "signin" },
  ...Array<{ method: string; action: string }>(2).fill({ method: "GET", action: "session" }),
  ...Array<{ method: string; action: string }>(2).fill({ method: "POST", action: "session" }),
  ...Array<{ method: string; action: string }>(2).fill({ method: "POST", action: "signout" }),
  ...Array<{ method: string; action: string; provider: true }>(4).fill({ method: "POST", action: "signin", provider: true }),
  ...Array<{ method: string; action: string; provider: true }>(2).fill({ method: "GET", action: "callback", provider: true }),
  ...Array<{ method: string; action: string; provider: true }>(4).fill({ method: "POST", action: "callback", provider: true }),
  { method: "GET", action: "webauthn-options", provider: true },
];

const liveSessionArb: fc.Arbitrary<CookieEntrySpec[]> = fc.constantFrom<CookieEntrySpec[]>(
  [],
  [{ kind: "ours", key: "sessionToken", variant: "auto", value: { kind: "live" } }],
  [{ kind: "ours", key: "sessionToken", variant: "auto", value: { kind: "live" } }],
  [{ kind: "ours", key: "sessionToken", variant: "auto", value: { kind: "live" } }],
  [{ kind: "chunks", variant: "auto", value: { kind: "live" }, parts: 2, arrangement: "ordered" }],
);

/** The fields a real flow sends: an address to mail, a link's token, credentials. */
const flowFieldsArb: fc.Arbitrary<[string, string][]> = fc
  .record(
    {
      email: fc.constantFrom(PLANTED.user.email, PLANTED.user.email, "new.person@example.com", "fail@example.com"),
      token: fc.constantFrom(PLANTED.linkToken, PLANTED.linkToken, "wrong-token"),
      username: fc.constantFrom("ada", "ada", "deny", "boom"),
      password: fc.constantFrom("correct horse", "correct horse", "wrong"),
      callbackUrl: callbackUrlArb,
    },
    { requiredKeys: ["email", "token", "username", "password"] },
  )
  .map((fields) => Object.entries(fields));

/** `fields` put into the body (replacing fields of the same name), or the query of a GET. */
function withFields(r: RequestSpec, fields: [string, string][]): Pick<RequestSpec, "body" | "query"> {
  const names = new Set(fields.map(([name]) => name));
  if (r.method === "GET") return { body: r.body, query: { ...r.query, pairs: [...fields, ...r.query.pairs.filter(([name]) => !names.has(name))] } };
  if (r.body.kind === "json") return { query: r.query, body: { kind: "json", fields: [...fields, ...r.body.fields.filter(([name]) => !names.has(name))] } };
  const own = r.body.kind === "form" ? r.body.fields.filter(([name]) => !names.has(name)) : [];
  return { query: r.query, body: { kind: "form", fields: [...fields, ...own], csrfTwice: false } };
}

export const flowRequestArb: fc.Arbitrary<RequestSpec> = fc
  .tuple(anyRequestArb, fc.constantFrom(...FLOWS), fc.nat({ max: 4 }), liveSessionArb, flowFieldsArb, fc.constantFrom(true, true, false))
  .map(([any, flow, configured, session, fields, validCsrf]) => {
    const r: RequestSpec = {
      ...any,
      method: flow.method,
      path: { prefix: "base", action: flow.action, provider: flow.provider ? { configured } : undefined, extra: [], trailingSlash: false, doubleSlash: false },
      headers: { ...any.headers, contentType: "auto", contentLength: null },
      cookies: { entries: [...session, ...any.cookies.entries], csrf: validCsrf ? { cookie: "valid", variant: "auto", body: "match" } : any.cookies.csrf },
    };
    return { ...r, ...withFields(r, fields) };
  });

/** Anything, or a real flow, half and half. */
export const requestArb: fc.Arbitrary<RequestSpec> = fc.oneof({ weight: 1, arbitrary: anyRequestArb }, { weight: 1, arbitrary: flowRequestArb });

export interface BuiltRequest {
  request: Request;
  /** The public origin the handler must use for this request. */
  publicOrigin: string;
  /** Whether its cookies must be `Secure` (and `__Secure-`/`__Host-` named). */
  secure: boolean;
  /** Everything the request carried, as text: a response may repeat it (escaped) without leaking anything. */
  material: string;
}

/** A plain host: DNS labels or a bracketed IPv6 address, and a port. */
const PLAIN_HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The public origin by the documented rule: `url` if configured; else the first
 * `X-Forwarded-Host` (with `X-Forwarded-Proto`, else the request's scheme) when
 * it is a plain host that http(s) reads as itself; else the request URL's origin.
 */
export function expectedPublicOrigin(requestUrl: URL, headers: Headers, built: BuiltConfig): string {
  if (built.fixedOrigin) return built.fixedOrigin;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (host && PLAIN_HOST.test(host)) {
    const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? requestUrl.protocol.slice(0, -1);
    if (proto === "http" || proto === "https") {
      try {
        const forwarded = new URL(`${proto}://${host}`);
        if (forwarded.host === host.toLowerCase()) return forwarded.origin;
      } catch {
        // not a host: the request URL's origin
      }
    }
  }
  return requestUrl.origin;
}

function decodedOrSelf(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** @param jar a browser's cookies (name to raw value) from earlier answers, sent along. */
export async function buildRequest(spec: RequestSpec, built: BuiltConfig, jar?: ReadonlyMap<string, string>): Promise<BuiltRequest> {
  const url = `${spec.origin}${buildPath(spec.path, built.basePath, built.providerIds)}${buildQuery(spec.query)}`;
  const { type } = buildBody(spec.body, spec.cookies.csrf);
  const headers = buildHeaders(spec.headers, bodyless(spec.method) ? null : type);
  const requestUrl = new URL(url);
  const publicOrigin = expectedPublicOrigin(requestUrl, headers, built);
  const secure = built.useSecureCookies ?? publicOrigin.startsWith("https:");
  const issued = jar?.get(cookieName("csrfToken", secure))?.split("|")[0];
  const { body } = bodyless(spec.method) ? { body: undefined } : buildBody(spec.body, spec.cookies.csrf, issued);
  const cookie = await buildCookieHeader(spec.cookies, built, secure, jar);
  if (cookie !== null) headers.set("cookie", cookie);
  const request = new Request(url, { method: spec.method, headers, body });
  const bodyText = body === undefined ? "" : typeof body === "string" ? body : new TextDecoder().decode(body);
  const headerText = [...headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  const material = [url, decodedOrSelf(url), headerText, decodedOrSelf(headerText), bodyText, decodedOrSelf(bodyText)].join("\n");
  return { request, publicOrigin, secure, material };
}

/**
 * A browser's visit: two to five requests, mostly real flows, all to the same
 * site (the first request's origin and proxy headers), so the cookies one answer
 * sets are the ones the next request sends.
 */
export const visitArb: fc.Arbitrary<RequestSpec[]> = fc
  .array(fc.oneof({ weight: 3, arbitrary: flowRequestArb }, { weight: 1, arbitrary: anyRequestArb }), { minLength: 2, maxLength: 5 })
  .map((visit) => {
    const [{ origin, headers }] = visit as [RequestSpec];
    const site = { forwardedHost: headers.forwardedHost, forwardedProto: headers.forwardedProto };
    return visit.map((r) => ({ ...r, origin, headers: { ...r.headers, ...site } }));
  });
