/**
 * Query strings: callback URLs (relative, same-origin, and every open-redirect
 * trick), `error` and `code` for the pages, the email link's `token`/`email`,
 * OAuth response parameters (and the state of planted check cookies),
 * WebAuthn's `action`, and junk; values sometimes carry control, format, bidi
 * or look-alike characters (`characters.ts`).
 */
import * as fc from "fast-check";
import { oddStringArb, sometimesTainted, taintedAddressArb } from "./characters.js";
import { PLANTED, XSS } from "./sentinels.js";

/** Callback URLs, including attempts to leave the origin or break out of a header. */
export const callbackUrlArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "/dashboard",
      "/",
      "/a?b=c#d",
      "http://localhost:3000/ok",
      "https://app.example.com/ok",
      "//evil.com",
      "/\\evil.com",
      "\\\\evil.com",
      "/\t/evil.com",
      " //evil.com",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "https://evil.com",
      "HTTPS://EVIL.COM/x",
      "http:evil.com",
      "https:/evil.com",
      "https://localhost:3000.evil.com",
      "http://localhost:3000@evil.com",
      "https://evil.com#@localhost:3000",
      "https://evil.com\\@localhost:3000",
      "//evil.example/%2e%2e",
      "/%2F%2Fevil.com",
      "/ok\r\nSet-Cookie: injected=1",
      "/ok\r\nX-Injected: 1",
      "/%0d%0aX-Injected:%201",
      "/ok\u2028x",
      `/${XSS}`,
      "/\u0000evil",
      "x".repeat(3000),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.webUrl().map((u) => u.replace(/^https?:\/\/[^/]+/, "https://attacker.test")) },
);

const valueArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("Configuration", "AccessDenied", "Verification", "CredentialsSignin", "OAuthSignin", "__proto__", "constructor", XSS, "", "x".repeat(3000)),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 10 }),
  oddStringArb,
);

const pairArb: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 4, arbitrary: sometimesTainted(callbackUrlArb).map((v): [string, string] => ["callbackUrl", v]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("error", "code"), valueArb) },
  { weight: 2, arbitrary: fc.constantFrom<[string, string]>(["token", PLANTED.linkToken], ["email", PLANTED.user.email], ["email", "new.person@example.com"], ["email", "fail@example.com"]) },
  // The email link's parameters spelled with odd characters: a link whose address is a second spelling of the planted one.
  { weight: 1, arbitrary: fc.oneof(sometimesTainted(fc.constant(PLANTED.linkToken), 3).map((v): [string, string] => ["token", v]), taintedAddressArb([PLANTED.user.email]).map((v): [string, string] => ["email", v])) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("token", "email", "name"), valueArb) },
  { weight: 1, arbitrary: fc.constantFrom<[string, string]>(["state", PLANTED.oauthState], ["code", "fuzz-code"]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("action"), fc.constantFrom("register", "authenticate", "", "delete", "__proto__")) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("code", "state", "iss", "error_description", "session_state", "user"), valueArb) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), valueArb) },
);

export interface QuerySpec {
  pairs: [string, string][];
  /** Appended as is: malformed escapes, bare `&` and `=`. */
  raw: string;
}

export const queryArb: fc.Arbitrary<QuerySpec> = fc.record({
  pairs: fc.array(pairArb, { maxLength: 4 }),
  raw: fc.constantFrom("", "", "", "", "&%zz", "&=&&", "&a=%E0%A4%A", "&callbackUrl", "&callbackUrl=%2F%2Fevil.com&callbackUrl=/"),
});

export function buildQuery(spec: QuerySpec): string {
  const search = new URLSearchParams(spec.pairs).toString() + spec.raw;
  return search === "" ? "" : `?${search}`;
}
