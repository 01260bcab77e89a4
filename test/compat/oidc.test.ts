/**
 * Side by side with `@auth/core` 0.41.3 (see support/driver.ts): an OIDC
 * sign-in against a real OpenID Provider (oidc-provider on 127.0.0.1, both
 * handlers on the same registered callback URL), with JWT and with database
 * sessions, then a session read, `update()`, sign-out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers.js";
import { startOidcServer, type OidcServer } from "../oauth/support/oidc-server.js";
import { runSideBySide, type Observed } from "./support/driver.js";
import { expectAgree, signedInAs } from "./support/differences.js";
import { oidcConfig, oidcFlow } from "./flows.js";

let server: OidcServer;
beforeAll(async () => {
  server = await startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`] });
});
afterAll(() => server?.close());

describe("OIDC sign-in against a real OpenID Provider", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`with ${strategy} sessions agrees step by step`, async () => {
      const { ours, theirs } = await runSideBySide(() => oidcConfig(server.issuer, server.clients.basic, { strategy, updateAge: 0 }), oidcFlow("ada"));
      expectAgree(ours.observed, theirs.observed, { callbackUrlCookie: true, oidcChecks: true, databaseReads: strategy === "database" });
      const at = (name: string) => ours.observed.find((s) => s.step === name)!;
      expect(at("POST signin/oidc").location).toBe(server.url("/auth"));
      expect(at("GET callback/oidc (from the IdP)").location).toBe(`${ORIGIN}/dashboard`);
      const image = "https://example.test/avatars/ada.png";
      expect(at("GET session").body).toEqual(signedInAs("Test User ada", "ada@example.test", image));
      expect(at("POST session (update)").body).toEqual(signedInAs("Ada L", "ada@example.test", image));
      // A database session's update() stores nothing (on both): the next read is the stored user.
      expect(at("GET session after update").body).toEqual(signedInAs(strategy === "jwt" ? "Ada L" : "Test User ada", "ada@example.test", image));
      expect(at("GET session after signout").body).toBeNull();
    });
  }
});

describe("the deliberate differences", () => {
  it("oidc state and nonce: we send both with PKCE, Auth.js PKCE only", async () => {
    const { ours, theirs } = await runSideBySide(() => oidcConfig(server.issuer, server.clients.basic, { strategy: "jwt" }), oidcFlow("ada").slice(0, 2));
    const start = (o: Observed[]) => o[1]!;
    const params = (o: Observed[]) => Object.keys(start(o).query);
    const cookies = (o: Observed[]) => start(o).cookies.map((c) => c.name);
    expect(params(ours.observed)).toEqual(expect.arrayContaining(["state", "nonce", "code_challenge"]));
    expect(params(theirs.observed)).toContain("code_challenge");
    expect(params(theirs.observed)).not.toContain("state");
    expect(params(theirs.observed)).not.toContain("nonce");
    expect(cookies(ours.observed)).toEqual(expect.arrayContaining(["authjs.state", "authjs.nonce", "authjs.pkce.code_verifier"]));
    expect(cookies(theirs.observed)).not.toContain("authjs.state");
    expect(cookies(theirs.observed)).not.toContain("authjs.nonce");
  });
});
