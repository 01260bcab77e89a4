/**
 * Base64 in its two spellings. Credential ids travel as base64url (what the
 * browser reports); public keys are stored as standard base64, as in Auth.js
 * databases, whose credential ids are standard base64 too.
 */

/** Standard base64 (with padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of base64 in either spelling, padded or not; `null` when it is not base64. */
export function fromBase64(value: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) return null;
  const standard = value.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.length % 4 === 1) return null;
  try {
    const binary = atob(standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "="));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** Base64url without padding, from either spelling (stored ids may be Auth.js's standard base64). */
export function toBase64Url(value: string): string {
  return value.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Standard base64 with padding, from either spelling. */
export function toStandardBase64(value: string): string {
  const standard = value.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  return standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "=");
}

/** "usb,internal" from the browser's list; `null` when it reported none. */
export function transportsToString(transports: unknown): string | null {
  if (!Array.isArray(transports)) return null;
  const names = transports.filter((t): t is string => typeof t === "string" && /^[a-z-]{1,32}$/.test(t));
  return names.length > 0 ? names.join(",") : null;
}

export function stringToTransports(transports: string | null | undefined): string[] | undefined {
  return transports ? transports.split(",").filter((t) => t !== "") : undefined;
}
