/**
 * Spellings of an address that a mail library reads as another address, or
 * that only look like one (issue 19, item 4). Nodemailer strips NUL, C0
 * controls and DEL from a recipient and maps the ideographic full stops of a
 * domain to ".", so without a canonical form each spelling was a fresh
 * rate-limit key for one mailbox, or a look-alike account.
 */

/** Refused by every endpoint that takes an address: [what, address]. */
export const REFUSED_SPELLINGS: [string, string][] = [
  ["NUL", "ada\u0000@example.com"],
  ["a C0 control (U+0001)", "ada\u0001@example.com"],
  ["DEL", "ada@example.com\u007f"],
  ["a zero-width space (U+200B)", "ada\u200b@example.com"],
  ["a right-to-left override (U+202E)", "ada@\u202eexample.com"],
  ["a byte order mark (U+FEFF) at the end", "ada@example.com\ufeff"],
  ["a line separator (U+2028) at the end", "ada@example.com\u2028"],
  ["a lone surrogate (U+D800)", "ada\ud800@example.com"],
  ["an ideographic full stop in the local part", "ada\u3002lovelace@example.com"],
];

/** Spellings that deliver to ada@example.com, so they are ada@example.com: [what, address]. */
export const SAME_MAILBOX_SPELLINGS: [string, string][] = [
  ["an ideographic full stop (U+3002) in the domain", "ada@example\u3002com"],
  ["a full-width full stop (U+FF0E) in the domain", "ada@example\uff0ecom"],
  ["a half-width ideographic full stop (U+FF61) in the domain", "ada@example\uff61com"],
  ["full-width letters and at sign", "\uff41\uff44\uff41\uff20example.com"],
];

/**
 * A form body cannot carry a lone surrogate (URL encoding turns it into U+FFFD),
 * a JSON body can: fields holding one are sent as JSON, the others as a form.
 */
export function bodyOf(fields: Record<string, string>): { form: Record<string, string> } | { json: Record<string, string> } {
  return Object.values(fields).some((value) => /[\ud800-\udfff]/.test(value)) ? { json: fields } : { form: fields };
}
