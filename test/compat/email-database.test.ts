/**
 * Side by side with `@auth/core` 0.41.3 (see support/driver.ts): an email-link
 * sign-in with database sessions (a fresh MemoryAdapter per handler), the link
 * captured by a `sendVerificationRequest` spy and opened, then a session read,
 * `update()`, sign-out.
 */
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers.js";
import { runSideBySide, type Observed, type Step } from "./support/driver.js";
import { comparable, expectAgree, signedInAs } from "./support/differences.js";
import { AFTER_SIGN_IN, EMAIL_FLOW, EMAIL_SIGN_IN, emailConfig } from "./flows.js";

describe("email-link sign-in with database sessions and an adapter", () => {
  it("with confirmLink: false (Auth.js's GET sign-in) agrees step by step", async () => {
    const { ours, theirs } = await runSideBySide((captured) => emailConfig(captured, { confirmLink: false }), EMAIL_FLOW);
    expectAgree(ours.observed, theirs.observed, { callbackUrlCookie: true, databaseReads: true });
    const at = (name: string) => ours.observed.find((s) => s.step === name)!;
    expect(at("POST signin/email").location).toBe(`${ORIGIN}/auth/verify-request`);
    expect(at("GET the mailed link").location).toBe(`${ORIGIN}/dashboard`);
    expect(at("GET session").body).toEqual(signedInAs(null, "ada@example.com", null));
    // update() answers the new shape; a database session stores nothing of it (on both).
    expect(at("POST session (update)").body).toEqual(signedInAs("Ada L", "ada@example.com", null));
    expect(at("GET session after signout").body).toBeNull();
  });
});

describe("the deliberate differences", () => {
  it("email link confirmation: the link's GET shows a page (Auth.js signs in); its button then signs in as Auth.js's GET did", async () => {
    const confirm: Step = {
      name: "POST the page's button",
      path: "/auth/callback/email",
      form: (s) => {
        const link = new URL(s.captured.link!);
        const field = (name: string) => link.searchParams.get(name)!;
        return { csrfToken: s.csrfToken!, token: field("token"), email: field("email"), callbackUrl: field("callbackUrl") };
      },
    };
    const { ours, theirs } = await runSideBySide((captured) => emailConfig(captured), EMAIL_SIGN_IN);
    const opened = (o: Observed[]) => o.at(-1)!;
    expect([opened(ours.observed).status, opened(ours.observed).body, opened(ours.observed).cookies]).toEqual([200, "html", []]);
    expect([opened(theirs.observed).status, opened(theirs.observed).location]).toEqual([302, `${ORIGIN}/dashboard`]);

    // The button's POST lands where Auth.js's GET did, with the same cookies, and the same session follows.
    const clicked = await runSideBySide((captured) => emailConfig(captured), [...EMAIL_SIGN_IN, confirm, AFTER_SIGN_IN[0]!]);
    const [ourClick, ourRead] = comparable(clicked.ours.observed, { callbackUrlCookie: true }).slice(-2);
    const theirGet = comparable(theirs.observed, { callbackUrlCookie: true }).at(-1)!;
    expect({ ...ourClick, step: "" }).toEqual({ ...theirGet, step: "" });
    expect(ourRead!.body).toEqual({ user: { email: "ada@example.com" }, expires: "<date>" });
  });
});
