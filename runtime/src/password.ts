/**
 * `@gatehouse/runtime/password`: hashing and checking the passwords of email +
 * password accounts, one reviewed implementation for every app instead of a
 * copy in each.
 *
 * scrypt with N = 2^15, r = 8, p = 3 (32 MiB, one of OWASP's recommended
 * settings), a 16-byte random salt and a 32-byte key, stored as a PHC string
 * (`$scrypt$ln=15,r=8,p=3$<salt>$<key>`) that carries its parameters.
 * Passwords are NFKC-normalized first, so the same password typed on another
 * keyboard (full-width digits, composed accents) gives the same hash. A few
 * hashes run at once and a bounded number wait; past that, both functions
 * throw `PasswordHashingBusy` at once (the handler answers 429).
 *
 * @example Sign-up, sign-in, and raising the parameters later
 * ```ts
 * import { hashPassword, passwordMatches, passwordNeedsRehash } from "@gatehouse/runtime/password";
 *
 * const stored = await hashPassword(password); // at sign-up
 * if (await passwordMatches(password, stored)) {
 *   // at sign-in: signed in; store a new hash when this one is weaker than today's parameters
 *   if (passwordNeedsRehash(stored)) await savePasswordHash(userId, await hashPassword(password));
 * }
 * ```
 */
import { passwordHashGate } from "./core/password/gate.js";
import { formatHash, parseHash, type ScryptParams } from "./core/password/phc.js";
import { deriveKey } from "./core/password/scrypt.js";

export { PasswordHashingBusy } from "./core/password/gate.js";

/** The parameters new hashes are made with. */
export const PASSWORD_HASH_PARAMS: Readonly<ScryptParams> = Object.freeze({ ln: 15, r: 8, p: 3 });

/** The longest password accepted: it bounds the work one request can ask for, and longer ones gain nothing. */
export const MAX_PASSWORD_LENGTH = 1024;

const SALT_BYTES = 16;
const KEY_BYTES = 32;

function encode(password: string): Uint8Array {
  return new TextEncoder().encode(password.normalize("NFKC"));
}

/** A new PHC string for `password`, with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== "string") throw new TypeError("hashPassword: the password must be a string.");
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await passwordHashGate.run(() => deriveKey(encode(password), salt, PASSWORD_HASH_PARAMS, KEY_BYTES));
  return formatHash(PASSWORD_HASH_PARAMS, salt, key);
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant
 * time. `false` for a `stored` that is not a hash this module reads (or asks
 * for more work than it allows), never a throw: a damaged row refuses the
 * sign-in rather than failing it.
 */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  if (typeof password !== "string") return false;
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const actual = await passwordHashGate.run(() => deriveKey(encode(password), parsed.salt, parsed, parsed.key.length));
  return constantTimeEqual(actual, parsed.key);
}

/**
 * Whether `stored` should be replaced at the next successful sign-in: made in
 * the older format, with weaker parameters than `PASSWORD_HASH_PARAMS`, or not
 * readable at all.
 */
export function passwordNeedsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed || parsed.legacy) return true;
  const current = PASSWORD_HASH_PARAMS;
  return parsed.ln < current.ln || parsed.r < current.r || parsed.p < current.p || parsed.key.length < KEY_BYTES || parsed.salt.length < SALT_BYTES;
}

/** Equal length and bytes, in time that depends only on the length. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
