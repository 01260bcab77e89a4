/**
 * Side by side with `@auth/core` 0.41.3 (see support/driver.ts): a credentials
 * sign-in with JWT sessions, then a session read, `update()`, sign-out, over
 * http and https. Each flow family has its own file because `@auth/core` keeps
 * some config checks in module state (once an email provider was seen, every
 * later config without an adapter is refused), and vitest isolates files.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers.js";
import { runSideBySide, type Observed, type Step } from "./support/driver.js";
import { DIFFERENCES, expectAgree, signedInAs } from "./support/differences.js";
import { CREDENTIALS_FLOW, credentialsConfig } from "./flows.js";

describe("credentials sign-in with JWT sessions: read, update, sign out", () => {
  for (const origin of [ORIGIN, ORIGIN.replace("http:", "https:")]) {
    it(`agrees step by step on ${new URL(origin).protocol} (cookie names, prefixes and attributes too)`, async () => {
      const { ours, theirs } = await runSideBySide(() => credentialsConfig(), CREDENTIALS_FLOW, origin);
      expectAgree(ours.observed, theirs.observed, { callbackUrlCookie: true });
      const at = (name: string) => ours.observed.find((s) => s.step === name)!;
      expect(at("POST callback/credentials (wrong password)").query).toEqual({ error: "CredentialsSignin", code: "credentials" });
      expect(at("POST callback/credentials").location).toBe(`${origin}/dashboard`);
      expect(at("GET session").body).toEqual(signedInAs("Ada Lovelace", "ada@example.com", "https://example.com/ada.png"));
      expect(at("GET session after update").body).toEqual(signedInAs("Ada L", "ada@example.com", "https://example.com/ada.png"));
      expect(at("POST signout").location).toBe(`${origin}/bye`);
      expect(at("GET session after signout").body).toBeNull();
      // Same names on both: `__Secure-` for the session, `__Host-` for the CSRF cookie on https.
      const https = origin.startsWith("https");
      expect(at("POST callback/credentials").cookies.map((c) => c.name)).toEqual([`${https ? "__Secure-" : ""}authjs.session-token`]);
      expect(at("GET csrf").cookies.map((c) => c.name)).toEqual([`${https ? "__Host-" : ""}authjs.csrf-token`]);
    });
  }
});

describe("the deliberate differences", () => {
  it("each has its reason (security or correctness) and a bullet in docs/migrating-from-authjs.md", () => {
    const section = readFileSync(new URL("../../docs/migrating-from-authjs.md", import.meta.url), "utf8");
    for (const difference of DIFFERENCES) {
      expect(difference.why, difference.id).toMatch(/^(security|correctness): /);
      expect(section, difference.id).toContain(difference.readme);
    }
  });

  it("callback-url cookie: Auth.js sets it on the first request and a sign-out without a destination follows it; we do neither", async () => {
    const flow: Step[] = [...CREDENTIALS_FLOW.slice(0, 4), { name: "POST signout (no destination)", path: "/auth/signout", form: (s) => ({ csrfToken: s.csrfToken! }) }];
    const { ours, theirs } = await runSideBySide(() => credentialsConfig(), flow);
    const names = (o: Observed) => o.cookies.map((c) => c.name);
    expect(names(theirs.observed[0]!)).toContain("authjs.callback-url");
    expect(names(ours.observed[0]!)).not.toContain("authjs.callback-url");
    expect(theirs.jar.get("authjs.callback-url")).toBe(`${ORIGIN}/dashboard`);
    expect(ours.jar.get("authjs.callback-url")).toBeUndefined();
    expect(theirs.observed.at(-1)!.location).toBe(`${ORIGIN}/dashboard`);
    expect(ours.observed.at(-1)!.location).toBe(`${ORIGIN}/`);
  });

  it("jwt re-issue: with the default updateAge a session read re-issues the cookie on Auth.js, not here; an update re-issues on both", async () => {
    const { ours, theirs } = await runSideBySide(() => credentialsConfig({ session: { strategy: "jwt" } }), CREDENTIALS_FLOW.slice(0, 6));
    const cookiesAt = (o: Observed[], step: string) => o.find((s) => s.step === step)!.cookies.map((c) => c.name);
    expect(cookiesAt(theirs.observed, "GET session")).toEqual(["authjs.session-token"]);
    expect(cookiesAt(ours.observed, "GET session")).toEqual([]);
    expect(cookiesAt(ours.observed, "POST session (update)")).toEqual(["authjs.session-token"]);
    expect(cookiesAt(theirs.observed, "POST session (update)")).toEqual(["authjs.session-token"]);
  });
});
