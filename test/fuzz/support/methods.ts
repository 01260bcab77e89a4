/** Request methods: the two the handler serves, the other standard ones, and junk tokens. */
import * as fc from "fast-check";

const STANDARD = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"];
/** `Request` upper-cases get/post/...; the others stay as written. */
const JUNK = ["get", "post", "Post", "PROPFIND", "M-SEARCH", "QUERY", "PURGE", "X", "GETS", "POST2"];
/** `Request` refuses these outright; they never reach a handler. */
const FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);

export const methodArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("GET", "POST") },
  { weight: 3, arbitrary: fc.constantFrom(...STANDARD) },
  { weight: 1, arbitrary: fc.constantFrom(...JUNK) },
  {
    weight: 1,
    arbitrary: fc
      .stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,11}$/)
      // Lower-case "patch" makes undici print a warning; upper-case it is in STANDARD.
      .filter((m) => !FORBIDDEN.has(m.toUpperCase()) && m.toLowerCase() !== "patch"),
  },
);

/** Methods that cannot carry a body in a `Request`. */
export function bodyless(method: string): boolean {
  return ["GET", "HEAD"].includes(method.toUpperCase());
}
