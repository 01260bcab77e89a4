/**
 * Characters that look like nothing, or like something else: C0 controls and
 * NUL, DEL, C1, bidi controls, zero-width and other format characters, line and
 * paragraph separators, lone surrogates, ideographic full stops and full-width
 * letters. Mail libraries strip or map some of them, so each is a second
 * spelling of one address, one name or one token; `tainted` puts them into
 * otherwise plausible values, so the canonical-address code and every other
 * reader of a field meets them where a real attack would put them.
 */
import * as fc from "fast-check";

export const INVISIBLES = [
  // C0 (NUL first), DEL, C1 (NEL, CSI)
  "\u0000", "\u0001", "\t", "\n", "\r", "\u000b", "\u000c", "\u001b", "\u001f", "\u007f", "\u0080", "\u0085", "\u009b", "\u009f",
  // bidi embeddings and overrides, isolates; marks
  "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u061c",
  // zero-width, format, BOM, soft hyphen, word joiner, Mongolian vowel separator
  "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\ufeff", "\u00ad", "\u2060", "\u180e",
  // line and paragraph separators; lone surrogates (a form turns them into U+FFFD, JSON keeps them)
  "\u2028", "\u2029", "\ud800", "\udfff", "\ufffd",
] as const;

/** Dots a domain reader may take for "." (IDNA, nodemailer). */
export const IDEOGRAPHIC_STOPS = ["\u3002", "\uff0e", "\uff61"] as const;

/** Look-alikes: full-width letters and `@`, a combining accent, a dotless i, a Cyrillic a. */
export const LOOKALIKES = ["\uff41", "\uff21", "\uff20", "\uff10", "\u0301", "\u0131", "\u0430", "\u212a"] as const;

export const oddCharArb: fc.Arbitrary<string> = fc.constantFrom(...INVISIBLES, ...IDEOGRAPHIC_STOPS, ...LOOKALIKES);

/** Full-width form of printable ASCII (`a` is U+FF41): NFKC maps it back. */
export function fullWidth(text: string): string {
  return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
}

type Edit = { at: number; char: string } | { kind: "full-width" } | { kind: "stops" };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ at: fc.nat(), char: oddCharArb }) },
  { weight: 1, arbitrary: fc.constant({ kind: "full-width" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "stops" as const }) },
);

function applyEdit(text: string, edit: Edit, stop: string): string {
  if ("at" in edit) {
    // Positions 0 and length (the edges) are as likely as any: where trimming code looks.
    const at = edit.at % (text.length + 1);
    return `${text.slice(0, at)}${edit.char}${text.slice(at)}`;
  }
  if (edit.kind === "full-width") return fullWidth(text);
  return text.replace(/\./g, stop);
}

/** `base` with one to three odd characters inserted, its dots made ideographic, or the whole made full-width. */
export function tainted(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(base, fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.constantFrom(...IDEOGRAPHIC_STOPS))
    .map(([text, edits, stop]) => edits.reduce((out, edit) => applyEdit(out, edit, stop), text));
}

/** `base` mostly as is, sometimes tainted. */
export function sometimesTainted(base: fc.Arbitrary<string>, weight = 1): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: base }, { weight, arbitrary: tainted(base) });
}

/** Any string of odd characters and a few plain ones. */
export const oddStringArb: fc.Arbitrary<string> = fc
  .array(fc.oneof(oddCharArb, fc.constantFrom("a", ".", "@", " ", "/")), { maxLength: 12 })
  .map((chars) => chars.join(""));

/**
 * Addresses that look valid, spelled with odd characters: inserted anywhere,
 * the domain's dots ideographic, the local part or the whole full-width,
 * upper case. Mostly spellings of the planted user's address, whose account
 * and sign-in link exist, so a second spelling that reaches them shows.
 */
export function taintedAddressArb(addresses: readonly string[]): fc.Arbitrary<string> {
  const plain = fc.constantFrom(...addresses);
  return fc.oneof(
    { weight: 4, arbitrary: tainted(plain) },
    {
      weight: 2,
      arbitrary: fc.tuple(plain, fc.constantFrom(...IDEOGRAPHIC_STOPS), fc.constantFrom("local", "domain", "all", "upper-stop")).map(([address, stop, part]) => {
        const at = address.lastIndexOf("@");
        const [local, domain] = [address.slice(0, at), address.slice(at + 1)];
        if (part === "local") return `${fullWidth(local)}@${domain}`;
        if (part === "domain") return `${local}@${fullWidth(domain)}`;
        if (part === "all") return fullWidth(address);
        return `${local.toUpperCase()}@${domain.toUpperCase().replace(/\./g, stop)}`;
      }),
    },
    // A dot of the local part made ideographic: no mail library maps it there.
    { weight: 1, arbitrary: fc.tuple(plain, fc.constantFrom(...IDEOGRAPHIC_STOPS)).map(([address, stop]) => address.replace(".", stop)) },
  );
}
