/**
 * Paths under the configured base path (every action, with and without provider
 * ids) and outside it: unknown actions and ids, encoded characters, `..`, double
 * slashes, very long segments, unicode.
 */
import * as fc from "fast-check";
import { PROVIDER_IDS } from "./config-specs.js";

export interface PathSpec {
  /** `base`: the config's base path; anything else is used literally. */
  prefix: string;
  action: string;
  /** A literal id, or `{ configured: i }`: the i-th provider of the config (mod their number), so most ids exist. */
  provider: string | { configured: number } | undefined;
  extra: string[];
  trailingSlash: boolean;
  /** Doubles the slash before the action. */
  doubleSlash: boolean;
}

export const ACTIONS = ["callback", "csrf", "error", "providers", "session", "signin", "signout", "verify-request", "webauthn-options"];

const LONG = "a".repeat(5000);
const junkSegment = fc.oneof(
  fc.constantFrom("..", ".", "%2e%2e", "%2F", "%00", "__proto__", "constructor", "hasOwnProperty", "sìgnin", "登录", "🙂", LONG, ";x", "a b", "%zz"),
  fc.webSegment(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const actionArb = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...ACTIONS) },
  { weight: 1, arbitrary: fc.constantFrom("", "SIGNIN", "signin.json", "%73ignin", "sign%20in", "signin%2Fcredentials", "signin?x=1", "session#frag", "toString") },
  { weight: 1, arbitrary: junkSegment },
);

const providerArb: fc.Arbitrary<PathSpec["provider"]> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.nat({ max: 4 }).map((configured) => ({ configured })) },
  { weight: 2, arbitrary: fc.constantFrom(...Object.values(PROVIDER_IDS)) },
  { weight: 1, arbitrary: fc.constantFrom("github", "Credentials", "cred%65ntials", "credentials%2F..", "email%00", "passkey.", "x".repeat(70), "" ) },
  { weight: 1, arbitrary: junkSegment },
);

const prefixArb = fc.oneof(
  { weight: 10, arbitrary: fc.constant("base") },
  { weight: 2, arbitrary: fc.constantFrom("/auth", "/api/auth", "", "/other", "/auth/..", "//auth", "/AUTH", "/auth%2F", "/auth/.", "/a/b", "/auth/auth", "/api/auth/../auth") },
);

export const pathArb: fc.Arbitrary<PathSpec> = fc.record({
  prefix: prefixArb,
  action: actionArb,
  provider: providerArb,
  extra: fc.oneof({ weight: 8, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.array(junkSegment, { minLength: 1, maxLength: 2 }) }),
  trailingSlash: fc.boolean(),
  doubleSlash: fc.constantFrom(...Array(19).fill(false), true),
});

/** The id a path spec names; `{ configured }` without configured providers names an unknown one. */
export function providerIdOf(provider: PathSpec["provider"], configured: string[]): string | undefined {
  if (provider === undefined || typeof provider === "string") return provider;
  return configured.length === 0 ? "none-configured" : configured[provider.configured % configured.length];
}

export function buildPath(spec: PathSpec, basePath: string, configured: string[]): string {
  const prefix = spec.prefix === "base" ? basePath : spec.prefix;
  const provider = providerIdOf(spec.provider, configured);
  const segments = [spec.action, ...(provider === undefined ? [] : [provider]), ...spec.extra];
  return `${prefix}${spec.doubleSlash ? "//" : "/"}${segments.join("/")}${spec.trailingSlash ? "/" : ""}`;
}
