/**
 * The stored form of a password hash: a PHC string
 * (https://github.com/P-H-C/phc-string-format), `$scrypt$ln=15,r=8,p=3$<salt>$<key>`
 * with unpadded standard base64, the form passlib and other scrypt libraries
 * read. The parameters travel with every hash, so they can be raised later:
 * a hash made with weaker ones still verifies, and `passwordNeedsRehash` says
 * to replace it at the next sign-in.
 *
 * Also read: `$scrypt$N=32768,r=8,p=3$<salt>$<key>` (padded base64), what apps
 * made by auth-init stored before the runtime hashed their passwords.
 */

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

export interface ParsedHash extends ScryptParams {
  salt: Uint8Array;
  key: Uint8Array;
  /** Written in the form apps stored before the PHC one. */
  legacy: boolean;
}

/**
 * Bounds on what a stored hash may ask for, so a corrupted or planted row
 * cannot make one sign-in take minutes or gigabytes: N up to 2^20, r up to 32,
 * p up to 16, 128 * N * r bytes of memory at most 1 GiB.
 */
const MAX = { ln: 20, r: 32, p: 16, memory: 1024 ** 3 };
const MIN_SALT = 8;
const MIN_KEY = 16;
const MAX_BYTES = 1024;

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const LEGACY = /^\$scrypt\$N=(\d{1,8}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** `bytes` as standard base64 without padding. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, "");
}

function fromBase64(text: string): Uint8Array | null {
  const unpadded = text.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return null;
  try {
    const binary = atob(unpadded + "=".repeat((4 - (unpadded.length % 4)) % 4));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

export function formatHash(params: ScryptParams, salt: Uint8Array, key: Uint8Array): string {
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${toBase64(salt)}$${toBase64(key)}`;
}

/** The parameters, salt and key of a stored hash; `null` for anything else or anything out of bounds. */
export function parseHash(stored: string): ParsedHash | null {
  if (typeof stored !== "string" || stored.length > 2 * MAX_BYTES) return null;
  let ln: number;
  let match = PHC.exec(stored);
  const legacy = match === null;
  if (match) {
    ln = Number(match[1]);
  } else {
    match = LEGACY.exec(stored);
    if (!match) return null;
    const n = Number(match[1]);
    // N must be a power of two; its log2 is the PHC parameter.
    ln = Math.log2(n);
    if (!Number.isInteger(ln)) return null;
  }
  const r = Number(match[2]);
  const p = Number(match[3]);
  const salt = fromBase64(match[4]!);
  const key = fromBase64(match[5]!);
  if (!salt || !key || !withinBounds({ ln, r, p })) return null;
  if (salt.length < MIN_SALT || salt.length > MAX_BYTES || key.length < MIN_KEY || key.length > MAX_BYTES) return null;
  return { ln, r, p, salt, key, legacy };
}

export function withinBounds({ ln, r, p }: ScryptParams): boolean {
  return ln >= 1 && ln <= MAX.ln && r >= 1 && r <= MAX.r && p >= 1 && p <= MAX.p && 128 * 2 ** ln * r <= MAX.memory;
}

/** Memory scrypt needs for these parameters (128 * N * r), plus room for the rest of its work. */
export function memoryFor({ ln, r }: ScryptParams): number {
  return 128 * 2 ** ln * r + 1024 * 1024;
}
