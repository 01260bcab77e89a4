/**
 * Readers for raw provider profiles. APIs leave fields out, send `null`, or send
 * `""` for "none"; `profile()` mappings use these so a missing name, email or
 * avatar becomes `null` instead of a crash or an empty string. Internal: not
 * exported from `@gatehouse/runtime/providers` (core imports the email readers
 * from here directly).
 */

/** A non-empty string, or `null` for anything else (absent, `null`, `""`, a number...). */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * The provider's user id as a string (GitHub and GitLab send numbers), or
 * `undefined` when there is none: core then refuses the sign-in with a clear
 * error rather than storing an account under an empty id.
 */
export function accountId(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Name parts joined with a space, skipping missing ones; `null` when none is left. */
export function joinName(...parts: unknown[]): string | null {
  const present = parts.map(text).filter((part): part is string => part !== null);
  return present.length > 0 ? present.join(" ") : null;
}

/** The first of `values` that is a non-empty string, or `null`. */
export function firstText(...values: unknown[]): string | null {
  for (const value of values) {
    const found = text(value);
    if (found !== null) return found;
  }
  return null;
}

/** `https://example.com/` -> `https://example.com`: base URLs are joined with paths that start with `/`. */
export function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** `true`, or the string `"true"` that some providers put in JSON claims (Apple, Cognito's userinfo). */
export function isTrueClaim(value: unknown): boolean {
  return value === true || value === "true";
}

/**
 * The address the standard OpenID Connect `email_verified` claim vouches for:
 * the profile's `email` when the claim is `true` or `"true"`, else `null`
 * (`false`, `"false"`, absent, or no usable email). Core's default
 * `verifiedEmail`, and what the catalog's OIDC providers use.
 *
 * @example
 * ```ts
 * emailFromVerifiedClaim({ email: "ada@example.com", email_verified: "true" }) // "ada@example.com"
 * emailFromVerifiedClaim({ email: "ada@example.com" }) // null: no claim, no vouching
 * ```
 */
export function emailFromVerifiedClaim(profile: unknown): string | null {
  if (!profile || typeof profile !== "object") return null;
  const { email, email_verified } = profile as { email?: unknown; email_verified?: unknown };
  return isTrueClaim(email_verified) ? text(email) : null;
}

/** The standard OIDC claims a user is made of. */
export interface StandardClaims {
  sub?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  email?: unknown;
  picture?: unknown;
}

/**
 * The user of an OIDC provider that sends the standard claims: `sub`, the name
 * (or given + family name, or the provider's own fallback such as
 * `preferred_username`), email and picture.
 */
export function userFromStandardClaims(profile: StandardClaims, ...fallbackNames: unknown[]) {
  return {
    id: accountId(profile.sub),
    name: firstText(profile.name) ?? joinName(profile.given_name, profile.family_name) ?? firstText(...fallbackNames),
    email: text(profile.email),
    image: text(profile.picture),
  };
}
