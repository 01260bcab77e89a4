/**
 * The canonical form of an email address (`runtime/src/core/identity/email-address.ts`,
 * issue 19, item 4): what it maps, what it refuses, and that it is a fixed
 * point (the canonical form of a canonical form is itself) for every code
 * point of the first three planes, in the local part and in the domain.
 */
import { describe, expect, it } from "vitest";
import { INVISIBLE, normalizeEmail } from "../../runtime/src/core/identity/email-address.js";
import { REFUSED_SPELLINGS, SAME_MAILBOX_SPELLINGS } from "../email/support/spellings.js";

describe("normalizeEmail", () => {
  it.each([
    ["  Ada@Example.COM ", "ada@example.com"],
    ...SAME_MAILBOX_SPELLINGS.map(([, spelling]) => [spelling, "ada@example.com"]),
    ["ADA@EXAMPLE\u3002COM\u3002", undefined],
    ["\u00c5sa@b\u00fccher.example", "\u00e5sa@b\u00fccher.example"],
    // Decomposed and composed forms of one letter are one address.
    ["a\u030asa@example.com", "\u00e5sa@example.com"],
    ["user@localhost", "user@localhost"],
  ] as [string, string | undefined][])("%j is %j", (input, canonical) => {
    if (canonical === undefined) expect(() => normalizeEmail(input)).toThrow(/not a valid email address/);
    else expect(normalizeEmail(input)).toBe(canonical);
  });

  it.each([
    ...REFUSED_SPELLINGS,
    ["a C1 control (U+0085)", "ada\u0085@example.com"],
    ["a soft hyphen (U+00AD)", "ada\u00ad@example.com"],
    ["a zero-width joiner (U+200D)", "ad\u200da@example.com"],
    ["a left-to-right isolate (U+2066)", "\u2066ada@example.com"],
    ["a paragraph separator (U+2029)", "ada\u2029@example.com"],
    ["a variation selector (U+FE0F)", "ada\ufe0f@example.com"],
    ["a Hangul filler (U+3164)", "ada\u3164@example.com"],
    ["a private-use character (U+E000)", "ada\ue000@example.com"],
    ["a replacement character (U+FFFD), what a form makes of a lone surrogate", "ada\ufffd@example.com"],
    ["a tag character (U+E0041)", "ada\u{e0041}@example.com"],
    ["a trailing newline", "ada@example.com\n"],
    ["a tab", "ada@example.com\t"],
  ])("refuses %s, without an invisible character in the message", (_what, input) => {
    let message = "";
    try {
      normalizeEmail(input);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe("");
    expect(INVISIBLE.test(message)).toBe(false);
  });

  it.each([
    ["a full-width comma that would make two addresses", "ada@example.com\uff0cmallory@evil.example"],
    ["a small commercial at making a second @", "ada\ufe6bmallory@evil.example@example.com"],
    ["a one dot leader making an empty label", "ada@example\u2025com"],
    ["an ideographic space inside", "ada\u3000lovelace@example.com"],
    ["an address over 1024 characters", `${"a".repeat(1100)}@example.com`],
    ["a domain that ends in an ideographic full stop", "ada@example.com\u3002"],
  ])("refuses %s (checked after NFKC)", (_what, input) => {
    expect(() => normalizeEmail(input)).toThrow(/not a valid email address/);
  });

  it("is a fixed point and never yields an invisible character, for every code point in the local part and the domain", () => {
    const problems: string[] = [];
    for (let cp = 0; cp < 0x30000; cp++) {
      const char = String.fromCodePoint(cp);
      for (const input of [`a${char}b@example.com`, `ada@ex${char}ample.com`]) {
        let canonical: string;
        try {
          canonical = normalizeEmail(input);
        } catch {
          continue;
        }
        let again: string | undefined;
        try {
          again = normalizeEmail(canonical);
        } catch {
          again = undefined;
        }
        if (again !== canonical || INVISIBLE.test(canonical)) problems.push(`U+${cp.toString(16).toUpperCase()} in ${JSON.stringify(input)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
