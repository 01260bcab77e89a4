/**
 * Double-submit CSRF tokens. The cookie holds `token|hash` with
 * hash = SHA-256(token + secret), so a cookie nobody got from the server is
 * refused; a state-changing POST must echo `token` in its body. The server gives
 * a valid pair to anyone, though: where an attacker can plant a cookie (plain
 * http, a sibling subdomain) the token alone proves nothing, which is why
 * `requireCsrf` checks where the POST came from first (`request-origin.ts`).
 * Any secret of the rotation list validates a cookie, so rotating the secret
 * does not break open forms.
 *
 * SHA-256 is synchronous: `node:crypto`'s where the runtime has it, else
 * `@noble/hashes`; `crypto.subtle.digest` is a round trip through the thread pool
 * that costs more than the rest of the request.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { nodeCrypto } from "../crypto/native-crypto.js";
import { randomBytes } from "../crypto/random.js";

const encoder = new TextEncoder();

function sha256Hex(text: string): string {
  if (nodeCrypto) return nodeCrypto.createHash("sha256").update(text).digest("hex");
  return bytesToHex(sha256(encoder.encode(text)));
}

/** Compares without an early exit, so timing tells nothing about where strings differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function newCsrfToken(): string {
  return bytesToHex(randomBytes(32));
}

export function csrfCookieValue(token: string, secret: string): string {
  return `${token}|${sha256Hex(`${token}${secret}`)}`;
}

export interface CsrfCookie {
  token: string;
  /** The cookie was made with an older secret and should be re-issued with the newest. */
  stale: boolean;
}

const COOKIE_SHAPE = /^[0-9a-f]{64}\|[0-9a-f]{64}$/;

/** The token inside a valid cookie, or `null` when the cookie is absent, malformed or forged. */
export function readCsrfCookie(value: string | undefined, secrets: string[]): CsrfCookie | null {
  if (!value || !COOKIE_SHAPE.test(value)) return null;
  const [token, hash] = value.split("|") as [string, string];
  for (let i = 0; i < secrets.length; i++) {
    if (timingSafeEqual(sha256Hex(`${token}${secrets[i]}`), hash)) return { token, stale: i > 0 };
  }
  return null;
}
