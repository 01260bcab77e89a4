/** What counts as an email address, for email links and passkey sign-up alike. */

/** One plain address: a local part and a domain, nothing a mail server could read as a second address. */
const PLAIN_ADDRESS = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+$/u;
const MAX_ADDRESS_LENGTH = 254;

/**
 * The default identifier: trimmed and lowercased. Quotes, a second `@`, spaces,
 * commas, angle brackets and the like are refused rather than repaired: a
 * "normalized" `a@x.com,b@evil.com` would mail a link for one address to another.
 */
export function normalizeEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (email.length > MAX_ADDRESS_LENGTH || !PLAIN_ADDRESS.test(email)) {
    throw new TypeError(`${JSON.stringify(input.slice(0, 80))} is not a valid email address.`);
  }
  const [local, domain] = email.split("@") as [string, string];
  // A dotless domain (user@localhost) is left to the mail server: it is how people test locally.
  if (local.length > 64 || domain.startsWith(".") || domain.endsWith(".") || domain.includes("..")) {
    throw new TypeError(`${JSON.stringify(input.slice(0, 80))} is not a valid email address.`);
  }
  return email;
}
