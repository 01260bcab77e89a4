/**
 * Cookie names, attributes, parsing, and the chunking of values too large for one
 * cookie. Cookies are values returned to the caller, never side effects.
 */
import { parse } from "cookie";
import { InvalidConfig } from "../errors/errors.js";
import type { Cookie, CookieOption, CookieSerializeOptions, CookiesOptions } from "../../model.js";

export type CookieKey = keyof CookiesOptions;
export type CookieSet = Record<CookieKey, CookieOption>;

/** Browsers keep at most 4096 bytes of name, value and attributes per cookie. */
const MAX_COOKIE_BYTES = 4096;
const HOST_PREFIX = "__Host-";

/**
 * Auth.js names and attributes, `__Secure-` on https; `__Host-` for the CSRF
 * cookie and for the cookies that bind a sign-in to the browser that started it
 * (OAuth state, PKCE verifier, nonce; the WebAuthn challenge). A `__Host-`
 * cookie can only be set by this host, so a sibling subdomain cannot plant
 * them (a `__Secure-` cookie it can, with `Domain=` the parent). The session
 * and callback-URL cookies keep Auth.js's names, which apps read.
 */
export function defaultCookies(secure: boolean): CookieSet {
  const prefix = secure ? "__Secure-" : "";
  const hostOnly = secure ? HOST_PREFIX : "";
  const base: CookieSerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure };
  const shortLived = { ...base, maxAge: 60 * 15 };
  return {
    sessionToken: { name: `${prefix}authjs.session-token`, options: base },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options: base },
    csrfToken: { name: `${hostOnly}authjs.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${hostOnly}authjs.pkce.code_verifier`, options: shortLived },
    state: { name: `${hostOnly}authjs.state`, options: shortLived },
    nonce: { name: `${hostOnly}authjs.nonce`, options: shortLived },
    webauthnChallenge: { name: `${hostOnly}authjs.challenge`, options: shortLived },
  };
}

/** Whether a `__Host-` cookie may carry these attributes wherever it is set: Path=/ and no Domain (`Secure` depends on the origin). */
function hostPrefixPlaceable(options: CookieSerializeOptions): boolean {
  return options.domain === undefined && (options.path ?? "/") === "/";
}

/** An HTTP token (RFC 9110): a header's name, and RFC 6265's cookie-name. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The characters a Domain or Path attribute may not hold. */
const ATTRIBUTE_VALUE = /^[\u0021-\u003A\u003C-\u007E]*$/;

/** Applies the user's `cookies` option over the defaults; an overridden cookie keeps exactly what the user set. */
export function mergeCookies(defaults: CookieSet, overrides: Partial<CookiesOptions> | undefined): CookieSet {
  if (!overrides) return defaults;
  const merged = { ...defaults };
  for (const key of Object.keys(defaults) as CookieKey[]) {
    const user = overrides[key];
    if (!user) continue;
    const options = { ...defaults[key].options, ...user.options };
    let name = user.name ?? defaults[key].name;
    if (name.startsWith(HOST_PREFIX) && !hostPrefixPlaceable(options)) {
      // Browsers drop such a cookie without a word: our own default yields to `__Secure-`; a name the user chose is an error.
      if (user.name !== undefined) {
        throw new InvalidConfig(
          `cookies.${key}.name is ${JSON.stringify(name)}, but a __Host- cookie must have Path "/" and no Domain; browsers would drop it. Change the name or the options.`,
        );
      }
      name = `${options.secure ? "__Secure-" : ""}${name.slice(HOST_PREFIX.length)}`;
    }
    const cookie = { name, options };
    if (!HTTP_TOKEN.test(cookie.name)) {
      throw new InvalidConfig(`cookies.${key}.name is ${JSON.stringify(cookie.name)}; a cookie name is letters, digits and !#$%&'*+-.^_\`|~ only.`);
    }
    for (const attribute of ["domain", "path"] as const) {
      const value = cookie.options[attribute];
      if (value !== undefined && (typeof value !== "string" || !ATTRIBUTE_VALUE.test(value))) {
        throw new InvalidConfig(`cookies.${key}.options.${attribute} is ${JSON.stringify(value)}; it may not contain spaces, ";" or control characters.`);
      }
    }
    merged[key] = cookie;
  }
  return merged;
}

/** Parses a `Cookie` header. Malformed pairs are skipped, never thrown. */
export function parseCookies(header: string | null): Record<string, string> {
  if (!header) return {};
  try {
    // A prototype-less object whose values are all strings (cookie@1: a value it cannot decode stays as sent).
    return parse(header) as Record<string, string>;
  } catch {
    // A header the parser cannot read carries no usable cookie.
    return {};
  }
}

/** Characters a cookie value may hold unencoded (RFC 6265 cookie-octet, minus `%` so decoding is unambiguous). */
const PLAIN_VALUE = /^[\u0021\u0023-\u0024\u0026-\u002B\u002D-\u003A\u003C-\u005B\u005D-\u007E]*$/;
const SAME_SITE = { lax: "Lax", strict: "Strict", none: "None" } as const;

/**
 * A `Set-Cookie` value. Names, domains and paths were checked when the config was
 * resolved; values are percent-encoded unless already plain (tokens and JWEs are).
 */
export function serializeCookie(cookie: Cookie): string {
  const { maxAge, expires, domain, path, httpOnly, secure, sameSite, partitioned, priority } = cookie.options;
  const value = PLAIN_VALUE.test(cookie.value) ? cookie.value : encodeURIComponent(cookie.value);
  let header = `${cookie.name}=${value}`;
  if (maxAge !== undefined) header += `; Max-Age=${Math.floor(maxAge)}`;
  // Expires too, for old clients that ignore Max-Age.
  const expiry = expires ?? (maxAge !== undefined ? new Date(Date.now() + maxAge * 1000) : undefined);
  if (expiry) header += `; Expires=${expiry.toUTCString()}`;
  if (domain) header += `; Domain=${domain}`;
  if (path) header += `; Path=${path}`;
  if (httpOnly) header += "; HttpOnly";
  if (secure) header += "; Secure";
  if (partitioned) header += "; Partitioned";
  if (priority) header += `; Priority=${priority[0]!.toUpperCase()}${priority.slice(1)}`;
  if (sameSite) header += `; SameSite=${sameSite === true ? "Strict" : SAME_SITE[sameSite]}`;
  return header;
}

/** A cookie that deletes `name` in the browser. */
function expiredCookie(name: string, options: CookieSerializeOptions): Cookie {
  return { name, value: "", options: { ...options, maxAge: 0, expires: new Date(0) } };
}

const CHUNK_INDEX = /^\d+$/;

const DOT = 0x2e;
const NO_CHUNKS: readonly string[] = Object.freeze([]);

/**
 * Names of the chunks of `name` present in the request (`name.<digits>`), in
 * order. Nothing is allocated when there are none, as on almost every request.
 */
function chunkNames(cookies: Record<string, string>, name: string): readonly string[] {
  let indexed: [number, string][] | undefined;
  for (const key in cookies) {
    if (key.startsWith(name) && key.charCodeAt(name.length) === DOT && CHUNK_INDEX.test(key.slice(name.length + 1))) {
      (indexed ??= []).push([Number(key.slice(name.length + 1)), key]);
    }
  }
  return indexed === undefined ? NO_CHUNKS : indexed.sort((a, b) => a[0] - b[0]).map(([, key]) => key);
}

/** Reads a possibly chunked value (`name`, or `name.0`, `name.1`, ...). */
export function readChunked(cookies: Record<string, string>, name: string): string | undefined {
  const chunks = chunkNames(cookies, name);
  if (chunks.length === 0) return cookies[name];
  let value = "";
  for (let i = 0; i < chunks.length; i++) {
    // A gap means a chunk was lost; the rest cannot form a valid value.
    if (chunks[i] !== `${name}.${i}`) break;
    value += cookies[chunks[i]!];
  }
  return value;
}

/** Cookies that store `value` under `name`, split in chunks when needed, clearing stale chunks. */
export function writeChunked(
  name: string,
  value: string,
  options: CookieSerializeOptions,
  requestCookies: Record<string, string>,
): Cookie[] {
  const overhead = serializeCookie({ name: `${name}.99`, value: "", options }).length;
  const chunkSize = MAX_COOKIE_BYTES - overhead;
  const present = new Set([name, ...chunkNames(requestCookies, name)].filter((n) => n in requestCookies));
  const out: Cookie[] = [];
  if (value.length <= chunkSize) {
    out.push({ name, value, options });
  } else {
    for (let i = 0; i * chunkSize < value.length; i++) {
      out.push({ name: `${name}.${i}`, value: value.slice(i * chunkSize, (i + 1) * chunkSize), options });
    }
  }
  const written = new Set(out.map((c) => c.name));
  for (const stale of present) if (!written.has(stale)) out.push(expiredCookie(stale, options));
  return out;
}

/** Cookies that delete `name` and every chunk of it present in the request. */
export function clearChunked(
  name: string,
  options: CookieSerializeOptions,
  requestCookies: Record<string, string>,
): Cookie[] {
  return [name, ...chunkNames(requestCookies, name)].map((n) => expiredCookie(n, options));
}
