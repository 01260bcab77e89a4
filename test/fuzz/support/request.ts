/**
 * One fuzzed request as plain data, and the `Request` it becomes for a given
 * config; plus the public origin the handler should derive for it (the oracle
 * for redirects and cookie attributes).
 */
import * as fc from "fast-check";
import type { BuiltConfig } from "./build-config.js";
import { bodyArb, buildBody, emailArb, KNOWN_ADDRESSES, type BodySpec } from "./bodies.js";
import { sometimesTainted, taintedAddressArb } from "./characters.js";
import { buildCookieHeader, cookieName, cookiesArb, plantedChecksArb, type CookieEntrySpec, type CookieSpec } from "./cookies.js";
import { buildHeaders, headersArb, originValue, type HeaderSpec, type RelativeOrigin } from "./headers.js";
import { bodyless, methodArb } from "./methods.js";
import { buildPath, pathArb, providerIdOf, type PathSpec } from "./paths.js";
import { buildQuery, callbackUrlArb, queryArb, type QuerySpec } from "./query.js";
import { PROVIDER_IDS } from "./config-specs.js";
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

/** A made-up WebAuthn answer: well-formed enough to be read, never verified. */
const PASSKEY_ANSWER = JSON.stringify({
  id: "cGxhbnRlZA",
  rawId: "cGxhbnRlZA",
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA", userHandle: "dXNlci1wbGFudGVk", attestationObject: "o2Nmb3JtZG5vbmU" },
  clientExtensionResults: {},
});

/**
 * The fields a real flow sends: an address to mail, a link's token, credentials,
 * an OAuth response; each sometimes with odd characters in it (addresses as
 * spellings of real ones), so that they reach the store and the mailer too.
 */
const flowFieldsArb: fc.Arbitrary<[string, string][]> = fc
  .record(
    {
      email: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(PLANTED.user.email, PLANTED.user.email, "new.person@example.com", "fail@example.com") },
        { weight: 3, arbitrary: taintedAddressArb(KNOWN_ADDRESSES) },
        { weight: 1, arbitrary: emailArb },
      ),
      token: sometimesTainted(fc.constantFrom(PLANTED.linkToken, PLANTED.linkToken, "wrong-token")),
      username: sometimesTainted(fc.constantFrom("ada", "ada", "deny", "boom")),
      password: sometimesTainted(fc.constantFrom("correct horse", "correct horse", "wrong")),
      name: sometimesTainted(fc.constant("Ada Lovelace")),
      callbackUrl: sometimesTainted(callbackUrlArb),
      state: fc.constantFrom(PLANTED.oauthState, PLANTED.oauthState, "other-state"),
      code: fc.constant("fuzz-code"),
      // A passkey answer, for the challenge a planted cookie may hold.
      action: sometimesTainted(fc.constantFrom("register", "authenticate")),
      data: fc.constant(PASSKEY_ANSWER),
    },
    { requiredKeys: ["email", "token", "username", "password"] },
  )
  .map((fields) => Object.entries(fields));

/** Check cookies a flow may find planted beside (or instead of) its own. */
const flowPlantedArb: fc.Arbitrary<CookieEntrySpec[]> = fc.oneof({ weight: 2, arbitrary: fc.constant<CookieEntrySpec[]>([]) }, { weight: 1, arbitrary: plantedChecksArb.map((entry) => [entry]) });

/** `fields` put into the body (replacing fields of the same name), or the query of a GET. */
function withFields(r: RequestSpec, fields: [string, string][]): Pick<RequestSpec, "body" | "query"> {
  const names = new Set(fields.map(([name]) => name));
  if (r.method === "GET") return { body: r.body, query: { ...r.query, pairs: [...fields, ...r.query.pairs.filter(([name]) => !names.has(name))] } };
  if (r.body.kind === "json") return { query: r.query, body: { kind: "json", fields: [...fields, ...r.body.fields.filter(([name]) => !names.has(name))] } };
  const own = r.body.kind === "form" ? r.body.fields.filter(([name]) => !names.has(name)) : [];
  return { query: r.query, body: { kind: "form", fields: [...fields, ...own], csrfTwice: false } };
}

export const flowRequestArb: fc.Arbitrary<RequestSpec> = fc
  .tuple(anyRequestArb, fc.constantFrom(...FLOWS), fc.nat({ max: 4 }), liveSessionArb, flowFieldsArb, fc.constantFrom(true, true, false), flowPlantedArb, fc.boolean())
  .map(([any, flow, configured, session, allFields, validCsrf, planted, oauthResponse]) => {
    // An OAuth provider's answer carries no `token` (oauth4webapi reads one as the implicit flow): half the callbacks leave it out.
    const fields = oauthResponse && flow.action === "callback" ? allFields.filter(([name]) => name !== "token") : allFields;
    const r: RequestSpec = {
      ...any,
      method: flow.method,
      path: { prefix: "base", action: flow.action, provider: flow.provider ? { configured } : undefined, extra: [], trailingSlash: false, doubleSlash: false },
      headers: { ...any.headers, contentType: "auto", contentLength: null },
      cookies: { entries: [...session, ...planted, ...any.cookies.entries], csrf: validCsrf ? { cookie: "valid", variant: "auto", body: "match" } : any.cookies.csrf },
    };
    return { ...r, ...withFields(r, fields) };
  });

/**
 * What a page of another site (or a sibling host) shows of itself when it posts:
 * an Origin that is not the app's (`null`, foreign, a sibling, near misses of
 * the app's own), or Sec-Fetch-Site cross-site, or same-site without an Origin.
 */
const crossSiteArb: fc.Arbitrary<Pick<HeaderSpec, "origin" | "secFetchSite">> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      origin: fc.oneof(
        fc.constantFrom<RelativeOrigin["like"]>("sibling", "other-scheme", "trailing-slash", "upper-case", "port").map((like): RelativeOrigin => ({ like })),
        fc.constantFrom("null", "https://evil.com", "http://evil.example", "file://", ""),
      ),
      secFetchSite: fc.constantFrom(null, "cross-site", "same-site", "same-origin", "none"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ origin: fc.constant(null), secFetchSite: fc.constantFrom("cross-site", "same-site", "CROSS-SITE", " cross-site ", "Same-Site") }) },
  { weight: 1, arbitrary: fc.record({ origin: fc.constant<RelativeOrigin>({ like: "self" }), secFetchSite: fc.constantFrom("cross-site", "CROSS-SITE") }) },
);

/**
 * The POSTs of real flows from another site, with everything else right: a
 * valid CSRF pair minted with the config's secret (which anyone can get, and
 * plant where cookies can be planted), often a live session.
 */
export const crossSiteFlowArb: fc.Arbitrary<RequestSpec> = fc
  .tuple(flowRequestArb.filter((r) => r.method === "POST"), crossSiteArb)
  .map(([r, site]) => ({ ...r, headers: { ...r.headers, ...site }, cookies: { ...r.cookies, csrf: { cookie: "valid", variant: "auto", body: "match" } } }));

/**
 * The email provider's flows (ask for a link, open it, confirm it) with an
 * address that is mostly a spelling of a known one with odd characters in it,
 * and the planted link's token.
 */
export const emailFlowArb: fc.Arbitrary<RequestSpec> = fc
  .tuple(
    flowRequestArb,
    fc.constantFrom(["POST", "signin"], ["POST", "signin"], ["GET", "callback"], ["POST", "callback"]),
    fc.oneof({ weight: 4, arbitrary: taintedAddressArb(KNOWN_ADDRESSES) }, { weight: 1, arbitrary: emailArb }, { weight: 1, arbitrary: fc.constant<string>(PLANTED.user.email) }),
  )
  .map(([r, [method, action], email]) => {
    const flow: RequestSpec = { ...r, method, path: { ...r.path, action, provider: PROVIDER_IDS.email } };
    return { ...flow, ...withFields(flow, [["email", email], ["token", PLANTED.linkToken]]) };
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
 * it is a plain host that http(s) reads as itself, and the request URL's origin
 * when it is not; without a forwarded host, the request's host on the scheme
 * `X-Forwarded-Proto` names (http or https, any case); else the request URL's origin.
 */
export function expectedPublicOrigin(requestUrl: URL, headers: Headers, built: BuiltConfig): string {
  if (built.fixedOrigin) return built.fixedOrigin;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const forwardedProto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (host) {
    const proto = forwardedProto ?? requestUrl.protocol.slice(0, -1);
    return (PLAIN_HOST.test(host) && originOn(proto, host)) || requestUrl.origin;
  }
  if (forwardedProto) return originOn(forwardedProto, requestUrl.host) || requestUrl.origin;
  return requestUrl.origin;
}

/** `proto://host`'s origin when the scheme is http(s) and the URL parser reads the host as itself; else "". */
function originOn(proto: string, host: string): string {
  if (proto !== "http" && proto !== "https") return "";
  try {
    const url = new URL(`${proto}://${host}`);
    return url.host === host.toLowerCase() ? url.origin : "";
  } catch {
    return "";
  }
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
  const origin = originValue(spec.headers.origin, publicOrigin);
  if (origin !== null) headers.set("origin", origin);
  const secure = built.useSecureCookies ?? publicOrigin.startsWith("https:");
  const issued = jar?.get(cookieName("csrfToken", secure))?.split("|")[0];
  const { body } = bodyless(spec.method) ? { body: undefined } : buildBody(spec.body, spec.cookies.csrf, issued);
  const cookie = await buildCookieHeader(spec.cookies, built, { secure, provider: providerIdOf(spec.path.provider, built.providerIds) }, jar);
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
