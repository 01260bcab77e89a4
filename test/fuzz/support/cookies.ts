/**
 * Cookies: random names and values; the handler's own names (plain, `__Secure-`
 * or `__Host-`, whatever the scheme) with forged, truncated, tampered, expired
 * or valid values; the session cookie as a chunk set (`.0`, `.1`, ...) in
 * order, with gaps, reversed or mixed with an unchunked one; the CSRF cookie
 * valid, stale or forged (under the `__Secure-` name a sibling subdomain can
 * set, too), and the token the body echoes, sometimes with odd characters in
 * it; planted check cookies (OAuth state, PKCE, nonce, WebAuthn challenge):
 * sealed validly with the config's secret, for the provider of the request's
 * path or another, naming the signed-in user, nobody, someone else or no one
 * at all (`startedBy`), under every spelling of their names. Valid values are
 * made with the config's secret when the request is built, so specs stay plain
 * data.
 */
import { createHash } from "node:crypto";
import * as fc from "fast-check";
import { encode } from "@gatehouse/runtime/jwt";
import type { BuiltConfig } from "./build-config.js";
import { INVISIBLES, LOOKALIKES } from "./characters.js";
import { headerValueArb } from "./headers.js";
import { FOREIGN_SECRET, PLANTED, XSS } from "./sentinels.js";

export type CookieKey = "sessionToken" | "csrfToken" | "callbackUrl" | "state" | "pkceCodeVerifier" | "nonce" | "webauthnChallenge";
/**
 * `auto`: the name the handler uses for this request's scheme; `plain`/`prefixed`: one of the two regardless;
 * `secure`/`host`: the `__Secure-` or `__Host-` spelling regardless (a sibling subdomain can set the first, never the second).
 */
export type NameVariant = "auto" | "plain" | "prefixed" | "secure" | "host";
export type SessionFlavor = "valid" | "old-secret" | "forged" | "truncated" | "tampered" | "expired" | "other-salt";

export type CookieValueSpec =
  | { kind: "literal"; value: string }
  | { kind: "session"; flavor: SessionFlavor }
  /** The live session for the config's strategy: the planted session's token, or a valid JWT. */
  | { kind: "live" }
  | { kind: "db-token"; which: "live" | "expired" | "unknown" }
  | { kind: "sealed"; forged: boolean }
  | { kind: "planted"; planted: PlantedSpec };

/**
 * A check cookie as an attacker plants it: one the server really issued (to
 * the attacker's own browser), so sealed with the config's secret.
 */
export interface PlantedSpec {
  /** Sealed for the provider the request's path names, or for another. */
  provider: "target" | "other";
  /** Who the payload says began the flow: no one said (an older cookie), nobody, the planted user, someone else, not a string. */
  startedBy: "omitted" | "nobody" | "planted" | "other" | "number";
  secret: "current" | "old" | "foreign";
  /** Sealed under the name it is sent as, or under the handler's name for this scheme (issued by the server, planted under another name). */
  salt: "as-sent" | "handler";
  /** What a WebAuthn challenge was made for. */
  action: "register" | "authenticate";
}

export type CookieEntrySpec =
  | { kind: "ours"; key: CookieKey; variant: NameVariant; value: CookieValueSpec }
  | { kind: "literal"; name: string; value: CookieValueSpec }
  | { kind: "chunks"; variant: NameVariant; value: CookieValueSpec; parts: number; arrangement: "ordered" | "gap" | "reversed" | "with-unchunked" | "leading-zero" }
  /** A whole planted set: the OAuth check cookies (state, PKCE, nonce) or the WebAuthn challenge. */
  | { kind: "checks"; which: "oauth" | "webauthn"; variant: NameVariant; planted: PlantedSpec };

export interface CsrfSpec {
  cookie: "none" | "valid" | "old-secret" | "forged" | "junk";
  variant: NameVariant;
  /** What the body carries as `csrfToken`; `tainted`: the matching token with `taint` in it. */
  body: "match" | "other" | "none" | "empty" | "non-string" | "tainted";
  taint?: { at: number; char: string };
}

export interface CookieSpec {
  entries: CookieEntrySpec[];
  csrf: CsrfSpec;
}

/** The token of every valid CSRF cookie the fuzzer makes (any 64 hex digits would do). */
export const CSRF_TOKEN = "c5".repeat(32);
const OTHER_TOKEN = "d6".repeat(32);

const NAMES: Record<CookieKey, string> = {
  sessionToken: "authjs.session-token",
  csrfToken: "authjs.csrf-token",
  callbackUrl: "authjs.callback-url",
  state: "authjs.state",
  pkceCodeVerifier: "authjs.pkce.code_verifier",
  nonce: "authjs.nonce",
  webauthnChallenge: "authjs.challenge",
};

/** The cookies only this host may set on https: the CSRF token and those binding a sign-in to its browser. */
const HOST_ONLY: ReadonlySet<CookieKey> = new Set(["csrfToken", "state", "pkceCodeVerifier", "nonce", "webauthnChallenge"]);

/** The sealed values of planted check cookies; the state is also in some callback queries. */
const PLANTED_VALUES: Record<CookieKey, string> = {
  sessionToken: "planted",
  csrfToken: "planted",
  callbackUrl: "planted",
  state: PLANTED.oauthState,
  pkceCodeVerifier: "planted-code-verifier-0123456789abcdef0123456789abcdef",
  nonce: "planted-nonce-0123456789abcdef",
  webauthnChallenge: "cGxhbnRlZC1jaGFsbGVuZ2UtMDEyMzQ1Njc4OQ",
};

/** A cookie name of the handler, as it spells it over http (`secure` false) or https. */
export function cookieName(key: CookieKey, secure: boolean): string {
  if (!secure) return NAMES[key];
  return `${HOST_ONLY.has(key) ? "__Host-" : "__Secure-"}${NAMES[key]}`;
}

export const OUR_COOKIE_NAMES = (Object.keys(NAMES) as CookieKey[]).flatMap((k) => [cookieName(k, false), cookieName(k, true)]);

const variantArb = fc.constantFrom<NameVariant>("auto", "auto", "auto", "plain", "prefixed", "secure", "host");

const plantedArb: fc.Arbitrary<PlantedSpec> = fc.record({
  provider: fc.constantFrom<PlantedSpec["provider"]>("target", "target", "target", "other"),
  startedBy: fc.constantFrom<PlantedSpec["startedBy"]>("omitted", "nobody", "nobody", "planted", "planted", "other", "number"),
  secret: fc.constantFrom<PlantedSpec["secret"]>("current", "current", "current", "old", "foreign"),
  salt: fc.constantFrom<PlantedSpec["salt"]>("as-sent", "as-sent", "handler"),
  action: fc.constantFrom<PlantedSpec["action"]>("register", "authenticate"),
});

/** A planted set of check cookies: what a sibling subdomain or a network attacker on http puts in a victim's browser. */
export const plantedChecksArb: fc.Arbitrary<CookieEntrySpec> = fc.record({
  kind: fc.constant("checks" as const),
  which: fc.constantFrom<"oauth" | "webauthn">("oauth", "oauth", "webauthn"),
  variant: variantArb,
  planted: plantedArb,
});

const literalValueArb: fc.Arbitrary<CookieValueSpec> = fc
  .oneof(
    headerValueArb,
    fc.constantFrom("", "deleted", "null", "undefined", "%", "%zz", "a=b", '"quoted"', XSS, "x".repeat(5000), "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC", "a.b.c.d.e"),
  )
  .map((value) => ({ kind: "literal" as const, value }));

const valueArb: fc.Arbitrary<CookieValueSpec> = fc.oneof(
  { weight: 2, arbitrary: literalValueArb },
  { weight: 3, arbitrary: fc.constantFrom<SessionFlavor>("valid", "old-secret", "forged", "truncated", "tampered", "expired", "other-salt").map((flavor) => ({ kind: "session" as const, flavor })) },
  { weight: 2, arbitrary: fc.constantFrom("live", "expired", "unknown").map((which) => ({ kind: "db-token" as const, which: which as "live" })) },
  { weight: 2, arbitrary: fc.constant({ kind: "live" as const }) },
  { weight: 1, arbitrary: fc.boolean().map((forged) => ({ kind: "sealed" as const, forged })) },
  { weight: 2, arbitrary: plantedArb.map((planted) => ({ kind: "planted" as const, planted })) },
);



const entryArb: fc.Arbitrary<CookieEntrySpec> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("ours" as const),
      key: fc.constantFrom<CookieKey>("sessionToken", "sessionToken", "sessionToken", "callbackUrl", "state", "pkceCodeVerifier", "nonce", "webauthnChallenge", "csrfToken"),
      variant: variantArb,
      value: valueArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("literal" as const),
      name: fc.oneof(
        fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/),
        fc.constantFrom(
          "__Secure-x",
          "__Host-x",
          "authjs.session-token.abc",
          "authjs.session-token.00",
          "authjs.session-token.-1",
          "authjs.session-token.99999999999999999999",
          "next-auth.session-token",
          "AUTHJS.SESSION-TOKEN",
          "__proto__",
          "constructor",
          "injected",
        ),
      ),
      value: valueArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("chunks" as const),
      variant: variantArb,
      value: valueArb,
      parts: fc.integer({ min: 1, max: 4 }),
      arrangement: fc.constantFrom("ordered", "ordered", "gap", "reversed", "with-unchunked", "leading-zero"),
    }),
  },
  { weight: 1, arbitrary: plantedChecksArb },
);

export const cookiesArb: fc.Arbitrary<CookieSpec> = fc.record({
  entries: fc.array(entryArb, { maxLength: 4 }),
  csrf: fc.record({
    cookie: fc.constantFrom<CsrfSpec["cookie"]>("valid", "valid", "valid", "none", "old-secret", "forged", "junk"),
    variant: variantArb,
    body: fc.constantFrom<CsrfSpec["body"]>("match", "match", "match", "other", "none", "empty", "non-string", "tainted"),
    taint: fc.record({ at: fc.nat({ max: 64 }), char: fc.constantFrom(...INVISIBLES, ...LOOKALIKES) }),
  }),
});

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function nameOf(key: CookieKey, variant: NameVariant, secure: boolean): string {
  if (variant === "secure") return `__Secure-${NAMES[key]}`;
  if (variant === "host") return `__Host-${NAMES[key]}`;
  return cookieName(key, variant === "auto" ? secure : variant === "prefixed");
}

/** Where a cookie goes: the request's scheme and the provider its path names (`undefined`: none). */
export interface CookieTarget {
  secure: boolean;
  provider: string | undefined;
}

function providerFor(which: PlantedSpec["provider"], target: CookieTarget, built: BuiltConfig): string {
  const own = target.provider ?? built.providerIds[0] ?? "loop";
  if (which === "target") return own;
  return built.providerIds.find((id) => id !== own) ?? (own === "loop" ? "oidc" : "loop");
}

/** A check cookie as the server would have issued it to someone (see `PlantedSpec`). */
function plantedValue(spec: PlantedSpec, key: CookieKey, name: string, built: BuiltConfig, target: CookieTarget): Promise<string> {
  const secret = spec.secret === "current" ? built.secrets[0]! : spec.secret === "old" ? built.secrets.at(-1)! : FOREIGN_SECRET;
  const salt = spec.salt === "as-sent" ? name : cookieName(key, target.secure);
  const provider = providerFor(spec.provider, target, built);
  const who = { omitted: undefined, nobody: null, planted: PLANTED.user.id, other: PLANTED.otherUserId, number: 42 }[spec.startedBy];
  const payload: Record<string, unknown> = { value: PLANTED_VALUES[key], provider };
  if (key === "webauthnChallenge") {
    payload.action = spec.action;
    // A registration for a signed-in user names them; one for a new user carries the user to be (here: the planted address again).
    if (spec.startedBy === "nobody") payload.newUser = { id: "user-to-be", email: PLANTED.user.email, name: null };
    else if (who !== undefined && who !== null) payload.userId = who;
  } else if (spec.startedBy !== "omitted") {
    payload.startedBy = who;
  }
  return encode({ token: payload, secret, salt: salt.replace(/\.\d+$/, ""), maxAge: 900 });
}

async function valueOf(spec: CookieValueSpec, name: string, built: BuiltConfig, target: CookieTarget, key?: CookieKey): Promise<string> {
  const [secret] = built.secrets;
  const base = name.replace(/\.\d+$/, "");
  const claims = { sub: PLANTED.user.id, name: PLANTED.user.name, email: PLANTED.user.email };
  switch (spec.kind) {
    case "literal":
      return spec.value;
    case "live":
      return built.strategy === "database" ? PLANTED.sessionToken : encode({ token: claims, secret: secret!, salt: base });
    case "db-token":
      return spec.which === "live" ? PLANTED.sessionToken : spec.which === "expired" ? PLANTED.expiredSessionToken : "no-such-session-token";
    case "sealed":
      return encode({ token: { value: "fuzz", provider: "passkey", action: "register" }, secret: spec.forged ? FOREIGN_SECRET : secret!, salt: base, maxAge: 900 });
    case "planted":
      return plantedValue(spec.planted, key ?? "state", base, built, target);
    case "session": {
      switch (spec.flavor) {
        case "valid":
          return encode({ token: claims, secret: secret!, salt: base });
        case "old-secret":
          return encode({ token: claims, secret: built.secrets.at(-1)!, salt: base });
        case "forged":
          return encode({ token: claims, secret: FOREIGN_SECRET, salt: base });
        case "expired":
          return encode({ token: claims, secret: secret!, salt: base, maxAge: -3600 });
        case "other-salt":
          return encode({ token: claims, secret: secret!, salt: "authjs.csrf-token" });
        case "truncated":
          return (await encode({ token: claims, secret: secret!, salt: base })).slice(0, -7);
        case "tampered": {
          const token = await encode({ token: claims, secret: secret!, salt: base });
          const at = token.length - 20;
          return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
        }
      }
    }
  }
}

function split(value: string, parts: number): string[] {
  const size = Math.ceil(value.length / parts) || 1;
  return Array.from({ length: parts }, (_, i) => value.slice(i * size, (i + 1) * size));
}

function csrfPair(spec: CsrfSpec, built: BuiltConfig, secure: boolean): [string, string] | undefined {
  const name = nameOf("csrfToken", spec.variant, secure);
  switch (spec.cookie) {
    case "none":
      return undefined;
    case "valid":
      return [name, `${CSRF_TOKEN}|${sha256Hex(`${CSRF_TOKEN}${built.secrets[0]}`)}`];
    case "old-secret":
      return [name, `${CSRF_TOKEN}|${sha256Hex(`${CSRF_TOKEN}${built.secrets.at(-1)}`)}`];
    case "forged":
      return [name, `${CSRF_TOKEN}|${sha256Hex(`${CSRF_TOKEN}${FOREIGN_SECRET}`)}`];
    case "junk":
      return [name, `${CSRF_TOKEN}|${"0".repeat(64)}`];
  }
}

/** The value the body carries as `csrfToken`, or `undefined` for none; `match` echoes `issued` when a browser holds one. */
export function csrfBodyValue(spec: CsrfSpec, issued?: string): string | number | undefined {
  switch (spec.body) {
    case "match":
      return issued ?? CSRF_TOKEN;
    case "other":
      return OTHER_TOKEN;
    case "none":
      return undefined;
    case "empty":
      return "";
    case "non-string":
      return 12345;
    case "tainted": {
      const token = issued ?? CSRF_TOKEN;
      const { at, char } = spec.taint ?? { at: 0, char: "\u200b" };
      const i = at % (token.length + 1);
      return `${token.slice(0, i)}${char}${token.slice(i)}`;
    }
  }
}

/**
 * The `Cookie` header of the spec, or `null` when there are no cookies. With
 * `jar` (a browser's cookies from earlier answers) those go first, and the
 * spec's CSRF cookie only when the browser has none.
 */
export async function buildCookieHeader(spec: CookieSpec, built: BuiltConfig, target: CookieTarget, jar?: ReadonlyMap<string, string>): Promise<string | null> {
  const { secure } = target;
  const pairs: [string, string][] = [...(jar ?? [])];
  const csrf = csrfPair(spec.csrf, built, secure);
  if (csrf && !jar?.has(csrf[0])) pairs.push(csrf);
  for (const entry of spec.entries) {
    if (entry.kind === "ours") {
      const name = nameOf(entry.key, entry.variant, secure);
      pairs.push([name, await valueOf(entry.value, name, built, target, entry.key)]);
    } else if (entry.kind === "literal") {
      pairs.push([entry.name, await valueOf(entry.value, entry.name, built, target)]);
    } else if (entry.kind === "checks") {
      const keys: CookieKey[] = entry.which === "oauth" ? ["state", "pkceCodeVerifier", "nonce"] : ["webauthnChallenge"];
      for (const key of keys) {
        const name = nameOf(key, entry.variant, secure);
        pairs.push([name, await plantedValue(entry.planted, key, name, built, target)]);
      }
    } else {
      const name = nameOf("sessionToken", entry.variant, secure);
      const chunks = split(await valueOf(entry.value, name, built, target), entry.parts).map((part, i): [string, string] => [`${name}.${i}`, part]);
      if (entry.arrangement === "gap" && chunks.length > 1) chunks.splice(1, 1);
      if (entry.arrangement === "reversed") chunks.reverse();
      if (entry.arrangement === "with-unchunked") chunks.push([name, chunks[0]![1]]);
      if (entry.arrangement === "leading-zero") chunks.push([`${name}.00`, chunks[0]![1]]);
      pairs.push(...chunks);
    }
  }
  return pairs.length === 0 ? null : pairs.map(([name, value]) => `${name}=${value}`).join("; ");
}
