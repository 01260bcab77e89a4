/**
 * The links of password accounts: random tokens, mailed, stored only as a hash
 * (the verification-token table of the email provider, so every adapter has
 * it), single use, expiring. Each link names what it is for in its stored
 * identifier, so a sign-up link cannot reset a password nor sign in by email.
 *
 * A reset link's identifier also carries a fingerprint of the password hash it
 * was issued for: once the password changes, every reset link issued before no
 * longer matches anything, so a reset (or a change) ends all the others without
 * a way to list or delete them.
 */
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { hashToken, newToken, takeToken } from "../email/token.js";

export type LinkPurpose = "confirm-sign-up" | "reset-password";

/** Stands for "no password yet" in a reset link's identifier. */
const NO_PASSWORD = "none";

/** The identifier a link is stored under. */
export async function linkIdentifier(purpose: LinkPurpose, email: string, passwordHash?: string | null): Promise<string> {
  const base = `gatehouse:${purpose}:${email}`;
  if (purpose !== "reset-password") return base;
  return `${base}:${await passwordFingerprint(passwordHash ?? null)}`;
}

/**
 * A short digest of the stored hash: changes whenever the password does. It is
 * stored where the hash itself is and tells less than it, so no secret goes in
 * (and rotating the secret does not end reset links).
 */
async function passwordFingerprint(passwordHash: string | null): Promise<string> {
  if (passwordHash === null) return NO_PASSWORD;
  return (await hashToken(passwordHash, "")).slice(0, 32);
}

/** Stores a new link's hash; returns the token to put in the mail. */
export async function issueLink(ctx: RequestContext, identifier: string, maxAge: number): Promise<string> {
  const token = newToken();
  const expires = new Date(Date.now() + maxAge * 1000);
  await callAdapter(ctx.config.adapter!, "createVerificationToken", { identifier, token: await hashToken(token, ctx.config.secrets[0]!), expires });
  return token;
}

/** Uses up the link if it exists: true when it did and had not expired. */
export async function takeLink(ctx: RequestContext, identifier: string, token: string): Promise<boolean> {
  const stored = await takeToken(ctx, ctx.config.secrets, identifier, token);
  return stored !== null && new Date(stored.expires).valueOf() > Date.now();
}
