/**
 * Verification tokens: random, mailed in the link, stored only as a hash with the
 * secret, so a leaked database cannot be turned into sign-in links.
 */
import type { VerificationToken } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { nodeCrypto } from "../crypto/native-crypto.js";
import { randomBytes } from "../crypto/random.js";
import type { ResolvedEmailProvider } from "./provider.js";

const TOKEN_BYTES = 32;

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

export function newToken(): string {
  return hex(randomBytes(TOKEN_BYTES));
}

/**
 * SHA-256 of token + secret, in hex: the value Auth.js stores, so links survive a
 * move between the two. `node:crypto`'s synchronous hash where there is one (a
 * WebCrypto digest is a thread-pool round trip), WebCrypto elsewhere.
 */
export async function hashToken(token: string, secret: string): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash("sha256").update(`${token}${secret}`).digest("hex");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${token}${secret}`));
  return hex(new Uint8Array(digest));
}

/** The provider's own secret, else the config's secrets, newest first (a rotated secret still opens older links). */
export function tokenSecrets(ctx: RequestContext, provider: ResolvedEmailProvider): string[] {
  return provider.secret ? [provider.secret] : ctx.config.secrets;
}

/**
 * Takes the stored token matching `token` for `identifier` out of the store (it
 * can be used once), trying each secret. `null`: no such token (wrong, used, or
 * for another address).
 */
export async function useToken(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  identifier: string,
  token: string,
): Promise<VerificationToken | null> {
  return takeToken(ctx, tokenSecrets(ctx, provider), identifier, token);
}

/** `useToken` with the secrets given: for the runtime's other links (sign-up confirmation, password reset). */
export async function takeToken(ctx: RequestContext, secrets: readonly string[], identifier: string, token: string): Promise<VerificationToken | null> {
  for (const secret of secrets) {
    const hashed = await hashToken(token, secret);
    const stored = await callAdapter(ctx.config.adapter!, "useVerificationToken", { identifier, token: hashed });
    if (stored) return stored;
  }
  return null;
}
