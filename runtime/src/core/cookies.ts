/**
 * Cookie names, attributes, parsing, and the chunking of values too large for one
 * cookie. Cookies are values returned to the caller, never side effects.
 */
import { parse, serialize } from "cookie";
import type { Cookie, CookieOption, CookieSerializeOptions, CookiesOptions } from "../types.js";

export type CookieKey = keyof CookiesOptions;
export type CookieSet = Record<CookieKey, CookieOption>;

/** Browsers keep at most 4096 bytes of name, value and attributes per cookie. */
const MAX_COOKIE_BYTES = 4096;

/** Auth.js names and attributes; `__Secure-` on https, `__Host-` for the CSRF cookie. */
export function defaultCookies(secure: boolean): CookieSet {
  const prefix = secure ? "__Secure-" : "";
  const base: CookieSerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure };
  const shortLived = { ...base, maxAge: 60 * 15 };
  return {
    sessionToken: { name: `${prefix}authjs.session-token`, options: base },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options: base },
    csrfToken: { name: `${secure ? "__Host-" : ""}authjs.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${prefix}authjs.pkce.code_verifier`, options: shortLived },
    state: { name: `${prefix}authjs.state`, options: shortLived },
    nonce: { name: `${prefix}authjs.nonce`, options: base },
    webauthnChallenge: { name: `${prefix}authjs.challenge`, options: shortLived },
  };
}

/** Applies the user's `cookies` option over the defaults; an overridden cookie keeps exactly what the user set. */
export function mergeCookies(defaults: CookieSet, overrides: Partial<CookiesOptions> | undefined): CookieSet {
  if (!overrides) return defaults;
  const merged = { ...defaults };
  for (const key of Object.keys(defaults) as CookieKey[]) {
    const user = overrides[key];
    if (!user) continue;
    merged[key] = {
      name: user.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...user.options },
    };
  }
  return merged;
}

/** Parses a `Cookie` header. Malformed pairs are skipped, never thrown. */
export function parseCookies(header: string | null): Record<string, string> {
  if (!header) return {};
  const result: Record<string, string> = Object.create(null);
  try {
    const parsed = parse(header);
    for (const [name, value] of Object.entries(parsed)) {
      if (value !== undefined) result[name] = value;
    }
  } catch {
    // A header the parser cannot read carries no usable cookie.
  }
  return result;
}

export function serializeCookie(cookie: Cookie): string {
  const { maxAge, expires, ...rest } = cookie.options;
  const options: Parameters<typeof serialize>[2] = { ...rest };
  if (maxAge !== undefined) {
    options.maxAge = maxAge;
    // Expires too, for old clients that ignore Max-Age.
    options.expires = expires ?? new Date(Date.now() + maxAge * 1000);
  } else if (expires) {
    options.expires = expires;
  }
  return serialize(cookie.name, cookie.value, options);
}

/** A cookie that deletes `name` in the browser. */
export function expiredCookie(name: string, options: CookieSerializeOptions): Cookie {
  return { name, value: "", options: { ...options, maxAge: 0, expires: new Date(0) } };
}

const CHUNK_NAME = /^(.*)\.(\d+)$/;

/** Names of the chunks of `name` present in the request, in order. */
function chunkNames(cookies: Record<string, string>, name: string): string[] {
  const indexed: [number, string][] = [];
  for (const key of Object.keys(cookies)) {
    const match = CHUNK_NAME.exec(key);
    if (match && match[1] === name) indexed.push([Number(match[2]), key]);
  }
  return indexed.sort((a, b) => a[0] - b[0]).map(([, key]) => key);
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
