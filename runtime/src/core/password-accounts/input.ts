/**
 * What the password forms send, checked before anything is looked up, hashed or
 * stored. A refusal is a code (safe in a URL) that the form's page turns into a
 * fixed message; none of them says whether an address has an account.
 */
import { profileName } from "../account/profile.js";
import { normalizeEmail } from "../identity/email-address.js";
import type { PasswordRuntime } from "./provider.js";

export type InputProblem = "invalid-email" | "invalid-name" | "name-too-long" | "short-password" | "long-password";

export type Checked<T> = { ok: true; value: T } | { ok: false; code: InputProblem };

/** The address in its canonical form (`normalizeEmail`), or `invalid-email`. */
export function submittedEmail(value: unknown): Checked<string> {
  if (typeof value !== "string") return { ok: false, code: "invalid-email" };
  try {
    return { ok: true, value: normalizeEmail(value) };
  } catch {
    return { ok: false, code: "invalid-email" };
  }
}

/**
 * A new password (sign-up, reset): long enough and not too long. Length in
 * code points after NFKC, as it is hashed, so an emoji counts once.
 */
export function newPassword(value: unknown, limits: Pick<PasswordRuntime, "minLength" | "maxLength">): Checked<string> {
  if (typeof value !== "string") return { ok: false, code: "short-password" };
  const length = [...value.normalize("NFKC")].length;
  if (length < limits.minLength) return { ok: false, code: "short-password" };
  if (value.length > limits.maxLength) return { ok: false, code: "long-password" };
  return { ok: true, value };
}

/**
 * An optional display name, by the one rule every name follows (`profileName`,
 * as the account page saves it): NFC, trimmed, at most 100 characters, no
 * control or format character (NUL made PostgreSQL fail the sign-up with a 500;
 * a line break or a bidi override would forge text in a mail or a page).
 * Not a string (a repeated field): none.
 */
export function submittedName(value: unknown): Checked<string | null> {
  if (typeof value !== "string") return { ok: true, value: null };
  const checked = profileName(value);
  return checked.ok ? { ok: true, value: checked.name } : { ok: false, code: checked.code };
}

/** A token from a link: tokens we make are 64 hex characters; anything else cannot match. */
export function submittedToken(value: unknown): string | undefined {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}
