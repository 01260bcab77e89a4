/**
 * Configs as plain data (so fast-check can print and shrink them): valid mixes
 * of providers, strategies, base paths, pages, themes and callbacks, `trustHost`
 * on and (with a fixed `url`) off, rate limits that read the client's address
 * from a proxy header (`X-Forwarded-For`, `X-Real-IP`, `Forwarded`), and invalid
 * configs that must answer the generic Configuration error. `build-config.ts`
 * turns a spec into a real `AuthConfig`.
 */
import * as fc from "fast-check";
import { FAULTABLE_METHODS, type FaultSpec } from "./adapter.js";

export type ProviderKind = "credentials" | "email" | "passkey" | "oidc" | "oauth";

export interface ValidConfigSpec {
  kind: "valid";
  providers: ProviderKind[];
  strategy: "jwt" | "database" | "default";
  /** An adapter also with `jwt` (email and passkey need one anyway). */
  adapter: boolean;
  basePath: string | undefined;
  /** A fixed public URL (`AUTH_URL`): the origin no longer comes from the request. */
  url: string | undefined;
  /** Off only with a fixed `url` (without one the config is invalid: `no-trust-host`). */
  trustHost: boolean;
  /**
   * `rateLimit` on: the client address from a proxy's header (or none: only per
   * identifier); `exhausted`: a store that counts every key over its limit, so
   * every counted attempt meets the refusal.
   */
  rateLimit: { clientAddressHeader: "x-forwarded-for" | "x-real-ip" | "forwarded" | undefined; exhausted: boolean } | undefined;
  /** Secrets `[SECRET, OLD_SECRET]` instead of `SECRET`. */
  rotation: boolean;
  skipCSRFCheck: boolean;
  useSecureCookies: boolean | undefined;
  debug: boolean;
  updateAge: number | undefined;
  theme: Record<string, string> | undefined;
  pages: Record<string, string> | undefined;
  emailSendFails: boolean;
  emailConfirmLink: boolean;
  /** `none`: the OAuth callback skips state/PKCE and goes on to the (unreachable) token endpoint. */
  oauthChecks: "default" | "none";
  callbacks: {
    signIn: "default" | "refuse" | "throw" | "foreign-url" | "relative-url";
    redirect: "default" | "throw" | "javascript" | "base";
    /** `huge`: a claim big enough that the session cookie is chunked. */
    jwt: "default" | "null" | "throw" | "claims" | "huge";
    session: "default" | "throw";
  };
  eventsThrow: boolean;
  fault: FaultSpec | undefined;
}

export type InvalidReason =
  | "short-secret"
  | "no-secret"
  | "no-trust-host"
  | "unknown-provider-type"
  | "duplicate-ids"
  | "bad-base-path"
  | "database-without-adapter"
  | "webauthn-not-enabled"
  | "email-without-adapter"
  | "negative-max-age"
  | "insecure-issuer"
  | "bad-client-address-header";

export interface InvalidConfigSpec {
  kind: "invalid";
  reason: InvalidReason;
  base: ValidConfigSpec;
}

export type ConfigSpec = ValidConfigSpec | InvalidConfigSpec;

/** Provider ids as configured: a path may name them, or not. */
export const PROVIDER_IDS: Record<ProviderKind, string> = {
  credentials: "credentials",
  email: "email",
  passkey: "passkey",
  oidc: "oidc",
  oauth: "loop",
};

/** Where the unreachable providers live: the only hosts besides the app's a redirect may go to. */
export const PROVIDER_ORIGIN = "http://127.0.0.1:9";
/** A configured external page host, which redirects may go to since the app asked for it. */
export const PAGES_ORIGIN = "https://pages.example";

const junk = fc.string({ maxLength: 40 });

const themeArb = fc.option(
  fc.record(
    {
      colorScheme: fc.oneof(fc.constantFrom("auto", "dark", "light", "</style><script>fuzz-xss</script>", ""), junk),
      brandColor: fc.oneof(
        fc.constantFrom("#346df1", "red", "rgb(1,2,3)", "red;} body{display:none", "</style><script>fuzz-xss</script>", "url(javascript:alert(1))"),
        junk,
      ),
      logo: fc.oneof(
        fc.constantFrom("https://example.com/logo.png", "javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", '" onerror="alert(1)', "//evil.com/x.png"),
        junk,
      ),
      buttonText: fc.oneof(fc.constantFrom("#fff", "</button><script>fuzz-xss</script>", "blue"), junk),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

const pagesArb = fc.option(
  fc.constantFrom<Record<string, string>>(
    { signIn: "/login" },
    { error: "/oops?from=auth" },
    { signOut: "/bye", verifyRequest: "/check-email", newUser: "/welcome" },
    { signIn: `${PAGES_ORIGIN}/login`, error: `${PAGES_ORIGIN}/error` },
  ),
  { nil: undefined },
);

const faultArb: fc.Arbitrary<FaultSpec> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ method: fc.constantFrom(...FAULTABLE_METHODS), onCall: fc.constantFrom(0, 0, 0, 1), sticky: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ method: fc.constant(undefined), onCall: fc.constantFrom(0, 0, 1, 2), sticky: fc.boolean() }) },
);

function validConfigWith(fault: fc.Arbitrary<FaultSpec | undefined>): fc.Arbitrary<ValidConfigSpec> {
  return fc
    .record({
      // Each provider in about two configs of three, in any order.
      providers: fc
        .tuple(fc.shuffledSubarray<ProviderKind>(["credentials", "email", "passkey", "oidc", "oauth"], { minLength: 5 }), fc.array(fc.constantFrom(true, true, false), { minLength: 5, maxLength: 5 }))
        .map(([order, keep]) => order.filter((_, i) => keep[i])),
      strategy: fc.constantFrom<ValidConfigSpec["strategy"]>("jwt", "database", "default", "default"),
      adapter: fc.boolean(),
      basePath: fc.constantFrom(undefined, undefined, "/auth", "/api/auth", "/", "", "/a/b/", "auth"),
      url: fc.constantFrom(undefined, undefined, undefined, "https://app.example.com", "http://localhost:3000/api/auth"),
      trustHost: fc.constantFrom(true, true, false),
      rateLimit: fc.option(
        fc.record({
          clientAddressHeader: fc.constantFrom<"x-forwarded-for" | "x-real-ip" | "forwarded" | undefined>("x-forwarded-for", "x-forwarded-for", "x-real-ip", "forwarded", undefined),
          exhausted: fc.boolean(),
        }),
        { nil: undefined, freq: 2 },
      ),
      rotation: fc.boolean(),
      skipCSRFCheck: fc.constantFrom(false, false, false, true),
      useSecureCookies: fc.constantFrom(undefined, undefined, undefined, true, false),
      debug: fc.boolean(),
      updateAge: fc.constantFrom(undefined, undefined, 0),
      theme: themeArb,
      pages: pagesArb,
      emailSendFails: fc.boolean(),
      emailConfirmLink: fc.boolean(),
      oauthChecks: fc.constantFrom<ValidConfigSpec["oauthChecks"]>("default", "none"),
      callbacks: fc.record({
        signIn: fc.constantFrom<ValidConfigSpec["callbacks"]["signIn"]>("default", "default", "default", "refuse", "throw", "foreign-url", "relative-url"),
        redirect: fc.constantFrom<ValidConfigSpec["callbacks"]["redirect"]>("default", "default", "default", "throw", "javascript", "base"),
        jwt: fc.constantFrom<ValidConfigSpec["callbacks"]["jwt"]>("default", "default", "default", "null", "throw", "claims", "huge"),
        session: fc.constantFrom<ValidConfigSpec["callbacks"]["session"]>("default", "default", "throw"),
      }),
      eventsThrow: fc.boolean(),
      fault,
    })
    // Without a fixed url, trustHost off is the invalid `no-trust-host`.
    .map((spec) => ({ kind: "valid" as const, ...spec, trustHost: spec.trustHost || spec.url === undefined }));
}

/** Valid configs without any adapter fault. */
export const validConfigArb: fc.Arbitrary<ValidConfigSpec> = validConfigWith(fc.constant(undefined));

/** Valid configs with an adapter, one of whose methods fails on purpose. */
export const faultyConfigArb: fc.Arbitrary<ValidConfigSpec> = validConfigWith(faultArb).map((spec) => ({
  ...spec,
  // The fault must be able to hit: an adapter, and the providers whose flows use it.
  adapter: true,
  providers: [...new Set<ProviderKind>([...spec.providers, "email", "credentials", "passkey"])],
}));

export const invalidConfigArb: fc.Arbitrary<InvalidConfigSpec> = fc.record({
  kind: fc.constant("invalid" as const),
  reason: fc.constantFrom<InvalidReason>(
    "short-secret",
    "no-secret",
    "no-trust-host",
    "unknown-provider-type",
    "duplicate-ids",
    "bad-base-path",
    "database-without-adapter",
    "webauthn-not-enabled",
    "email-without-adapter",
    "negative-max-age",
    "insecure-issuer",
    "bad-client-address-header",
  ),
  base: validConfigArb,
});

/** Valid configs with the email provider (and so a store). */
export const emailConfigArb: fc.Arbitrary<ValidConfigSpec> = validConfigArb.map((spec) => ({
  ...spec,
  providers: spec.providers.includes("email") ? spec.providers : [...spec.providers, "email"],
}));

/** Mostly valid configs, some invalid. */
export const configArb: fc.Arbitrary<ConfigSpec> = fc.oneof(
  { weight: 5, arbitrary: validConfigArb },
  { weight: 1, arbitrary: invalidConfigArb },
);
