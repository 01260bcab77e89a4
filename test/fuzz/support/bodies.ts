/**
 * Bodies: URL-encoded forms with the fields the handler reads (`csrfToken`,
 * `callbackUrl`, `email`, `token`, `action`, `data`, `name`, credentials and
 * password-account fields) and random ones, repeated and huge fields; every
 * field's value sometimes carries control, format, bidi or look-alike
 * characters (`characters.ts`), addresses as plausible spellings of real ones;
 * JSON objects, arrays, scalars and invalid JSON; binary junk; bodies over the
 * size limit.
 */
import * as fc from "fast-check";
import { oddStringArb, sometimesTainted, taintedAddressArb } from "./characters.js";
import { csrfBodyValue, type CsrfSpec } from "./cookies.js";
import { callbackUrlArb } from "./query.js";
import { PLANTED, XSS } from "./sentinels.js";

export type BodySpec =
  | { kind: "none" }
  | { kind: "form"; fields: [string, string][]; csrfTwice: boolean }
  | { kind: "json"; fields: [string, unknown][] }
  | { kind: "json-value"; value: unknown }
  | { kind: "text"; text: string }
  | { kind: "binary"; bytes: Uint8Array<ArrayBuffer> }
  | { kind: "oversized"; form: boolean };

/** Addresses the store and the mailer know, which spellings with odd characters imitate. */
export const KNOWN_ADDRESSES = [PLANTED.user.email, "new.person@example.com", "fail@example.com"] as const;

export const emailArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(PLANTED.user.email, " PLANTED@Example.COM ", "new.person@example.com", "fail@example.com", "a@x.com,b@evil.com", '"a"@x.com', "a@x..com", "@", "", XSS) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 3, arbitrary: taintedAddressArb(KNOWN_ADDRESSES) },
);

const pair = (name: string) => (value: string): [string, string] => [name, value];

const fieldArb: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 3, arbitrary: sometimesTainted(callbackUrlArb).map(pair("callbackUrl")) },
  { weight: 3, arbitrary: emailArb.map(pair("email")) },
  { weight: 2, arbitrary: fc.oneof(sometimesTainted(fc.constant(PLANTED.linkToken)), fc.string({ maxLength: 20 }), fc.constant("t".repeat(600))).map(pair("token")) },
  { weight: 2, arbitrary: sometimesTainted(fc.constantFrom("ada", "boom", "deny", "weird")).map(pair("username")) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("password", "confirm", "newPassword", "currentPassword"), sometimesTainted(fc.constantFrom("correct horse", "wrong"))) },
  { weight: 1, arbitrary: sometimesTainted(fc.constantFrom("Ada Lovelace", "", XSS)).map(pair("name")) },
  { weight: 2, arbitrary: sometimesTainted(fc.constantFrom("register", "authenticate", "", "delete")).map(pair("action")) },
  { weight: 2, arbitrary: fc.oneof(fc.json({ maxDepth: 2 }), fc.string({ maxLength: 20 }), sometimesTainted(fc.constant('{"id":"x","rawId":"x","response":{},"type":"public-key"}'))).map(pair("data")) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("code", "state", "iss", "error", "user", "name"), fc.oneof(fc.string({ maxLength: 20 }), oddStringArb)) },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.string({ maxLength: 10 }), oddStringArb), fc.oneof(fc.string({ unit: "grapheme", maxLength: 20 }), oddStringArb)) },
  { weight: 1, arbitrary: fc.constantFrom<[string, string]>(["__proto__", "x"], ["constructor", "x"], ["big", "x".repeat(20_000)]) },
);

const jsonFieldValueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("keep") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

export const bodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("form" as const),
      // Mostly one of each field: a repeated field is refused (400) before anything else happens.
      fields: fc.oneof(
        { weight: 6, arbitrary: fc.uniqueArray(fieldArb, { maxLength: 5, selector: ([key]) => key }) },
        { weight: 1, arbitrary: fc.array(fieldArb, { maxLength: 5 }) },
      ),
      csrfTwice: fc.constantFrom(...Array(15).fill(false), true),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("json" as const),
      // A string field keeps its string, or becomes any JSON value.
      fields: fc.array(fc.tuple(fieldArb, jsonFieldValueArb).map(([[k, v], j]): [string, unknown] => [k, j === "keep" ? v : j]), { maxLength: 5 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("json-value" as const), value: fc.jsonValue({ maxDepth: 2 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.oneof(fc.constantFrom("{", "{]", '{"a":', "null", "[]", "\"x\"", "a=1&a=2", "%zz=%", "&&&==="), fc.string({ maxLength: 40 })) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("binary" as const), bytes: fc.uint8Array({ maxLength: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("oversized" as const), form: fc.boolean() }) },
);

export interface BuiltBody {
  body: string | Uint8Array<ArrayBuffer> | undefined;
  /** The content type that fits (`auto` in the header spec). */
  type: string | null;
}

/** The body with the CSRF token of the spec put in (first, and again when `csrfTwice`); `issued`: the browser's token. */
export function buildBody(spec: BodySpec, csrf: CsrfSpec, issued?: string): BuiltBody {
  const token = csrfBodyValue(csrf, issued);
  switch (spec.kind) {
    case "none":
      return { body: undefined, type: null };
    case "form": {
      const fields: [string, string][] = token === undefined ? [] : [["csrfToken", String(token)]];
      if (token !== undefined && spec.csrfTwice) fields.push(["csrfToken", String(token)]);
      return { body: new URLSearchParams([...fields, ...spec.fields]).toString(), type: "application/x-www-form-urlencoded" };
    }
    case "json": {
      const object: Record<string, unknown> = token === undefined ? {} : { csrfToken: token };
      // defineProperty: a "__proto__" field stays a field, as JSON.parse makes it.
      for (const [key, value] of spec.fields) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      return { body: JSON.stringify(object), type: "application/json" };
    }
    case "json-value":
      return { body: JSON.stringify(spec.value), type: "application/json" };
    case "text":
      return { body: spec.text, type: "text/plain" };
    case "binary":
      return { body: spec.bytes, type: "application/octet-stream" };
    case "oversized":
      return spec.form
        ? { body: `csrfToken=${token ?? ""}&email=${"a".repeat(70_000)}`, type: "application/x-www-form-urlencoded" }
        : { body: JSON.stringify({ csrfToken: token, data: "a".repeat(70_000) }), type: "application/json" };
  }
}
