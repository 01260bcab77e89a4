/**
 * The override convention shared by the test peers: a key present with value `undefined`
 * removes that key, so a test can say "no email" or "no nonce" as `{ email: undefined }`.
 */

/** Spreads `overrides` over `base`, deleting the keys the overrides set to `undefined`. */
export function withOverrides<T extends Record<string, unknown>>(base: T, overrides: Partial<T> | undefined): T {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value === undefined) delete result[key];
    else result[key] = value;
  }
  return result as T;
}
