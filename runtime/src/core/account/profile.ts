/**
 * The user's own profile fields: for now the display name (`POST
 * update-profile`). The email address is not among them: changing it needs
 * the new address proven first.
 */

/** Longer than any name a sign-in provider sends in practice, short enough for any page. */
export const MAX_NAME_LENGTH = 100;

/**
 * Characters a name must not hold: controls (a line break would forge lines in
 * a mail or a log) and invisible format characters (bidi overrides and the
 * like would make a name read as something else).
 */
const FORBIDDEN_IN_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export type NameInput = { ok: true; name: string | null } | { ok: false; code: "invalid-name" | "name-too-long" };

/** The name as it is stored: trimmed and NFC-normalised; an empty one clears it. */
export function profileName(value: unknown): NameInput {
  if (value === undefined || value === null) return { ok: true, name: null };
  if (typeof value !== "string") return { ok: false, code: "invalid-name" };
  const name = value.normalize("NFC").trim();
  if (FORBIDDEN_IN_NAME.test(name)) return { ok: false, code: "invalid-name" };
  // Counted in characters (code points), as a person counts them.
  if ([...name].length > MAX_NAME_LENGTH) return { ok: false, code: "name-too-long" };
  return { ok: true, name: name === "" ? null : name };
}
