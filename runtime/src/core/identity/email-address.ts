/**
 * The one canonical form of an email address: what every endpoint that takes
 * an address (email links, passkey sign-up, password accounts) looks up,
 * stores, counts in the rate limit and mails to.
 *
 * The rule it keeps: two spellings a mail library would deliver to the same
 * mailbox have the same canonical form, or are refused. Nodemailer strips NUL,
 * C0 controls and DEL from a recipient and reads the ideographic full stops of
 * a domain as "."; without this, each such spelling was a fresh rate-limit key
 * for one mailbox and a look-alike account, and NUL reached PostgreSQL as a 500.
 */

/** One plain address: a local part and a domain, nothing a mail server could read as a second address. */
const PLAIN_ADDRESS = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+$/u;
const MAX_ADDRESS_LENGTH = 254;
/** Bounds the work done on what cannot be an address, before any normalisation. */
const MAX_INPUT_LENGTH = 1024;

/**
 * Characters no address may hold, anywhere: controls (NUL, C0, DEL, C1), format
 * characters (zero-width, bidi controls, the BOM, soft hyphen), lone
 * surrogates, private-use and unassigned code points, line and paragraph
 * separators, the other default-ignorable ones (variation selectors, fillers)
 * and U+FFFD, which is what a lone surrogate becomes in a URL-encoded form.
 * Some are stripped by mail libraries, all are invisible or meaningless in an
 * address: refused, never repaired, so no two spellings look like one.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\uFFFD]/u;

/** Full stops that IDNA (UTS #46) and mail libraries read as "." in a domain. */
export const IDEOGRAPHIC_FULL_STOP = /[\u3002\uFF0E\uFF61]/u;
const IDEOGRAPHIC_FULL_STOPS = new RegExp(IDEOGRAPHIC_FULL_STOP.source, "gu");

/** `text` with each ideographic full stop as ".". */
export function plainFullStops(text: string): string {
  return text.replace(IDEOGRAPHIC_FULL_STOPS, ".");
}

/** Throws `InvalidEmailAddress` with `message` when `text` holds an `INVISIBLE` character. */
export function refuseInvisible(text: string, message = "The email address holds a control, format or other invisible character."): void {
  if (INVISIBLE.test(text)) throw new InvalidEmailAddress(message);
}

/** Why `normalizeEmail` refused an address; the message never repeats an invisible character. */
export class InvalidEmailAddress extends TypeError {
  override name = "InvalidEmailAddress";
}

/**
 * The canonical form of `input`, or `InvalidEmailAddress`:
 *
 * 1. refused if it holds an `INVISIBLE` character;
 * 2. NFKC: full-width and other compatibility forms become their plain
 *    letters (`ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ` is `ada@example.com`), as IDNA
 *    maps a domain; the address mailed is the canonical one, so this can only
 *    send a link to the plain mailbox, never to a second one;
 * 3. trimmed (spaces only: every other surrounding character was refused);
 * 4. lowercased, then NFKC again (lowercasing can undo it);
 * 5. the ideographic full stops of the domain become "."; one in the local
 *    part is refused (no mail library maps it there, and it looks like ".");
 * 6. refused unless one plain address: quotes, a second `@`, spaces, commas,
 *    angle brackets and the like are refused rather than repaired (a
 *    "normalized" `a@x.com,b@evil.com` would mail a link for one address to
 *    another), and so are empty labels and overlong parts.
 *
 * Idempotent: the canonical form of a canonical form is itself.
 */
export function normalizeEmail(input: string): string {
  refuseInvisible(input);
  if (input.length > MAX_INPUT_LENGTH) throw invalid(input);
  const email = input.normalize("NFKC").trim().toLowerCase().normalize("NFKC");
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const domain = plainFullStops(email.slice(at + 1));
  const canonical = `${local}@${domain}`;
  if (at < 0 || canonical.length > MAX_ADDRESS_LENGTH || !PLAIN_ADDRESS.test(canonical) || INVISIBLE.test(canonical)) throw invalid(input);
  // A dotless domain (user@localhost) is left to the mail server: it is how people test locally.
  if (local.length > 64 || IDEOGRAPHIC_FULL_STOP.test(local) || domain.startsWith(".") || domain.endsWith(".") || domain.includes("..")) {
    throw invalid(input);
  }
  return canonical;
}

/** The canonical form, or `undefined` when `value` is not an address. */
export function canonicalEmailOrUndefined(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return normalizeEmail(value);
  } catch {
    return undefined;
  }
}

function invalid(input: string): InvalidEmailAddress {
  return new InvalidEmailAddress(`${JSON.stringify(input.slice(0, 80))} is not a valid email address.`);
}
