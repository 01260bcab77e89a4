/**
 * The deliberate differences from Auth.js (`@auth/core` 0.41.3), in one list:
 * what differs and why (security or correctness). "Moving from Auth.js"
 * (docs/migrating-from-authjs.md) has a bullet for each (`readme` is its opening words; a test checks
 * it is there), and test/compat/*.test.ts assert each one explicitly, so a
 * difference that disappears is noticed.
 */
import { expect } from "vitest";
import type { Observed } from "./driver.js";

export interface Difference {
  id: string;
  readme: string;
  what: string;
  why: string;
}

/** Every deliberate difference from Auth.js, with its reason. Each has a test named by its id in test/compat. */
export const DIFFERENCES: readonly Difference[] = [
  {
    id: "callback-url cookie",
    readme: "**`authjs.callback-url`**",
    what: "Auth.js stores the callback URL in `authjs.callback-url` on every request (and a sign-out without a destination goes there); we set it only for sign-ins that leave the site (OAuth) and need it back.",
    why: "security: a destination remembered from whatever page or link the browser opened earlier must not steer a later sign-in or sign-out",
  },
  {
    id: "oidc state and nonce",
    readme: "**OIDC sends `state` and `nonce`**",
    what: "An OIDC sign-in sends `state` and `nonce` (in encrypted cookies) besides PKCE; Auth.js sends PKCE only.",
    why: "security: `state` ties the callback to this browser's sign-in (login CSRF), `nonce` ties the ID token to it",
  },
  {
    id: "email link confirmation",
    readme: "**An email link's GET shows a page**",
    what: "Opening an email sign-in link shows a page whose button signs in (`confirmLink: false` restores Auth.js's GET sign-in).",
    why: "security: mail scanners and link previews open links; a GET must not spend the token or sign in",
  },
  {
    id: "jwt re-issue",
    readme: "**The JWT cookie is re-issued once per `session.updateAge`**",
    what: "A JWT session cookie is re-issued when the `jwt` callback changed the token or `session.updateAge` passed; Auth.js re-encrypts it on every read (`updateAge: 0` does that here).",
    why: "correctness: `expires` is the cookie's real expiry and the session slides as database sessions do, not on every request",
  },
];

/** Which documented differences (and clock-dependent details) a comparison takes out. */
export interface Allowances {
  /** Drop `authjs.callback-url` cookies ("callback-url cookie"). */
  callbackUrlCookie?: boolean;
  /** Drop `state`/`nonce` parameters and cookies ("oidc state and nonce"). */
  oidcChecks?: boolean;
  /**
   * Database sessions: drop the session cookie a `GET session` or `POST session`
   * (update) re-issues. Whether a read extends depends on the clock (the stored
   * expiry is rounded, so `updateAge: 0` may still skip a read in the same second
   * as the sign-in), on either side.
   */
  databaseReads?: boolean;
}

/**
 * The steps reduced to what must agree: status class; a cleared cookie by name
 * and attributes (Auth.js clears with Max-Age, we add Expires: the same to a
 * browser); JSON bodies with null and absent as one (ours creates an email
 * user with `name: null, image: null`, Auth.js leaves them out: the same to
 * `session.user.name ?? ...`).
 */
export function comparable(observed: Observed[], allow: Allowances = {}): Observed[] {
  return observed.map((step) => ({
    ...step,
    status: Math.floor(step.status / 100),
    query: allow.oidcChecks ? without(step.query, ["state", "nonce"]) : step.query,
    cookies: step.cookies
      .filter((c) => !(allow.callbackUrlCookie && c.name.endsWith("authjs.callback-url")))
      .filter((c) => !(allow.oidcChecks && /authjs\.(state|nonce)$/.test(c.name)))
      .filter((c) => !(allow.databaseReads && /^(GET|POST) session/.test(step.step) && c.name.endsWith("session-token") && c.op === "set"))
      .map((c) => (c.op === "cleared" ? { ...c, lifetime: "cleared" } : c)),
    body: withoutNulls(step.body),
  }));
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

function without(query: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([key]) => !keys.includes(key)));
}

/** Asserts the two runs agree step by step, once the allowed differences are out. */
export function expectAgree(ours: Observed[], theirs: Observed[], allow: Allowances): void {
  expect(ours.map((s) => s.step)).toEqual(theirs.map((s) => s.step));
  const a = comparable(ours, allow);
  const b = comparable(theirs, allow);
  for (let i = 0; i < a.length; i++) expect(a[i], a[i]!.step).toEqual(b[i]);
}

/** The client session both answer, dates replaced by their kind (as `normalize` does). */
export const signedInAs = (name: string | null, email: string, image: string | null) => ({ user: { name, email, image }, expires: "<date>" });
