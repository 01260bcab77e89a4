/**
 * The invariants, one function per property. Each throws an `Error` that says
 * what was wrong and shows the response; fast-check adds the case and its seed.
 */
import { cookieName, OUR_COOKIE_NAMES, type CookieKey } from "./cookies.js";
import { PROVIDER_IDS } from "./config-specs.js";
import type { Observation } from "./run.js";
import { ATTACKER_HOSTS, OLD_SECRET, SECRET, SENTINEL, SHORT_SECRET, XSS } from "./sentinels.js";

const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs.";

function fail(obs: Observation, what: string): never {
  const shown = obs.text.length > 3000 ? `${obs.text.slice(0, 3000)}\n[... ${obs.text.length - 3000} more characters]` : obs.text;
  throw new Error(`${what}\n--- ${obs.req.request.method} ${obs.req.request.url}\n--- response:\n${shown}`);
}

function header(obs: Observation, name: string): string | undefined {
  return obs.headers.find(([n]) => n === name)?.[1];
}

/** Exactly the generic Configuration answer: 500 with the JSON error or the error page, nothing more specific. */
export function isConfigurationAnswer(obs: Observation): boolean {
  if (obs.status !== 500) return false;
  const type = header(obs, "content-type") ?? "";
  if (type.startsWith("application/json")) {
    return obs.body === JSON.stringify({ error: "Configuration", message: CONFIGURATION_MESSAGE });
  }
  return type.startsWith("text/html") && obs.body.includes("There is a problem with the server configuration.");
}

function redirectError(obs: Observation): string | null {
  if (obs.redirect === undefined) return null;
  try {
    return new URL(obs.redirect).searchParams.get("error");
  } catch {
    return null;
  }
}

/** Property 1: 5xx only for an invalid config or a deliberate adapter fault, and then exactly the Configuration answer. */
export function checkStatus(obs: Observation): void {
  const { built } = obs;
  if (!built.valid) {
    if (!isConfigurationAnswer(obs)) fail(obs, "an invalid config must answer exactly the generic Configuration error (500)");
    return;
  }
  // Pages pass on an `error` the request itself carried (GET signin?error=..., GET error?error=Configuration, whose page is a 500): not the handler's error.
  const askedFor = new URL(obs.req.request.url).searchParams.getAll("error").includes("Configuration");
  if (obs.status >= 500) {
    if (!built.fault.fired && !askedFor) fail(obs, `5xx (${obs.status}) from a valid config without any adapter fault`);
    if (!isConfigurationAnswer(obs)) fail(obs, `${built.fault.fired ? "an adapter fault" : "the error page asked for a Configuration error"} must answer exactly the generic Configuration error`);
    return;
  }
  if (obs.status < 100 || obs.status > 599) fail(obs, `impossible status ${obs.status}`);
  if (redirectError(obs) === "Configuration" && !built.fault.fired && !askedFor) {
    fail(obs, "a valid config without any adapter fault redirected with error=Configuration");
  }
}

/** Patterns of a stack trace or source location. */
const STACK_PATTERNS = [/^ {4}at /gm, /\bat (?:async )?[\w.<>$]+ \([^)]*:\d+:\d+\)/g, /\.(?:[cm]?[jt]s|tsx?):\d+/g, /node:internal/g, /file:\/\/\//g];

/** Property 2: no secret, no planted sentinel (error messages of the adapter and the app), no stack trace. */
export function checkNoLeaks(obs: Observation): void {
  for (const secret of [SECRET, OLD_SECRET, SHORT_SECRET, SENTINEL]) {
    if (obs.text.includes(secret)) fail(obs, `the response contains ${JSON.stringify(secret)}`);
  }
  for (const pattern of STACK_PATTERNS) {
    for (const match of obs.text.matchAll(pattern)) {
      // What the request itself sent may come back (escaped, in a message or a page); that is no leak.
      if (!obs.req.material.includes(match[0])) fail(obs, `the response contains ${JSON.stringify(match[0])}, which looks like a stack trace`);
    }
  }
}

/** Property 3: a redirect goes to the public origin, a configured provider endpoint or a configured page. */
export function checkRedirect(obs: Observation): void {
  if (obs.redirect === undefined) return;
  let target: URL;
  try {
    target = new URL(obs.redirect);
  } catch {
    return fail(obs, `redirect to ${JSON.stringify(obs.redirect)}, which is not an absolute URL`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") fail(obs, `redirect to a ${target.protocol} URL`);
  if (ATTACKER_HOSTS.some((host) => target.hostname === host || target.hostname.endsWith(`.${host}`))) {
    fail(obs, `redirect to the attacker's host ${target.hostname}`);
  }
  const allowed = [obs.req.publicOrigin, ...obs.built.externalOrigins];
  if (!allowed.includes(target.origin)) {
    fail(obs, `redirect to ${target.origin}; allowed: ${allowed.join(", ")}`);
  }
}

/**
 * A rejected request: an error status, or a redirect that carries an `error`.
 * Not `error=ServerError`: the app's own code threw (a callback the fuzzer made
 * throw, after the handler may have done its part, such as creating the user),
 * which is no refusal by the handler.
 */
export function isRejected(obs: Observation): boolean {
  const error = redirectError(obs);
  return obs.status >= 400 || (error !== null && error !== "ServerError");
}

function isClearing(setCookie: string): boolean {
  return /^[^=]+=;/.test(setCookie) && /; (?:Max-Age=0|Expires=Thu, 01 Jan 1970)/.test(setCookie);
}

/**
 * Property 4: a rejected request changes nothing in the store and gives the
 * browser no new state, except a fresh CSRF cookie (the token it needs to retry).
 *
 * Two writes may come with a rejection, since they happen whatever the answer:
 * a sign-in link the request presented is used up (the adapter contract can only
 * check a token by taking it, and a link the `signIn` callback refused must not
 * stay usable; Auth.js does the same), and a session found past its expiry is
 * removed (the spec's transition table). After a deliberate adapter fault the
 * request may have been half done: the fault property checks that case.
 */
export function checkRejectedWritesNothing(obs: Observation): void {
  if (!isRejected(obs) || obs.built.fault.fired) return;
  const writes = obs.writes.filter((write) => !/^verificationToken .* used$/.test(write) && write !== "deleteSession(expired)");
  if (writes.length > 0) fail(obs, `a rejected request wrote to the store: ${writes.join(", ")}`);
  const csrf = cookieName("csrfToken", obs.req.secure);
  for (const setCookie of obs.setCookies) {
    if (!isClearing(setCookie) && !setCookie.startsWith(`${csrf}=`)) fail(obs, `a rejected request set a cookie: ${setCookie}`);
  }
}

/**
 * Whether a request says it came from another site, by the documented origin
 * rule: an Origin that is not exactly the public origin, Sec-Fetch-Site
 * cross-site, or same-site without an Origin.
 */
function isCrossSite(obs: Observation): boolean {
  const { headers } = obs.req.request;
  const origin = headers.get("origin");
  const site = headers.get("sec-fetch-site")?.trim().toLowerCase();
  return (origin !== null && origin !== obs.req.publicOrigin) || site === "cross-site" || (site === "same-site" && origin === null);
}

/** OAuth callbacks may come back by POST from the provider's site (`form_post`): the state binds them instead. */
const OAUTH_IDS = new Set([PROVIDER_IDS.oauth, PROVIDER_IDS.oidc]);

/**
 * Property 8: a state-changing POST (sign-in, sign-out, session update, the
 * callbacks of credentials, email and passkeys) from another site is refused
 * and changes nothing, whatever its CSRF pair: the server hands a valid pair
 * to anyone, and where cookies can be planted the token alone proves nothing.
 */
export function checkCrossSiteRefused(obs: Observation): void {
  const { spec } = obs.built;
  if (spec.kind !== "valid" || spec.skipCSRFCheck || obs.req.request.method !== "POST" || !isCrossSite(obs)) return;
  const path = new URL(obs.req.request.url).pathname;
  if (!path.startsWith(`${obs.built.basePath}/`)) return;
  const [action, provider] = path.slice(obs.built.basePath.length + 1).split("/");
  const changesState = action === "signin" || action === "signout" || action === "session" || (action === "callback" && provider !== undefined && !OAUTH_IDS.has(provider));
  if (!changesState) return;
  if (!isRejected(obs)) fail(obs, `a ${action} POST from another site (Origin ${obs.req.request.headers.get("origin")}, Sec-Fetch-Site ${obs.req.request.headers.get("sec-fetch-site")}) was not refused`);
  checkRejectedWritesNothing(obs);
}

/** What no canonical address holds: controls, format characters, surrogates, private use, separators, U+FFFD, ideographic full stops. */
const NOT_CANONICAL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Zs}\uFFFD\u3002\uFF0E\uFF61]/u;

/**
 * Property 9: every address stored (users, sign-in links) or mailed to is in
 * its one canonical form: no invisible characters or ideographic full stops,
 * NFKC, lower case. Another spelling of one mailbox would be another
 * rate-limit key and a look-alike account.
 */
export function checkAddressesCanonical(obs: Observation): void {
  for (const address of obs.addresses) {
    const canonical = address.normalize("NFKC").toLowerCase().normalize("NFKC");
    if (NOT_CANONICAL.test(address) || address !== canonical) fail(obs, `the address ${JSON.stringify(address)} was stored or mailed as is: not its canonical form`);
  }
}

/** RFC 6265 cookie-octets, and attribute values without `;` or controls. */
const SET_COOKIE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=([\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*)((?:; [A-Za-z-]+(?:=[\x20-\x3A\x3C-\x7E]*)?)*)$/;
const KEYS: CookieKey[] = ["sessionToken", "csrfToken", "callbackUrl", "state", "pkceCodeVerifier", "nonce", "webauthnChallenge"];

/** Property 5: every Set-Cookie is ours, well-formed, HttpOnly, SameSite=Lax, Path=/, Secure exactly on https. */
export function checkSetCookies(obs: Observation): void {
  const { secure } = obs.req;
  const names = new Set(KEYS.map((k) => cookieName(k, secure)));
  const session = cookieName("sessionToken", secure);
  for (const setCookie of obs.setCookies) {
    const match = SET_COOKIE.exec(setCookie);
    if (!match) fail(obs, `malformed Set-Cookie: ${JSON.stringify(setCookie)}`);
    const [, name, , rest] = match;
    const chunk = name!.startsWith(`${session}.`) && /^\d+$/.test(name!.slice(session.length + 1));
    if (!names.has(name!) && !chunk) {
      fail(obs, `Set-Cookie for ${JSON.stringify(name)}, which is not a cookie of the handler for this ${secure ? "https" : "http"} origin`);
    }
    const attributes = new Map(
      rest!
        .split("; ")
        .slice(1)
        .map((a) => {
          const i = a.indexOf("=");
          return (i === -1 ? [a.toLowerCase(), ""] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)]) as [string, string];
        }),
    );
    if (!attributes.has("httponly")) fail(obs, `${name} is not HttpOnly`);
    if (attributes.get("samesite") !== "Lax") fail(obs, `${name} is not SameSite=Lax`);
    if (attributes.get("path") !== "/") fail(obs, `${name} is not Path=/`);
    if (attributes.has("secure") !== secure) fail(obs, `${name} is ${secure ? "not " : ""}Secure on an ${secure ? "https" : "http"} origin`);
    if (attributes.has("domain")) fail(obs, `${name} has a Domain`);
    const maxAge = attributes.get("max-age");
    if (maxAge !== undefined && !/^-?\d+$/.test(maxAge)) fail(obs, `${name} has Max-Age ${maxAge}`);
    const expires = attributes.get("expires");
    if (expires !== undefined && Number.isNaN(Date.parse(expires))) fail(obs, `${name} has Expires ${expires}`);
  }
}

/** Headers the handler sends; any other name would have come from somewhere else. */
const RESPONSE_HEADERS = new Set([
  "cache-control",
  "content-security-policy",
  "content-type",
  "expires",
  "location",
  "pragma",
  "referrer-policy",
  // A refused attempt (429): seconds, checked below.
  "retry-after",
  "set-cookie",
  "x-content-type-options",
]);

/**
 * Property 6: no header carries request input unescaped: names are the
 * handler's own, values printable ASCII without `<`, `>` or `"`, `Location` a
 * serialized URL; and no built-in page carries the request's markup unescaped.
 */
export function checkNoInjection(obs: Observation): void {
  for (const [name, value] of obs.headers) {
    if (!RESPONSE_HEADERS.has(name)) fail(obs, `unexpected response header ${JSON.stringify(name)}`);
    if (!/^[\x20-\x7e]*$/.test(value)) fail(obs, `header ${name} has a control or non-ASCII character: ${JSON.stringify(value)}`);
    if (name !== "content-security-policy" && /[<>"]/.test(value)) fail(obs, `header ${name} carries markup: ${JSON.stringify(value)}`);
    if (name === "retry-after" && !/^\d{1,6}$/.test(value)) fail(obs, `Retry-After ${JSON.stringify(value)} is not a number of seconds`);
  }
  const location = header(obs, "location");
  if (location !== undefined) {
    let href: string | undefined;
    try {
      href = new URL(location).href;
    } catch {
      href = undefined;
    }
    // The fallback redirect is the bare origin, e.g. `http://localhost:3000` (href adds the slash).
    if (href !== location && href !== `${location}/`) fail(obs, `Location ${JSON.stringify(location)} is not a serialized absolute URL`);
  }
  for (const setCookie of obs.setCookies) {
    const name = setCookie.slice(0, setCookie.indexOf("="));
    if (!OUR_COOKIE_NAMES.includes(name.replace(/\.\d+$/, ""))) fail(obs, `Set-Cookie for a name the request chose: ${name}`);
  }
  if ((header(obs, "content-type") ?? "").startsWith("text/html") && obs.body.includes(XSS)) {
    fail(obs, "a page carries the request's markup unescaped");
  }
}
